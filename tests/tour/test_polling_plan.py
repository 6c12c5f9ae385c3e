"""When the tour's sites are polled (bot/tour/planning/plan.py, issue 31): an 8-player
Regular played through the services on a real database, its one poll job read after each
change — on the first session with a game still to look for, moved on in the unit of work
that settles a session's last game, never on a day whose only games are no longer played
(CCT-8d), cancelled once nothing is left; and a session's three polls spread from its start
to its appeal close (CCT-11)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.runtime.clock import VirtualClock
from bot.tour.events import service as events
from bot.tour.game_names import ROUND_NAMES
from bot.tour.game_targets import knockout_ties, open_targets
from bot.tour.games import service as games
from bot.tour.planning.kinds import POLL
from bot.tour.planning.plan import (
    SessionPoll,
    first_poll,
    next_poll,
    poll_days,
    session_window,
    watchable,
)
from bot.tour.schedule import target_day
from bot.tour.series import service as series
from bot.tour.store import LoadedEvent, load_event
from core.results import Result
from core.tour.knockout import Tie
from core.tour.rules import TourRules
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.jobs import Job
from tests.support.tour_world import ARBITER, ORGANISER, by_order, player_names, tour_with_event

GUILD = 31
ORDER = player_names(8)
START = "2026-06-01"
MORNING = dt.datetime(2026, 6, 1, 8, tzinfo=dt.UTC)
SESSION = dt.datetime(2026, 6, 1, 15, tzinfo=dt.UTC)  # 17:00 Paris
CLOSE = dt.datetime(2026, 6, 1, 22, tzinfo=dt.UTC)  # 23:59 Paris is over


def _agrees(loaded: LoadedEvent) -> bool:
    """`poll_days` covers the day of every game the poll would look for (`open_targets`)."""
    looked_for = {target_day(loaded, t) for t in open_targets(loaded) if watchable(t)}
    return looked_for <= poll_days(loaded)


async def _state(store: GuildStore) -> tuple[LoadedEvent, TourRules, Job | None, dict[str, Any]]:
    """The event now, its tour's rules, its pending poll job and the newest audit entry."""
    async with store.read() as view:
        record = (await view.tour_events.by_name("Open"))[0]
        tour = await view.tours.get(record.tour_id)
        assert tour is not None
        loaded = await load_event(view, record)
        pending = await view.jobs.pending(POLL, f"event:{record.id}")
        [newest] = await view.audit.recent(limit=1)
    assert _agrees(loaded)
    return loaded, tour.rules, pending, newest.details


def _poll_changes(details: dict[str, Any]) -> list[tuple[str, int | None]]:
    """The poll jobs a unit of work scheduled, moved or cancelled (from its audit entry)."""
    made = [
        ("scheduled", j["payload"]["day"]) for j in details.get("jobs", []) if j["kind"] == POLL
    ]
    gone = [("cancelled", None) for j in details.get("jobs_cancelled", []) if j["kind"] == POLL]
    return made + gone


async def _report(store: GuildStore, game: str, result: Result) -> None:
    await games.report_game(store, ARBITER, "Open", game, result)


@pytest.fixture
def clock() -> VirtualClock:
    """The morning of the event's first day (its sessions all ahead)."""
    return VirtualClock(MORNING)


