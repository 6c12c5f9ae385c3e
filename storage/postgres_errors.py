"""asyncpg's errors as storage raises them: subclasses of sqlite3's PEP 249 classes of the same
names (storage/errors.py), so a caller catches, and a message names, a refusal alike on both
engines (`IntegrityError: …`); `sqlstate` keeps PostgreSQL's code."""

from __future__ import annotations

import sqlite3


class IntegrityError(sqlite3.IntegrityError):
    """PostgreSQL refused a change by a constraint (SQLSTATE class 23)."""

    sqlstate: str = ""


class OperationalError(sqlite3.OperationalError):
    """PostgreSQL refused or could not run a statement ('' sqlstate: the connection failed)."""

    sqlstate: str = ""
