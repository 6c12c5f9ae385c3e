"""Tests: the league's use cases in bot/league."""
