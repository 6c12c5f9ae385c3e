"""The CCT tour's use cases, read models and automation."""
