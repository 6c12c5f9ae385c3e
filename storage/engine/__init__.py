"""The engine: connections, transactions, migrations, backup, copy and shards."""
