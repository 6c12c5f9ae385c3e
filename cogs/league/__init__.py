"""The league's Discord surface: one cog module per command group, as docs/league-in-discord.md
describes.
"""
