"""One SQL text for both engines: every statement in storage/ and every migration both run is
written in what SQLite and PostgreSQL read alike. Words only one engine knows are refused
here, outside that engine's own modules and migration texts."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from core.tour.rules import TourRules
from storage.engine.database import Database
from storage.engine.migrations import MIGRATIONS_DIR, POSTGRESQL, discover
from storage.engine.postgresql import PostgresDatabase
from storage.engine.postgresql_connection import PostgresConnection, numbered
from storage.guild import GuildStore

STORAGE = Path(__file__).parents[2] / "storage"

SQLITE_MODULES = frozenset(
    {"engine/connection.py", "engine/database.py", "engine/migrations.py", "engine/backup.py"}
)
"""SQLite's engine: PRAGMAs, BEGIN IMMEDIATE, its catalog and backup."""

POSTGRES_MODULES = frozenset({"engine/postgresql.py", "engine/postgresql_connection.py"})
"""PostgreSQL's engine: advisory locks, LISTEN/NOTIFY, identity sequences, its catalog."""

SQLITE_ONLY = {
    "INSERT OR IGNORE / REPLACE": r"\b(INSERT|UPDATE)\s+OR\s+\w+|\bREPLACE\s+INTO\b",
    "AUTOINCREMENT": r"\bAUTOINCREMENT\b",
    "PRAGMA": r"\bPRAGMA\b",
    "GLOB": r"\bGLOB\b",
    "rowid": r"\b(rowid|sqlite_master|sqlite_schema)\b",
    "BEGIN IMMEDIATE": r"\bBEGIN\s+(IMMEDIATE|DEFERRED|EXCLUSIVE)\b",
    "SQLite's functions": r"\b(ifnull|instr|json_group_\w+|json_valid|json_type|total|strftime"
    r"|julianday|datetime|group_concat|printf)\s*\(",
    "==": r"==",
    "a two-argument max or min": r"\b(max|min)\s*\([^()]*,",
    "a cast to INTEGER (int4 on PostgreSQL)": r"\bAS\s+(INTEGER|INT|REAL)\s*\)",
    "a null-safe IS": r"(?-i:\bIS\s+(NOT\s+)?(?!NOT\b|NULL\b|TRUE\b|FALSE\b|DISTINCT\b|JSON\b)\w)",
}
"""What SQLite alone reads (or reads differently), each with a pattern finding it (keywords
in any case, but IS in capitals as statements write it: prose says "is")."""

POSTGRES_ONLY = {
    "ILIKE": r"\bILIKE\b",
    ":: casts": r"::",
    "$n placeholders": r"\$\d",
    "PostgreSQL's types": r"\b(SERIAL|BIGSERIAL|BYTEA|JSONB|TIMESTAMPTZ|IDENTITY)\b",
    "PostgreSQL's functions": r"\b(greatest|least|strpos|json_agg|json_object_agg|string_agg"
    r"|now|pg_\w+)\s*\(",
    "IS JSON": r"\bIS\s+(NOT\s+)?JSON\b",
    "COLLATE": r"\bCOLLATE\b",
    "DISTINCT ON": r"\bDISTINCT\s+ON\b",
    "a regex match": r"\s!?~\*?\s",
}
"""What PostgreSQL alone reads."""


def refused(sql: str, words: dict[str, str]) -> list[str]:
    """The names of the words of `words` found in `sql`."""
    return [name for name, pattern in words.items() if re.search(pattern, sql, re.IGNORECASE)]


def unfolded_likes(sql: str) -> list[str]:
    """The LIKEs of `sql` that do not name their ESCAPE or compare text that is not case-folded
    (SQLite's LIKE folds ASCII case and has no escape character; PostgreSQL's does neither)."""
    found = []
    for like in re.finditer(r"\bLIKE\s+(\?|'(?:[^']|'')*')", sql, re.IGNORECASE):
        before = sql[: like.start()].rstrip()
        after = sql[like.end() :]
        if before.endswith(")"):
            depth, i = 0, len(before) - 1
            while i >= 0:
                depth += {")": 1, "(": -1}.get(before[i], 0)
                if depth == 0:
                    break
                i -= 1
            head, inside = before[:i].rstrip(), before[i:]
            folded = head.lower().endswith("lower") or (
                head.upper().endswith("CAST") and inside.upper().endswith("AS TEXT)")
            )
        else:
            folded = re.search(r"(_key|chesscom_id)$", before) is not None
        if not folded or not re.match(r"\s+ESCAPE\b", after, re.IGNORECASE):
            found.append(sql[max(0, like.start() - 40) : like.end()])
    return found


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of `tree` (prose, not SQL)."""
    ids = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            ids.add(id(body[0].value))
    return ids


def module_texts(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module with their lines (an f-string's parts joined, `x` for
    each value), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = _docstrings(tree)
    parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    texts = []
    for node in ast.walk(tree):
        if id(node) in skipped or id(node) in parts:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            joined = "".join(v.value if isinstance(v, ast.Constant) else " x " for v in node.values)
            texts.append((node.lineno, joined))
    return texts


def without_comments(script: str) -> str:
    """A migration's text without its `--` comments."""
    return "\n".join(line.split("--", 1)[0] for line in script.splitlines())


