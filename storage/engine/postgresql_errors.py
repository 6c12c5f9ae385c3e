"""asyncpg's errors as storage raises them."""

from __future__ import annotations

import sqlite3


class IntegrityError(sqlite3.IntegrityError):
    """PostgreSQL refused a change by a constraint, SQLSTATE class 23."""

    sqlstate: str = ""


class OperationalError(sqlite3.OperationalError):
    """PostgreSQL refused a statement. An empty sqlstate means the connection failed."""

    sqlstate: str = ""
