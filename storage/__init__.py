"""Arbiter storage: SQLite schema, migrations and repositories over core types."""
