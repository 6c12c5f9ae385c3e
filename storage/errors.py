"""The errors a database raises, whichever engine: storage's callers catch these, never a
driver's (sqlite3's, asyncpg's), so a use case handles a refusal the same on both."""

from __future__ import annotations


class DatabaseError(Exception):
    """A statement the database refused or could not run (the driver's error is the cause)."""


class IntegrityError(DatabaseError):
    """A constraint refused the change: a unique key, a CHECK, a foreign key, a trigger."""
