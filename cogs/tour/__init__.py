"""The tour's Discord surface: one cog module per command group, as docs/tour.md describes."""
