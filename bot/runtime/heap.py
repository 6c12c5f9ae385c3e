"""The bot process's heap: what start-up made is set aside from the cyclic garbage collector,
so that the collections a long run makes scan only what the bot made since."""

from __future__ import annotations

import gc


def freeze_start_up() -> int:
    """Collect, then move every object alive — the modules, classes, validators and command
    tree start-up made, which live as long as the process — to the collector's permanent
    generation (`gc.freeze`): a full collection then skips them. Before, one took tens of
    milliseconds of the event loop (benchmarks/reports.py: 12 % of the loop's time in the
    collector; 7 % after). Returns how many objects are frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
