"""The knock-out series' use cases called directly over a real SQLite unit of work: the
higher-ranked player's colour choice (CCT-8e) and a series awarded without play (CCT-9),
each one unit of work with its audit row and announcement. A refusal writes nothing."""

from __future__ import annotations

import pytest

from bot.runtime.clock import VirtualClock
from bot.tour.game_targets import knockout_ties
from bot.tour.series import awards
from bot.tour.series import service as series
from core.tour.knockout import Tie
from storage.guild import GuildStore
from tests.support.services_world import dump, refused
from tests.support.tour_units import event_of, knockout_on_its_first_day, written
from tests.support.tour_world import ARBITER, member, player_names, user_of

pytestmark = pytest.mark.on_clock
NAMES = player_names(8)


async def test_cct_8e_the_higher_ranked_player_chooses_the_colour_once(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-8e: in QF1 only P01 (the higher-ranked) or an arbiter chooses. P08's choice is
    refused, P01's stored and audited (no post), a second choice refused. Each refusal writes
    nothing."""
    await knockout_on_its_first_day(store, clock, NAMES)
    lower, higher = member(user_of(7)), member(user_of(0))
    await refused(store.database, series.choose_colour(store, lower, "Open", "QF1", "white"), "P01")
    await refused(store.database, series.choose_colour(store, higher, "Open", "QF1", "red"))
    chosen, unit = await written(store, series.choose_colour(store, higher, "Open", "QF1", "white"))
    assert (chosen.contest, chosen.chooser) == ("QF1", "P01")
    assert (unit.audit.action, unit.audit.actor_id) == ("series.choose", higher.user_id)
    assert unit.posts == () and unit.jobs == ()
    state = knockout_ties(await event_of(store, "Open"))[Tie.QF1].status
    assert state is not None and state.choice_required is None
    await refused(
        store.database, series.choose_colour(store, ARBITER, "Open", "QF1", "black"), "no colour"
    )


async def test_cct_9_a_series_awarded_without_play_is_announced_with_what_follows(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-9: QF2 awarded to P07 for P02's withdrawal: the preview writes nothing, the Confirm
    records the walkover and announces it, in one unit of work. A second
    award, an unknown round and a player not in it are refused, writing nothing."""
    await knockout_on_its_first_day(store, clock, NAMES)
    award = awards.award_contest_series
    await refused(
        store.database, award(store, ARBITER, "Open", "QF9", "P07", "withdrawal", confirm=True)
    )
    await refused(
        store.database,
        award(store, ARBITER, "Open", "QF2", "P01", "withdrawal", confirm=True),
        "P02",
    )
    before = await dump(store.database)
    preview = await award(store, ARBITER, "Open", "QF2", "P07", "withdrawal", confirm=False)
    assert await dump(store.database) == before and (preview.winner, preview.loser) == (
        "P07",
        "P02",
    )
    plan, unit = await written(
        store, award(store, ARBITER, "Open", "QF2", "p07", "withdrawal", confirm=True)
    )
    assert plan.played == 0 and unit.audit.action == "series.award"
    assert unit.audit.details["award"] == {"contest": "QF2", "reason": "withdrawal"}
    [notice] = unit.announced()
    assert "QF2" in notice and "P07" in notice and "withdrawal" in notice
    ties = knockout_ties(await event_of(store, "Open"))
    assert ties[Tie.QF2].winner == "P07"
    await refused(
        store.database, award(store, ARBITER, "Open", "QF2", "P07", "withdrawal", confirm=True)
    )
