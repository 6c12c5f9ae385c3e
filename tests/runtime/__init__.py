"""Tests: runtime."""
