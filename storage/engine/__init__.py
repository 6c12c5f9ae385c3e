"""The engine: connections, transactions, migrations, backup, copy and shards for SQLite and PostgreSQL."""
