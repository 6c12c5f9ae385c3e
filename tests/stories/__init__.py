"""Tests: stories."""
