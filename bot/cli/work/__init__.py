"""The work behind subcommands that needs discord.py, the database or the bot: imported by a
subcommand when it runs, never when the parser is built (tests/cli/test_cli_imports.py)."""
