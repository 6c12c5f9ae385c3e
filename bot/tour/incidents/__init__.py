"""Disconnection incidents, by CCT-10."""
