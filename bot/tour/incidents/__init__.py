"""Disconnection incidents (CCT-10)."""
