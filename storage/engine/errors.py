"""The errors a database raises, whichever the engine: PEP 249's hierarchy as sqlite3 defines it.

asyncpg's errors come back as subclasses of the same names, so a caller catching `IntegrityError`
handles a refusal the same way on both engines.
"""

from __future__ import annotations

import sqlite3

DatabaseError = sqlite3.Error
"""Any error of the database, such as a refused statement, a lost connection or a full disk."""

IntegrityError = sqlite3.IntegrityError
"""A constraint refused the change: a unique key, a CHECK, a foreign key, a trigger."""

OperationalError = sqlite3.OperationalError
"""The statement could not run: the database is locked, unreachable or hit a serialization failure.
"""
