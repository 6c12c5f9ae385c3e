"""The tour's Discord surface: one cog module per command group (docs/tour.md)."""
