"""Awards without play called directly over a real SQLite unit of work (CCT-9): a
preliminary game and a Finals match (CCT-8f) awarded as forfeit wins, each previewed without
a write, then stored, audited and announced in one unit of work. A refusal writes nothing.
A knock-out series' award is in test_series.py."""

from __future__ import annotations

import pytest

from bot.runtime.clock import VirtualClock
from bot.tour.finals import awards as finals
from bot.tour.game_targets import finals_states, open_targets
from bot.tour.games import service as games
from bot.tour.series import awards as series
from core.results import Result
from core.tour.event_facts import AwardReason
from core.tour.ranking import EventType
from storage.guild import GuildStore
from tests.support.services_world import dump, refused
from tests.support.tour_units import event_of, written
from tests.support.tour_world import ARBITER, player_names, tour_with_event

pytestmark = pytest.mark.on_clock


async def test_cct_9_a_preliminary_game_is_awarded_as_a_forfeit_win(store: GuildStore) -> None:
    """CCT-9: before its session a game is awarded to Black for White's withdrawal: the
    preview writes nothing, the Confirm stores the forfeit and announces it together. Another
    reason without a note, a player not in the game and a second award are refused, writing
    nothing."""
    await tour_with_event(store, players=player_names(8))
    target = open_targets(await event_of(store, "Open"))[0]
    award = games.award_tour_game
    name, black = target.name, target.black
    await refused(
        store.database, award(store, ARBITER, "Open", name, black, "other", confirm=True), "note"
    )
    await refused(
        store.database, award(store, ARBITER, "Open", name, "Nobody", "illness", confirm=True)
    )
    before = await dump(store.database)
    preview = await award(store, ARBITER, "Open", name, black, "withdrawal", confirm=False)
    assert await dump(store.database) == before and preview.loser == target.white
    plan, unit = await written(
        store, award(store, ARBITER, "Open", name, black, "withdrawal", confirm=True)
    )
    assert plan.winner == black and unit.audit.action == "game.award"
    [notice] = unit.announced()
    assert name in notice and "withdrawal" in notice
    loaded = await event_of(store, "Open")
    stored = next(g for g in loaded.games if loaded.game_name(g) == name)
    assert stored.result is Result.BLACK_FORFEIT_WIN and stored.status.settled
    await refused(
        store.database, award(store, ARBITER, "Open", name, black, "withdrawal", confirm=True)
    )


async def test_cct_9_cct_8f_a_finals_match_is_awarded_and_scores_as_a_rapid_win(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-9, CCT-8f: a Finals match awarded for a no-show is stored, announced and audited
    in one unit of work, its winner given the rapid win's match points. `/series award` on
    the Finals and a second award are refused, writing nothing."""
    await tour_with_event(store, event="Finals", kind=EventType.FINALS, players=player_names(10))
    pairing = finals_states(await event_of(store, "Finals"))[0].pairing
    match, white = f"R1 {pairing.white} v {pairing.black}", str(pairing.white)
    await refused(
        store.database,
        series.award_contest_series(
            store, ARBITER, "Finals", "QF1", white, "no-show", confirm=True
        ),
        "/finals award",
    )
    plan, unit = await written(
        store,
        finals.award_contest_finals(
            store, ARBITER, "Finals", match, white, "no-show", confirm=True
        ),
    )
    assert (plan.winner, plan.contest) == (white, match) and "3 match points" in plan.follows[0]
    assert unit.audit.action == "finals.award"
    assert unit.audit.details["award"] == {"contest": match, "reason": "no-show"}
    assert len(unit.announced()) == 1 and match in unit.announced()[0]
    state = finals_states(await event_of(store, "Finals"))[0]
    assert state.record is not None and state.record.walkover
    assert (state.record.winner, state.record.reason) == (white, AwardReason.NO_SHOW)
    await refused(
        store.database,
        finals.award_contest_finals(
            store, ARBITER, "Finals", match, white, "no-show", confirm=True
        ),
    )
