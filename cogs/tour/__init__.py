"""The tour's Discord surface: one cog module per command group (SURFACE.md, second part)."""
