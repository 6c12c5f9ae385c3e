"""Which engine a database runs on. Both run the same SQL text with `?` placeholders."""

from __future__ import annotations

from enum import Enum


class Dialect(Enum):
    """The database engine a `Database` runs on."""

    SQLITE = "sqlite"
    POSTGRESQL = "postgresql"
