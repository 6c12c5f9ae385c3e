"""The errors a database raises, whichever engine: PEP 249's hierarchy as the standard library's
sqlite3 defines it. On SQLite they are sqlite3's own, unchanged; asyncpg's errors come back as
their subclasses of the same names (storage/postgres_errors.py), so a caller catching
`IntegrityError` (or `sqlite3.IntegrityError`) handles a refusal the same on both engines."""

from __future__ import annotations

import sqlite3

DatabaseError = sqlite3.Error
"""Any error of the database (a refused statement, a lost connection, a full disk)."""

IntegrityError = sqlite3.IntegrityError
"""A constraint refused the change: a unique key, a CHECK, a foreign key, a trigger."""

OperationalError = sqlite3.OperationalError
"""The database could not run the statement (locked, unreachable, a serialization failure)."""
