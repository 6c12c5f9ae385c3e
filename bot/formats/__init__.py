"""File formats Arbiter reads and writes: adapters between files and core domain values."""
