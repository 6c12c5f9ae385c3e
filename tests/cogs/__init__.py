"""Tests: cogs."""
