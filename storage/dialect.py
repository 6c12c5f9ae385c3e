"""The two SQL dialects and the one text: every statement in storage/ is written once, in
SQLite's dialect with `?` placeholders; on PostgreSQL `postgres_statement(sql)` gives the text
asyncpg runs, translated once per distinct statement (cached).

What the translation knows, and why each is needed for the same rows on both sides:
`?` → `$1, $2 …`; `LIKE` → `ILIKE … ESCAPE ''` (SQLite's LIKE folds ASCII case and has no
escape character unless one is named; PostgreSQL's LIKE does not fold and escapes with `\\`);
`a IS b` → `a IS NOT DISTINCT FROM b` (SQLite's IS is a null-safe equality); `INTEGER` →
`BIGINT` and `REAL` → `DOUBLE PRECISION` in casts (Discord ids exceed 2^31; SQLite's REAL is a
double); `INSERT OR IGNORE` → `… ON CONFLICT DO NOTHING`; `ifnull` → `coalesce`, `instr` →
`strpos`, two-argument `max`/`min` → `greatest`/`least`; `json_group_object`/`json_group_array`
→ `json_object_agg`/`json_agg` as text, `'{}'`/`'[]'` when there is no row (as SQLite gives);
`BEGIN IMMEDIATE` → `BEGIN`. Anything else SQLite-only — a function this module does not
list, `PRAGMA`, `rowid`, `INSERT OR REPLACE`, `GLOB`, a parameter whose type only IS NULL
would tell — raises `UntranslatableSql` the first time the statement runs on PostgreSQL (every
storage test runs on both), never a silently different query.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from enum import Enum

from storage.sql_tokens import Kind, Token, tokenize


class Dialect(Enum):
    """The database engine a `Database` runs on."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"


class UntranslatableSql(ValueError):
    """SQLite text with no known PostgreSQL equivalent: say how it reads there in this module
    (or, in a migration, in a `-- dialect: postgresql` block, storage/schema_translation.py)."""


SAME_FUNCTIONS = frozenset(
    {"abs", "coalesce", "count", "length", "lower", "ltrim", "nullif", "replace", "round"}
    | {"rtrim", "substr", "trim", "upper", "min", "max", "greatest", "least"}
)
"""Functions that mean the same on both engines (with the collation the columns carry)."""

RENAMED_FUNCTIONS = {"ifnull": "coalesce", "instr": "strpos"}
"""SQLite functions whose PostgreSQL twin only has another name."""

JSON_AGGREGATES = {
    "json_group_object": ("json_object_agg", "{}"),
    "json_group_array": ("json_agg", "[]"),
}
"""SQLite's JSON aggregates: PostgreSQL's name and what SQLite gives for no rows."""

CAST_ONLY = frozenset({"sum", "avg", "total"})
"""Aggregates whose PostgreSQL type differs (numeric for a sum of bigints): allowed only as
the operand of an explicit CAST, so both engines give the same Python type."""

POSTGRES_ONLY_PREFIX = "pg_"
"""PostgreSQL's own functions (an advisory lock), in statements storage sends there alone."""

DDL_FUNCTIONS = frozenset({"json_valid", "json_type"})
"""Translated in migrations' CHECK constraints only (storage/schema_translation.py)."""

_TYPES = {"INTEGER": "BIGINT", "INT": "BIGINT", "REAL": "DOUBLE PRECISION"}
_NOT_CALLS = frozenset(
    {"AND", "OR", "NOT", "IN", "EXISTS", "VALUES", "AS", "ON", "USING", "WHERE", "SELECT"}
    | {"FROM", "JOIN", "BY", "THEN", "ELSE", "WHEN", "CASE", "CHECK", "KEY", "UNIQUE", "SET"}
    | {"CONFLICT", "DO", "RETURNING", "LIMIT", "OFFSET", "UNION", "ALL", "DISTINCT", "INTO"}
    | {"TABLE", "REFERENCES", "IS", "LIKE", "BETWEEN", "CAST", "OVER", "FILTER", "WITH", "END"}
    | {"PRIMARY", "FOREIGN", "INDEX", "DEFAULT", "COLLATE", "RAISE", "UPDATE", "INSERT"}
    | {"DELETE", "TRIGGER", "EACH", "ROW", "ADD", "COLUMN", "RENAME", "TO", "DROP", "IF"}
)
"""Words that may stand before `(` without being a function's name."""
_NAMES_TABLE = frozenset({"INTO", "TABLE", "REFERENCES", "EXISTS"})
"""A name after one of these, before `(`, is a table's (its column list follows)."""


