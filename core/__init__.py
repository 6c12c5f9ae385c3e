"""Arbiter core: the regulations as pure functions and immutable data (no I/O, no Discord)."""
