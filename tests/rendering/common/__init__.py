"""Tests: rendering shared by both competitions."""
