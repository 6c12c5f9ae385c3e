"""Tests: the tour's rendering."""
