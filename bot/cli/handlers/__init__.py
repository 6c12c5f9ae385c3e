"""The handlers of the subcommands that need the database, discord.py or the bot.

Each subcommand's module in bot/cli reads its arguments and imports its handler here when it
runs. Building the parser imports every module of bot/cli but not this package's, so that
`arbiter --help` and the offline commands start fast. tests/cli/test_cli_imports.py checks it."""
