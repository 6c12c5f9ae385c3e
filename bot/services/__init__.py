"""Use cases shared by cogs, scheduler jobs and the CLI; each returns what happened."""