@pytest.mark.on_clock
async def test_cct_8d_the_poll_follows_the_games_left_and_stops_with_the_last(
    database: Database, clock: VirtualClock
) -> None:
    """The draw plans day 1's first poll at its start; the unit of work that settles day 1's
    last game moves it to day 2; the preliminary's last cancels it; the knock-out's start
    plans day 4 (its colour choices, CCT-8e); once every quarter-final's match 1 is won at 2½
    in 3 games (CCT-8d) the 4th games are not played, so the last 3rd game moves the poll to
    day 5 in its own unit of work — day 4 is never polled for them."""
    store = GuildStore(database, GUILD)
    await tour_with_event(store, players=ORDER, seed="poll", start=START)
    loaded, _, pending, _ = await _state(store)
    assert pending is not None and pending.due_at == SESSION
    assert pending.payload == {"event": loaded.record.id, "day": 1, "polls": 1}
    assert poll_days(loaded) == {1, 2, 3}

    result = by_order(ORDER)
    prelim = [t for t in open_targets(loaded) if t.stage == "preliminary"]
    day_one = [t for t in prelim if t.round is not None and t.round <= 3]
    await clock.advance_to(SESSION)  # a game is recorded once its session has started
    for target in day_one:
        await _report(store, target.name, result(target.white, target.black))
        _, _, pending, details = await _state(store)
        if target is not day_one[-1]:
            assert _poll_changes(details) == []  # day 1 still has games to look for
    assert _poll_changes(details) == [("scheduled", 2)]  # in the last one's unit of work
    assert pending is not None and pending.payload["day"] == 2
    await clock.advance_to(SESSION + dt.timedelta(days=2))
    for target in prelim[len(day_one) :]:
        await _report(store, target.name, result(target.white, target.black))
    _, _, pending, details = await _state(store)
    assert pending is None and _poll_changes(details) == [("cancelled", None)]

    await events.start_knockout(store, ORGANISER, "Open", confirm=True)
    loaded, _, pending, _ = await _state(store)
    assert poll_days(loaded) == {4} and pending is not None
    assert pending.payload["day"] == 4
    quarters = (Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4)
    for tie in quarters:
        await series.choose_colour(store, ARBITER, "Open", ROUND_NAMES[tie], "white")
    await clock.advance_to(SESSION + dt.timedelta(days=3))
    for number, tie in enumerate(quarters, start=1):
        for game_no in (1, 2, 3):  # won, won, drawn: 2½-½
            loaded, _, _, _ = await _state(store)
            higher = str(knockout_ties(loaded)[tie].pairing.higher)
            target = next(t for t in open_targets(loaded) if t.tie is tie)
            assert target.name == f"{ROUND_NAMES[tie]} day 1 game {game_no}"
            won = Result.WHITE_WIN if target.white == higher else Result.BLACK_WIN
            await _report(store, target.name, won if game_no < 3 else Result.DRAW)
        loaded, _, pending, details = await _state(store)
        names = [t.name for t in open_targets(loaded)]
        assert f"{ROUND_NAMES[tie]} day 1 game 4" not in names  # won at 2½: not played
        if number < len(quarters):
            assert poll_days(loaded) == {4, 5}
        else:
            assert poll_days(loaded) == {5}
            assert _poll_changes(details) == [("scheduled", 5)]
            assert pending is not None and pending.payload["day"] == 5


@pytest.mark.on_clock
async def test_cct_11_a_session_is_polled_at_its_start_once_between_and_at_its_close(
    database: Database,
) -> None:
    """A session's polls: its start, then its time left split evenly (never sooner than
    the config's least gap, 5 minutes after an outage), the last at its appeal close; then
    the next session's start. A session that has begun is polled at once."""
    store = GuildStore(database, GUILD)
    await tour_with_event(store, players=ORDER, seed="poll", start=START)
    loaded, rules, _, _ = await _state(store)
    assert session_window(loaded.record, rules, 1) == (SESSION, CLOSE)
    hour, five = dt.timedelta(hours=1), dt.timedelta(minutes=5)
    first = first_poll(loaded, rules, MORNING)
    assert first == SessionPoll(1, 1, SESSION)
    assert first_poll(loaded, rules, SESSION + hour) == SessionPoll(1, 1, SESSION + hour)
    second = next_poll(loaded, rules, SESSION, first, every=hour)
    assert second == SessionPoll(1, 2, SESSION + (CLOSE - SESSION) / 2)
    assert next_poll(loaded, rules, SESSION, first, every=8 * hour) == SessionPoll(1, 2, CLOSE)
    outage = next_poll(loaded, rules, SESSION, first, every=hour, retry_after=five)
    assert outage == SessionPoll(1, 2, SESSION + five)
    assert second is not None
    third = next_poll(loaded, rules, second.due_at, second, every=hour, retry_after=five)
    assert third == SessionPoll(1, 3, CLOSE)  # the last one waits for the close
    assert third is not None
    after = next_poll(loaded, rules, CLOSE, third, every=hour)
    assert after == SessionPoll(2, 1, SESSION + dt.timedelta(days=1))
