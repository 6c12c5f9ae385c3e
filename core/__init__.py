"""Arbiter core: the regulations as pure functions and immutable data, with no I/O and no
Discord.
"""
