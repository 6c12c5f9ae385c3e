"""Arbiter's tests, by layer and story; shared helpers in tests/support."""
