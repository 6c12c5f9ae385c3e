"""The bot process freezes what start-up made and collects its young objects less often
(`bot.runtime.heap`): the collector's full collections then skip what start-up made
(`arbiter run` logs the count: tests/process/test_arbiter_run.py)."""

from __future__ import annotations

import gc

from bot.runtime.heap import YOUNG_COLLECTION_EVERY, freeze_start_up


def test_start_up_objects_are_moved_out_of_the_collectors_generations() -> None:
    alive = [[index] for index in range(1000)]  # tracked objects alive at start-up
    threshold = gc.get_threshold()
    try:
        frozen = freeze_start_up()
        assert frozen == gc.get_freeze_count() >= len(alive)
        tracked = {id(o) for o in gc.get_objects()}  # the frozen are in no generation
        assert not tracked & {id(o) for o in alive}
        assert gc.get_threshold() == (YOUNG_COLLECTION_EVERY, *threshold[1:])
    finally:
        gc.unfreeze()  # the test process goes on collecting them, as before
        gc.set_threshold(*threshold)
    assert {id(o) for o in alive} <= {id(o) for o in gc.get_objects()}