@dataclass(frozen=True)
class PgStatement:
    """A statement as PostgreSQL runs it: its text, whether it returns rows (a query, or a
    write with RETURNING: fetched) and how many parameters it takes."""

    sql: str
    returns_rows: bool
    parameters: int


@functools.lru_cache(maxsize=8192)
def postgres_statement(sql: str) -> PgStatement:
    """`sql` (SQLite's dialect, `?` placeholders) as PostgreSQL runs it; raises
    `UntranslatableSql` for a construct this module does not know."""
    translator = Translator(tokenize(sql), sql)
    text = translator.statement()
    return PgStatement(text, translator.returns_rows, translator.parameters)


class Translator:
    """Translates one statement's tokens (or a part of them) to PostgreSQL text. `ddl`
    allows what only migrations may use (json_valid / json_type checks, GLOB patterns)."""

    def __init__(self, tokens: list[Token], source: str, *, ddl: bool = False) -> None:
        self.tokens = [t for t in tokens if t.kind is not Kind.COMMENT]
        self.source = source
        self.ddl = ddl
        self.parameters = 0
        self.returns_rows = False

    def fail(self, what: str) -> UntranslatableSql:
        """The error for `what`, quoting the statement."""
        text = " ".join(self.source.split())
        shown = text if len(text) <= 200 else text[:200] + "…"
        return UntranslatableSql(f"{what} has no PostgreSQL translation in: {shown}")

    # navigation -----------------------------------------------------------------------

    def next_sig(self, i: int, end: int | None = None) -> int | None:
        """The index of the first significant token after `i` (before `end`), or None."""
        stop = len(self.tokens) if end is None else end
        for j in range(i + 1, stop):
            if self.tokens[j].kind is not Kind.BLANK:
                return j
        return None

    def prev_sig(self, i: int) -> int | None:
        """The index of the last significant token before `i`, or None."""
        for j in range(i - 1, -1, -1):
            if self.tokens[j].kind is not Kind.BLANK:
                return j
        return None

    def close_of(self, i: int) -> int:
        """The index of the `)` closing the `(` at `i`."""
        depth = 0
        for j in range(i, len(self.tokens)):
            if self.tokens[j].is_op("("):
                depth += 1
            elif self.tokens[j].is_op(")"):
                depth -= 1
                if depth == 0:
                    return j
        raise self.fail("an unclosed parenthesis")

    def top_level_commas(self, start: int, end: int) -> int:
        """How many commas tokens[start:end] hold outside nested parentheses."""
        depth, commas = 0, 0
        for token in self.tokens[start:end]:
            if token.is_op("("):
                depth += 1
            elif token.is_op(")"):
                depth -= 1
            elif token.is_op(",") and depth == 0:
                commas += 1
        return commas

    # statements -----------------------------------------------------------------------

    def statement(self) -> str:
        """The whole statement translated (runtime DML, queries, transaction control)."""
        first = self.next_sig(-1)
        if first is None:
            return ""
        head = self.tokens[first]
        if head.is_word("PRAGMA", "REPLACE", "VACUUM", "ATTACH", "DETACH", "REINDEX"):
            raise self.fail(head.upper)
        if head.is_word("BEGIN"):
            rest = self.next_sig(first)
            if rest is not None and not self.tokens[rest].is_word(
                "IMMEDIATE", "DEFERRED", "EXCLUSIVE", "TRANSACTION", "ISOLATION", "READ"
            ):
                raise self.fail("this BEGIN")
            if rest is not None and self.tokens[rest].is_word("IMMEDIATE", "DEFERRED", "EXCLUSIVE"):
                return "BEGIN"
        self.returns_rows = head.is_word("SELECT", "WITH", "VALUES", "SHOW", "EXPLAIN") or any(
            t.is_word("RETURNING") for t in self.tokens
        )
        if head.is_word("INSERT"):
            return self.insert(first)
        return self.span(0, len(self.tokens))

    def insert(self, first: int) -> str:
        """An INSERT; `INSERT OR IGNORE` becomes `… ON CONFLICT DO NOTHING` (before RETURNING)."""
        after = self.next_sig(first)
        if after is None or not self.tokens[after].is_word("OR"):
            return self.span(0, len(self.tokens))
        how = self.next_sig(after)
        if how is None or not self.tokens[how].is_word("IGNORE"):
            raise self.fail("INSERT OR " + ("…" if how is None else self.tokens[how].upper))
        if any(t.is_word("CONFLICT") for t in self.tokens):
            raise self.fail("INSERT OR IGNORE with an ON CONFLICT clause")
        end = len(self.tokens)
        while end > 0 and (
            self.tokens[end - 1].kind is Kind.BLANK or self.tokens[end - 1].is_op(";")
        ):
            end -= 1
        depth, returning = 0, end
        for j in range(how + 1, end):
            token = self.tokens[j]
            depth += token.is_op("(") - token.is_op(")")
            if depth == 0 and token.is_word("RETURNING"):
                returning = j
                break
        head = self.span(0, first + 1)
        body = self.span(how + 1, returning).rstrip()
        tail = self.span(returning, len(self.tokens))
        return f"{head}{body} ON CONFLICT DO NOTHING{' ' + tail if tail.strip() else tail}"

    # expressions ----------------------------------------------------------------------

    def span(self, start: int, end: int) -> str:
        """tokens[start:end] translated."""
        out: list[str] = []
        i = start
        while i < end:
            i = self.one(i, end, out)
        return "".join(out)

    def one(self, i: int, end: int, out: list[str]) -> int:
        """Translate the construct starting at token `i` into `out`; the index after it."""
        token = self.tokens[i]
        if token.kind is Kind.PARAMETER:
            self.parameters += 1
            following = self.next_sig(i, end)
            if following is not None and self.tokens[following].is_word("IS"):
                raise self.fail("a parameter tested with IS (its type is unknown: CAST it)")
            out.append(f"${self.parameters}")
            return i + 1
        if token.is_op("=="):
            out.append("=")
            return i + 1
        if token.kind is not Kind.WORD:
            out.append(token.text)
            return i + 1
        word = token.upper
        if word == "LIKE":
            return self.like(i, end, out)
        if word == "GLOB":
            return self.glob(i, end, out)
        if word == "IS":
            return self.is_(i, end, out)
        if word in _TYPES:
            out.append(_TYPES[word])
            return i + 1
        if word in ("ROWID", "_ROWID_", "OID"):
            raise self.fail(token.text)
        opening = self.next_sig(i, end)
        if opening is not None and self.tokens[opening].is_op("(") and self.is_call(i):
            return self.call(i, opening, out)
        out.append(token.text)
        return i + 1

    def is_call(self, i: int) -> bool:
        """Whether the word at `i`, followed by `(`, names a function (not a keyword, nor a
        table whose column list follows, nor a WITH query's name: `name (a, b) AS (…)`)."""
        if self.tokens[i].upper in _NOT_CALLS:
            return False
        opening = self.next_sig(i)
        if opening is not None:
            after = self.next_sig(self.close_of(opening))
            then = None if after is None else self.next_sig(after)
            if (
                after is not None
                and self.tokens[after].is_word("AS")
                and then is not None
                and self.tokens[then].is_op("(")
            ):
                return False
        before = self.prev_sig(i)
        return before is None or not (
            self.tokens[before].kind is Kind.WORD and self.tokens[before].upper in _NAMES_TABLE
        )

    def call(self, i: int, opening: int, out: list[str]) -> int:
        """A function call `name(…)` at `i` (its `(` at `opening`)."""
        name = self.tokens[i].text.lower()
        closing = self.close_of(opening)
        arguments = self.span(opening + 1, closing)
        if name in SAME_FUNCTIONS or name in RENAMED_FUNCTIONS:
            if name in ("max", "min") and self.top_level_commas(opening + 1, closing) > 0:
                name = "greatest" if name == "max" else "least"
            out.append(f"{RENAMED_FUNCTIONS.get(name, name)}({arguments})")
            return closing + 1
        if name in JSON_AGGREGATES:
            aggregate, empty = JSON_AGGREGATES[name]
            out.append(f"coalesce(CAST({aggregate}({arguments}) AS TEXT), '{empty}')")
            return closing + 1
        if name in CAST_ONLY:
            before = self.prev_sig(i)
            cast = None if before is None else self.prev_sig(before)
            if before is None or cast is None or not self.tokens[before].is_op("("):
                raise self.fail(f"{name}() outside CAST(… AS INTEGER)")
            if not self.tokens[cast].is_word("CAST"):
                raise self.fail(f"{name}() outside CAST(… AS INTEGER)")
            out.append(f"{name}({arguments})")
            return closing + 1
        if name in DDL_FUNCTIONS and self.ddl:
            return self.json_check(name, arguments, closing, out)
        if name.startswith(POSTGRES_ONLY_PREFIX):  # sent on PostgreSQL only (SQLite refuses it)
            out.append(f"{name}({arguments})")
            return closing + 1
        raise self.fail(f"the function {name}()")

    def json_check(self, name: str, arguments: str, closing: int, out: list[str]) -> int:
        """json_valid(x) → `(x IS JSON)`; json_type(x) = 'array' / 'object' → `(x IS JSON
        ARRAY / OBJECT)` (the two types both engines name alike)."""
        if name == "json_valid":
            out.append(f"({arguments} IS JSON)")
            return closing + 1
        equals = self.next_sig(closing)
        value = None if equals is None else self.next_sig(equals)
        if equals is None or value is None or not self.tokens[equals].is_op("="):
            raise self.fail("json_type() not compared with 'array' or 'object'")
        kind = self.tokens[value].text
        if kind not in ("'array'", "'object'"):
            raise self.fail(f"json_type() = {kind}")
        out.append(f"({arguments} IS JSON {kind.strip(chr(39)).upper()})")
        return value + 1

    def like(self, i: int, end: int, out: list[str]) -> int:
        """`LIKE p` → `ILIKE p ESCAPE ''` unless an ESCAPE is named (then `ILIKE p ESCAPE …`)."""
        pattern = self.next_sig(i, end)
        if pattern is None or self.tokens[pattern].kind not in (Kind.PARAMETER, Kind.STRING):
            raise self.fail("LIKE with a pattern other than a parameter or a string")
        out.append("ILIKE")
        out.append(self.span(i + 1, pattern + 1))
        escape = self.next_sig(pattern, end)
        if escape is None or not self.tokens[escape].is_word("ESCAPE"):
            out.append(" ESCAPE ''")
        return pattern + 1

    def glob(self, i: int, end: int, out: list[str]) -> int:
        """`GLOB 'pattern'` (migrations' CHECKs only) → `~ '^regex$'`."""
        pattern = self.next_sig(i, end)
        if not self.ddl or pattern is None or self.tokens[pattern].kind is not Kind.STRING:
            raise self.fail("GLOB")
        out.append("~ '" + glob_regex(self.tokens[pattern].text[1:-1].replace("''", "'")) + "'")
        return pattern + 1

    def is_(self, i: int, end: int, out: list[str]) -> int:
        """`IS [NOT] NULL/TRUE/FALSE/DISTINCT` as written; `a IS [NOT] b` → `a IS [NOT]
        DISTINCT FROM b` with the sense inverted (SQLite's IS compares null-safely)."""
        j = self.next_sig(i, end)
        negated = j is not None and self.tokens[j].is_word("NOT")
        k = self.next_sig(j, end) if negated and j is not None else j
        if k is None or self.tokens[k].is_word("NULL", "TRUE", "FALSE", "DISTINCT", "JSON"):
            out.append(self.tokens[i].text)
            return i + 1
        out.append("IS DISTINCT FROM " if negated else "IS NOT DISTINCT FROM ")
        return k


def glob_regex(pattern: str) -> str:
    """A GLOB pattern (`*`, `?`, `[…]`, case-sensitive, whole text) as a POSIX regex."""
    out = ["^"]
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[":
            closing = pattern.find("]", i + 2)
            if closing < 0:
                raise UntranslatableSql(f"GLOB pattern {pattern!r}: an unclosed [")
            out.append(pattern[i : closing + 1])
            i = closing
        else:
            out.append(re.escape(char).replace("'", "''"))
        i += 1
    return "".join(out) + "$"
