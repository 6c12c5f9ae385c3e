"""Arbiter cogs: the Discord surface, loaded by the bot as extensions by name."""
