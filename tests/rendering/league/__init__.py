"""Tests: the league's rendering."""
