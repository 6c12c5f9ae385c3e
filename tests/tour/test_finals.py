"""The Finals' use cases called directly over a real SQLite unit of work: the Finals drawn
as a round robin of matches (CCT-8f) and their draw cancelled while no Finals game is played
(CCT-8f with CCT-16), each one unit of work with its audit row, announcement and jobs. A
refusal writes nothing. The Finals here are a tour's only event, its ten places wildcards."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.runtime.clock import VirtualClock
from bot.tour import event_reads, replies
from bot.tour.events import service as events
from bot.tour.finals import awards
from bot.tour.finals import draw as finals
from bot.tour.game_targets import finals_of, finals_states
from bot.tour.games import service as games
from bot.tour.games.settling import stored_as
from bot.tour.tours import reads as tour_reads
from core.results import Result
from core.tour.event_facts import finals_match, finals_matches
from core.tour.game_reports import ReportStatus
from core.tour.ranking import EventType
from storage.guild import GuildStore
from tests.support.services_world import dump, refused
from tests.support.tour_units import at, event_of, written
from tests.support.tour_world import ARBITER, ORGANISER, player_names, tour_with_event

pytestmark = pytest.mark.on_clock
ROUNDS = [f"cct.round.r{n}" for n in range(1, 10)]
APPEALS = [f"cct.appeals.day{n}" for n in range(1, 10)]


async def finals_entered(store: GuildStore) -> None:
    """A tour whose only event is a 10-player Finals, entered and not drawn."""
    await tour_with_event(
        store, event="Finals", kind=EventType.FINALS, players=player_names(10), seed=None
    )


async def test_cct_8f_the_finals_draw_stores_its_matches_jobs_and_announcement(
    store: GuildStore,
) -> None:
    """CCT-8f: the Finals' draw stores the numbers (its matches are played, not stored
    ahead), announces the pairings and schedules a reminder and an appeal close for each of
    its nine days, in one unit of work."""
    await finals_entered(store)
    plan, unit = await written(
        store, events.draw_event(store, ORGANISER, "Finals", seed="s1", confirm=True)
    )
    assert len(plan.pairings) == 45 and len(plan.starts) == 9
    assert unit.audit.action == "event.draw" and "tour_games" not in unit.tables
    assert unit.kinds() == sorted([*ROUNDS, *APPEALS, "cct.poll"])
    assert len(unit.announced()) == 1 and "Finals" in unit.announced()[0]
    assert len(finals_states(await event_of(store, "Finals"))) == 45


async def test_cct_8f_cct_16_the_finals_draw_is_cancelled_until_a_game_is_played(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-8f, CCT-16: the cancel's preview writes nothing. The Confirm drops the numbers and
    cancels every pending job of the draw, announcing it, in one unit of work. Drawn again and
    with one Finals game entered, a cancel is refused, writing nothing. So is a cancel of an
    undrawn event."""
    await finals_entered(store)
    drawn = await events.draw_event(store, ORGANISER, "Finals", seed="s1", confirm=True)
    before = await dump(store.database)
    preview = await finals.cancel_draw(store, ORGANISER, "Finals", confirm=False)
    assert await dump(store.database) == before
    assert (preview.numbers, preview.reminders, preview.appeal_closes) == (drawn.numbers, 9, 9)
    plan, unit = await written(
        store, finals.cancel_draw(store, ORGANISER, "Finals", confirm=True, previewed=drawn.numbers)
    )
    assert plan.stored and unit.audit.action == "finals.cancel_draw"
    assert len(unit.jobs) == 19 and {j.status for j in unit.jobs} == {"cancelled"}
    assert len(unit.announced()) == 1
    assert (await event_of(store, "Finals")).record.drawn_at is None
    await refused(store.database, finals.cancel_draw(store, ORGANISER, "Finals", confirm=True))
    await events.draw_event(store, ORGANISER, "Finals", seed="s2", confirm=True)
    await clock.advance_to(at("2026-04-21 15:30"))
    pairing = finals_states(await event_of(store, "Finals"))[0].pairing
    match = f"R1 {pairing.white} v {pairing.black}"
    await games.report_game(store, ARBITER, "Finals", f"{match} game 1", Result.DRAW)
    await refused(
        store.database, finals.cancel_draw(store, ORGANISER, "Finals", confirm=True), "stands"
    )


async def test_cct_8f_a_finals_result_rejudges_its_match_and_keeps_the_others(
    store: GuildStore, clock: VirtualClock
) -> None:
    """CCT-8f: after a Finals game is settled, the matches carried over from before the change
    and its match judged again are what judging the whole event from its facts gives."""
    await finals_entered(store)
    await events.draw_event(store, ORGANISER, "Finals", seed="s1", confirm=True)
    await clock.advance_to(at("2026-04-21 15:30"))
    before = await event_of(store, "Finals")
    pairing = finals_states(before)[0].pairing
    match = f"R1 {pairing.white} v {pairing.black}"
    for game in (1, 2):
        await games.report_game(store, ARBITER, "Finals", f"{match} game {game}", Result.WHITE_WIN)
    loaded = await event_of(store, "Finals")
    row = next(g for g in loaded.games if g.game_no == 2)
    earlier = loaded.with_game(replace(row, status=ReportStatus.OPEN, result=None))
    after = stored_as(earlier, row)
    assert finals_of(after) == finals_matches(after.facts)
    assert finals_of(after) != finals_of(earlier)
    assert finals_of(after)[0].status == finals_match(after.facts, 1, pairing.board).status


async def test_cct_8f_finals_all_decided_with_a_tie_for_first_name_no_winner(
    store: GuildStore,
) -> None:
    """CCT-8f: Finals with every match decided and three players level on first are finished
    with no winner, and `/tour show` and `/event show` flag the tie for the organiser."""
    await finals_entered(store)
    await events.draw_event(store, ORGANISER, "Finals", seed="s1", confirm=True)
    names = player_names(10)
    upsets = {frozenset(names[:2]): names[1], frozenset(names[1:3]): names[2]}
    for state in finals_states(await event_of(store, "Finals")):
        white, black = str(state.pairing.white), str(state.pairing.black)
        pair = frozenset((white, black))
        winner = upsets.get(pair, min(pair, key=names.index))
        match = f"R{state.pairing.round} {white} v {black}"
        await awards.award_contest_finals(
            store, ARBITER, "Finals", match, winner, "no-show", None, confirm=True
        )
    read = await event_reads.read_event(store, "Finals")
    tied = tuple(names[:3])
    assert (read.state.status, read.state.winner, read.state.tied_for_first) == (
        "finished",
        None,
        tied,
    )
    text = str(replies.event_card(read)[0]["description"])
    assert "Status: finished;" in text and "Won by" not in text
    assert f"Tied for first: {', '.join(tied)} (the organiser decides, CCT-8f)" in text
    [line] = (await tour_reads.tour_card(store, "Tour")).events
    assert (line.status, line.winner, line.tied_for_first) == ("finished", None, tied)
