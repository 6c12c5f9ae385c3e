"""Tests: cli."""
