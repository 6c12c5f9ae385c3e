"""File formats as adapters: each converts a file to and from core domain values."""
