"""Tests: the Discord wiring of bot/app and the shared cogs (setup, help)."""
