"""The league's Discord surface: one cog module per command group (SURFACE.md, first part)."""
