"""The CCT tour's use cases, read models and automation (empty until the tour moves in)."""
