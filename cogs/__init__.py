"""Arbiter cogs: the Discord surface, loaded by the bot by module name."""
