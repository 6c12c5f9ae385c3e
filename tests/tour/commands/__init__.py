"""Tests: the tour's commands in cogs/tour, through the real command tree."""
