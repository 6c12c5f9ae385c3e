"""Tests: the league's commands in cogs/league, through the real command tree."""
