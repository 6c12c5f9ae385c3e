"""Every row of one Arbiter database into another, empty one, whichever the engines.

It reads one snapshot of the source and writes in one transaction on the target, keeping ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from storage.engine.database import Database
from storage.engine.migrations import discover

BATCH = 2000
"""Rows sent to the target per executemany, which bounds the memory per statement."""


class CopyRefused(Exception):
    """A copy that was not begun: the target holds rows, or the schemas differ."""


class CopyMismatch(Exception):
    """A copy whose target counts differ from the source's. It is rolled back."""


@dataclass(frozen=True)
class CopyReport:
    """What a copy moved: the rows per table, the same on both sides, and the schema version."""

    rows: Mapping[str, int]
    version: int

    @property
    def total(self) -> int:
        """Every row copied."""
        return sum(self.rows.values())


def parents_first(tables: Mapping[str, tuple[str, ...]]) -> list[str]:
    """The tables ordered so that each comes after every table its foreign keys point to."""
    done: list[str] = []

    def visit(table: str, path: tuple[str, ...]) -> None:
        if table in done or table in path:
            return
        for parent in tables.get(table, ()):
            if parent != table and parent in tables:
                visit(parent, (*path, table))
        done.append(table)

    for table in tables:
        visit(table, ())
    return done


async def row_counts(database: Database) -> dict[str, int]:
    """The rows of every Arbiter table, read in one snapshot."""
    tables = await database.tables()
    async with database.read() as connection:
        counts = {}
        for table in tables:
            rows = await connection.execute_fetchall(f'SELECT count(*) FROM "{table}"')
            counts[table] = int(rows[0][0])
    return counts


async def copy_database(source: Database, target: Database) -> CopyReport:
    """Copies every row of the migrated `source` into `target` in one transaction.

    A target holding any row is refused. The row counts are compared before the commit.
    """
    version = len(discover())
    source_version = await source.schema_version()
    if source_version != version:
        raise CopyRefused(
            f"{source.name} is at schema version {source_version}, this program's is {version}:"
            " run `arbiter db migrate` on it first"
        )
    await target.migrate()
    tables = await source.tables()
    if set(await target.tables()) != set(tables):
        raise CopyRefused(f"{target.name} has other tables than {source.name}")
    filled = {table: n for table, n in (await row_counts(target)).items() if n}
    if filled:
        shown = ", ".join(f"{table} ({n})" for table, n in sorted(filled.items())[:5])
        raise CopyRefused(f"{target.name} is not empty: {shown}; copy into an empty database")
    order = parents_first(tables)
    copied: dict[str, int] = {}
    async with source.read() as reading, target.transaction() as writing:
        for table in order:
            rows = await reading.execute_fetchall(f'SELECT * FROM "{table}" ORDER BY 1')
            copied[table] = len(rows)
            if not rows:
                continue
            columns = list(rows[0].keys())
            names = ", ".join(f'"{column}"' for column in columns)
            marks = ", ".join("?" for _ in columns)
            insert = f'INSERT INTO "{table}" ({names}) VALUES ({marks})'
            for start in range(0, len(rows), BATCH):
                await writing.executemany(
                    insert, [tuple(row) for row in rows[start : start + BATCH]]
                )
        for table in order:
            found = await writing.execute_fetchall(f'SELECT count(*) FROM "{table}"')
            if int(found[0][0]) != copied[table]:
                raise CopyMismatch(
                    f"{table}: {copied[table]} rows read, {found[0][0]} in {target.name}"
                )
    await target.after_copy()
    return CopyReport(copied, version)
