"""Tests: rendering."""
