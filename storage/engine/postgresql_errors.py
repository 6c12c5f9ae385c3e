"""asyncpg's errors as storage raises them.

They are subclasses of sqlite3's PEP 249 classes of the same names from
storage/engine/errors.py, so a
caller catches a refusal, and a message names it, alike on both engines, as in `IntegrityError: …`.
`sqlstate` keeps PostgreSQL's code.
"""

from __future__ import annotations

import sqlite3


class IntegrityError(sqlite3.IntegrityError):
    """PostgreSQL refused a change by a constraint, SQLSTATE class 23."""

    sqlstate: str = ""


class OperationalError(sqlite3.OperationalError):
    """PostgreSQL refused or could not run a statement. An empty sqlstate means the connection
    failed.
    """

    sqlstate: str = ""