def test_the_checks_find_each_word_one_engine_alone_reads() -> None:
    assert refused("INSERT OR IGNORE INTO t VALUES (1)", SQLITE_ONLY) == [
        "INSERT OR IGNORE / REPLACE"
    ]
    assert refused("SELECT max(a, b), ifnull(a, 0) FROM t WHERE a IS b", SQLITE_ONLY) == [
        "SQLite's functions",
        "a two-argument max or min",
        "a null-safe IS",
    ]
    assert refused("SELECT CAST(? AS INTEGER) WHERE a IS NOT NULL", SQLITE_ONLY) == [
        "a cast to INTEGER (int4 on PostgreSQL)"
    ]
    assert refused("SELECT a::text FROM t WHERE b ILIKE $1", POSTGRES_ONLY) == [
        "ILIKE",
        ":: casts",
        "$n placeholders",
    ]
    assert refused("SELECT max(a), coalesce(a, 0) FROM t WHERE a IS NOT NULL", SQLITE_ONLY) == []
    assert unfolded_likes("WHERE name LIKE ? ESCAPE '\\'") == ["WHERE name LIKE ?"]
    assert unfolded_likes("WHERE name_key LIKE ?") == ["WHERE name_key LIKE ?"]
    assert not unfolded_likes("WHERE lower(x) LIKE ? ESCAPE '\\' OR a.name_key LIKE ? ESCAPE '\\'")
    assert not unfolded_likes("WHERE CAST(m.id AS TEXT) LIKE ? ESCAPE '\\'")


def test_every_statement_in_storage_is_one_text_for_both_engines() -> None:
    problems = []
    modules = sorted(STORAGE.rglob("*.py"))
    names = {path.relative_to(STORAGE).as_posix() for path in modules}
    assert names >= SQLITE_MODULES | POSTGRES_MODULES  # the engines' modules are where it says
    for path in modules:
        name = path.relative_to(STORAGE).as_posix()
        for line, text in module_texts(path):
            found = []
            if name not in SQLITE_MODULES:
                found += refused(text, SQLITE_ONLY)
            if name not in POSTGRES_MODULES:
                found += refused(text, POSTGRES_ONLY)
            if name not in SQLITE_MODULES | POSTGRES_MODULES:
                found += unfolded_likes(text)
            problems += [f"{name}:{line}: {word}" for word in found]
    assert len(modules) > 30 and problems == []


def test_every_migration_is_written_for_the_engines_that_run_it() -> None:
    migrations = discover(MIGRATIONS_DIR)
    assert len(migrations) >= 15
    problems = []
    twins = {path.name for path in (MIGRATIONS_DIR / POSTGRESQL).glob("*.sql")}
    assert twins <= {m.path.name for m in migrations}  # no twin without its migration
    for migration in migrations:
        sqlite = without_comments(migration.sql)
        postgres = without_comments(migration.postgres_sql)
        common = migration.path.name not in twins
        found = refused(sqlite, POSTGRES_ONLY) + refused(postgres, SQLITE_ONLY)
        if common:  # a table's columns are declared differently: such a migration has a twin
            found += ["a column declared"] * bool(re.search(r"\b(INTEGER|TEXT|REAL)\b", sqlite))
        problems += [f"{migration.path.name}: {name}" for name in found]
    assert problems == []
    assert migrations[13].postgres_path == migrations[13].path  # 0014: both run it as is


def test_placeholders_are_numbered_outside_string_literals() -> None:
    assert numbered("SELECT ? FROM t WHERE a = ? AND b = '?' AND c = 'it''s ?'") == (
        "SELECT $1 FROM t WHERE a = $2 AND b = '?' AND c = 'it''s ?'"
    )


async def _columns(database: Database) -> dict[str, list[tuple[str, bool]]]:
    """Each table's columns (name, NOT NULL) as the engine's catalog says."""
    tables: dict[str, list[tuple[str, bool]]] = {}
    async with database.read() as connection:
        if isinstance(database, PostgresDatabase):
            assert isinstance(connection, PostgresConnection)
            rows = await connection.native(
                "SELECT table_name, column_name, is_nullable = 'NO' FROM"
                " information_schema.columns WHERE table_schema = current_schema()"
                " AND table_name <> 'arbiter_schema_version' ORDER BY table_name, column_name"
            )
            for table, column, not_null in rows:
                tables.setdefault(str(table), []).append((str(column), bool(not_null)))
            return tables
        names = await connection.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        )
        for (name,) in names:
            info = await connection.execute_fetchall(f'PRAGMA table_info("{name}")')
            tables[str(name)] = sorted((str(r[1]), bool(r[3]) or bool(r[5])) for r in info)
    return tables


async def test_the_migrations_give_both_engines_the_same_tables_and_columns(
    database: Database, tmp_path: Path
) -> None:
    """PostgreSQL's twins of the migrations give the tables, columns and NOT NULLs that the
    SQLite texts give (a primary key counts as NOT NULL on both)."""
    sqlite = await Database.open(tmp_path / "twin.db")
    try:
        await sqlite.migrate()
        assert await _columns(database) == await _columns(sqlite)
    finally:
        await sqlite.close()


async def test_name_lookups_grouped_by_key_read_alike_on_both_engines(database: Database) -> None:
    """Autocomplete's player names, grouped by their folded key, name one spelling per key
    (an aggregate: PostgreSQL refuses a bare column beside GROUP BY, SQLite picks any row)."""
    store = GuildStore(database, 1)
    async with store.change(1, "test", "names") as uow:
        assert await uow.rosters.link(5, "Alice", 5)
        assert await uow.rosters.link(6, "Bob", 6)
        tour = await uow.tours.create("Spring", TourRules())
        await uow.tours.add_player(tour.id, "Alice")
        await uow.tours.add_player(tour.id, "Alan")
    async with store.read() as view:
        assert await view.lookups.players("A") == ["Alice"]
        assert await view.tour_lookups.players("al") == ["Alan", "Alice"]
        assert await view.tour_lookups.players("al", "spring") == ["Alan", "Alice"]
