"""Which engine a database runs on. Both run the same SQL text: statements and migrations are
written in what SQLite and PostgreSQL both read alike (`tests/storage/test_sql_text.py`), with
`?` placeholders, which the PostgreSQL connection numbers for asyncpg."""

from __future__ import annotations

from enum import Enum


class Dialect(Enum):
    """The database engine a `Database` runs on."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"
