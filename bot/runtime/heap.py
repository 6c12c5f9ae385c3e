"""The bot process's heap: what start-up made is set aside from the cyclic garbage collector,
and young collections come less often, so that the collector's work in a long run follows
what the bot makes, not what it holds."""

from __future__ import annotations

import gc

YOUNG_COLLECTION_EVERY = 7000
"""Allocations between two young-generation collections (Python's default: 700). A result
import allocates some thousands of short-lived objects on many concurrent tasks; at 700 each
collection walks the survivors of the tasks still running. Measured on the import benchmark
(instructions of the event loop's thread, under callgrind): 3 % fewer."""


def freeze_start_up() -> int:
    """Collect, then move every object alive — the modules, classes and validators imported
    before the bot connects, which live as long as the process (the cogs and command tree,
    made in `setup_hook` afterwards, are not among them) — to the collector's permanent
    generation (`gc.freeze`), so that a full collection skips them (before, one took tens of
    milliseconds of the event loop; benchmarks/reports.py: 12 % of the loop's time in the
    collector, 8 % after); and collect the young generation every `YOUNG_COLLECTION_EVERY`
    allocations. Returns how many objects are frozen."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION_EVERY, older, oldest)
    return gc.get_freeze_count()
