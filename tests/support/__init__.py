"""Helpers shared by the tests: worlds, fakes, the Discord harness, paths."""
