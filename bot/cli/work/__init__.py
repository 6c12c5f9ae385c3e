"""The work behind subcommands that need discord.py, the database or the bot.

A subcommand imports it when it runs, never when the parser is built, as
tests/cli/test_cli_imports.py checks.
"""
