"""The game use cases called directly over a real SQLite unit of work: a player's report, the
opponent's confirmation or dispute, an arbiter's correction (CCT-9), a PGN's draw before move
40 flagged (CCT-7). Each is one unit of work whose result, audit row, posts and jobs are
written together. A refusal writes nothing."""

from __future__ import annotations

import pytest

from bot.runtime.clock import VirtualClock
from bot.tour.game_targets import GameTarget, open_targets
from bot.tour.games import service as games
from core.results import Result
from core.tour.game_reports import ReportStatus
from storage.guild import GuildStore
from tests.support.services_world import refused
from tests.support.tour_units import at, event_of, written
from tests.support.tour_world import (
    ARBITER,
    EARLY_DRAW_MOVES,
    member,
    pgn_text,
    player_names,
    tour_with_event,
)

pytestmark = pytest.mark.on_clock
NAMES = player_names(8)


async def first_game(store: GuildStore, clock: VirtualClock) -> tuple[GameTarget, int, int]:
    """A drawn 8-player event on its first session: its first open game and the members of
    its White and Black."""
    await tour_with_event(store, players=NAMES)
    return await on_first_session(store, clock, open_targets(await event_of(store, "Open"))[0])


async def on_first_session(
    store: GuildStore, clock: VirtualClock, target: GameTarget
) -> tuple[GameTarget, int, int]:
    """Move the clock to the first session. Returns `target` and its White's and Black's members."""
    await clock.advance_to(at("2026-04-21 15:30"))
    loaded = await event_of(store, "Open")
    white, black = loaded.user_of(target.white), loaded.user_of(target.black)
    assert white is not None and black is not None
    return target, white, black


async def test_cct_9_a_players_report_waits_for_the_opponents_confirmation(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-9: before its session a report is refused. White's report waits (its
    auto-confirmation scheduled with it), someone else's is refused, Black's Confirm settles
    the game and cancels that job in the same unit of work. Each refusal writes nothing."""
    await tour_with_event(store, players=NAMES)
    target = open_targets(await event_of(store, "Open"))[0]
    await refused(
        store.database, games.report_game(store, ARBITER, "Open", target.name, Result.DRAW)
    )
    target, white, black = await on_first_session(store, clock, target)
    outsider = next(u for u in range(1000, 1008) if u not in (white, black))
    await refused(
        store.database,
        games.report_game(store, member(outsider), "Open", target.name, Result.WHITE_WIN),
    )
    changed, unit = await written(
        store, games.report_game(store, member(white), "Open", target.name, Result.WHITE_WIN)
    )
    assert changed.game.status is ReportStatus.REPORTED and changed.ask_user == black
    assert (unit.audit.action, unit.audit.actor_id) == ("game.report", white)
    assert unit.kinds() == ["cct.confirm"] and unit.jobs[0].subject == f"game:{changed.game.id}"
    assert [p.dm_user_id for p in unit.posts] == [black]  # CONFIRM is on by default
    await refused(store.database, games.answer_report(store, member(white), changed.game.id, True))
    confirmed, unit = await written(
        store, games.answer_report(store, member(black), changed.game.id, True)
    )
    assert confirmed.game.status.settled and confirmed.game.result is Result.WHITE_WIN
    assert unit.audit.action == "game.confirm" and unit.kinds() == []
    assert [(j.kind, j.status) for j in unit.jobs if j.kind == "cct.confirm"] == [
        ("cct.confirm", "cancelled")
    ]


async def test_cct_9_a_dispute_goes_to_the_arbiters_with_the_disputed_report(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-9: Black disputes White's report: the game is disputed, the arbiters' channel
    told and the auto-confirmation dropped, in one unit of work."""
    target, white, black = await first_game(store, clock)
    reported = await games.report_game(store, member(white), "Open", target.name, Result.DRAW)
    disputed, unit = await written(
        store, games.answer_report(store, member(black), reported.game.id, False)
    )
    assert disputed.game.status is ReportStatus.DISPUTED
    assert unit.audit.action == "game.dispute" and len(unit.to_arbiters()) == 1
    assert target.name in unit.to_arbiters()[0] and unit.announced() == []
    assert [j.status for j in unit.jobs] == ["cancelled"]


async def test_cct_9_a_correction_for_deliberate_disconnection_expels_the_loser(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-9: an arbiter's correction on the ground of a deliberate disconnection needs a
    decisive result (a draw is refused, writing nothing). With one it stores the override,
    expels the loser and announces the correction together."""
    target, _, _ = await first_game(store, clock)
    deliberate = "deliberate-disconnection"
    await refused(
        store.database,
        games.correct_game(store, ARBITER, "Open", target.name, Result.DRAW, "left", deliberate),
        "decisive",
    )
    changed, unit = await written(
        store,
        games.correct_game(
            store, ARBITER, "Open", target.name, Result.WHITE_WIN, "left on purpose", deliberate
        ),
    )
    assert changed.game.result is Result.WHITE_WIN and changed.game.status.settled
    assert unit.audit.action == "game.correct" and unit.audit.actor_id == ARBITER.user_id
    assert {"tour_games", "tour_players", "outbox", "audit"} <= unit.tables
    [notice] = unit.announced()
    assert target.name in notice and "left on purpose" in notice
    async with store.read() as view:
        tour_id = (await event_of(store, "Open")).record.tour_id
        loser = await view.tours.player_by_name(tour_id, target.black)
    assert loser is not None and loser.expelled


async def test_cct_7_a_pgn_draw_before_move_40_is_flagged_to_the_arbiters(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-7: an arbiter enters a game from its PGN, a draw agreed at move 5: the result is
    stored and the arbiters are told of the early draw in the same unit of work. A PGN of
    other players is refused, writing nothing."""
    target, _, _ = await first_game(store, clock)
    early = pgn_text(target.white, target.black, EARLY_DRAW_MOVES)
    wrong = pgn_text(target.black, target.white, EARLY_DRAW_MOVES)
    await refused(
        store.database, games.report_game(store, ARBITER, "Open", target.name, None, pgn=wrong)
    )
    changed, unit = await written(
        store, games.report_game(store, ARBITER, "Open", target.name, None, pgn=early)
    )
    assert changed.early_draw and changed.game.result is Result.DRAW
    assert unit.audit.action == "game.report" and len(unit.to_arbiters()) == 1
    assert "40" in unit.to_arbiters()[0]
