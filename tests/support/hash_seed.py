"""A hash seed for a fresh process that differs from the test process's, so a run in the test
process and one in the fresh process order their sets and dicts of strings differently."""

from __future__ import annotations

import os


def another_hash_seed() -> str:
    """A PYTHONHASHSEED other than this process's: 1, or the next one after the seed this
    process was given (a random seed is 1's only with odds of 2⁻⁶⁴)."""
    ours = os.environ.get("PYTHONHASHSEED", "random")
    return "1" if ours == "random" else str((int(ours) + 1) % 2**32)
