"""The league's Discord surface: one cog module per command group (docs/league-in-discord.md)."""
