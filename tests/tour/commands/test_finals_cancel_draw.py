"""CCT-8f read with CCT-16 through the real command tree: `/finals cancel-draw`. Once the
Finals are drawn no result of an earlier event changes (their bonus is read from it); the
organiser cancels the Finals' draw while no Finals game is played, corrects the earlier
event, and draws the Finals again. Each test builds its own tour: a Regular event of 10
players played out in number order (its start in the past), then Finals of places 1-8,
P09 (a Tour Ambassador) and P10 (the organiser's wildcard, no Ambassador being left)."""

from __future__ import annotations

import datetime as dt

from bot.tour.events import service as events
from bot.tour.game_targets import open_targets
from bot.tour.games import service as games
from bot.tour.planning.kinds import event_subject
from bot.tour.tours import service as tours
from core.results import Result
from core.tour.event_facts import round_robin
from core.tour.ranking import EventType
from storage.shared.jobs import Job
from tests.support.discord_harness import Outcome
from tests.support.discord_markdown import parse, shown
from tests.support.tour_desk import IN_MODULE_LOOP, PLAYER_IDS, Desk, module_desk
from tests.support.tour_play import play_to_the_deciding_game
from tests.support.tour_world import ARBITER, ORGANISER, player_names, tour_with_event

NAMES = player_names(10)
PAST = "2026-04-20"
"""A start before the desk's clock (2026-05-01 09:00 UTC): the Regular event is played out."""


desk = module_desk("finals-cancel")


async def jobs_of(desk: Desk, event: str) -> list[Job]:
    """Every job of the event, whatever its status."""
    loaded = await desk.event(event)
    async with desk.store.read() as view:
        return await view.jobs.of_subject(event_subject(loaded.record.id))


def refused(outcome: Outcome) -> str:
    """The one private line of a refusal, as Discord shows it."""
    text = outcome.reply.content or ""
    assert outcome.reply.ephemeral and "\n" not in text.strip(), outcome.reply.text()
    return shown(parse(text))


async def drawn_finals(desk: Desk, tour: str, first_user: int, finals_start: str) -> str:
    """The tour's Regular event played out and its Finals drawn through the command tree
    (seed "f"); the name of the Regular event's game P01 v P08, to correct later."""
    store = desk.store
    regular = f"{tour} open"
    await tour_with_event(
        store,
        tour=tour,
        event=regular,
        players=NAMES,
        first_user=first_user,
        start=PAST,
        played=True,
    )
    deciding = await play_to_the_deciding_game(store, regular, NAMES)
    await games.report_game(store, ARBITER, regular, deciding, Result.DRAW)
    loaded = await desk.event(regular)
    game = next(
        loaded.game_name(g)
        for g in loaded.games
        if {loaded.names[g.white_id], loaded.names[g.black_id]} == {"P01", "P08"}
    )
    finals = f"{tour} finals"
    await events.create_event(store, ORGANISER, tour, finals, EventType.FINALS, finals_start)
    await tours.set_ambassador(store, ORGANISER, tour, "P09", True)
    for name in NAMES:
        # CCT-3: places 1-8 of the standings, P09 an Ambassador; no Ambassador is left for
        # the last place, which takes a wildcard.
        await events.add_player(store, ORGANISER, finals, name, wildcard=name == "P10")
    drawn = await desk.draw(finals, "f")
    assert "stored" in drawn.reply.text(), drawn.reply.text()
    return game


async def audit_actions(desk: Desk) -> list[str]:
    """The actions of the guild's audit rows, oldest first."""
    async with desk.store.read() as view:
        return [a.action for a in await view.audit.recent(1000)]


@IN_MODULE_LOOP
async def test_cct_8f_cct_16_the_finals_draw_is_cancelled_then_the_correction_passes(
    desk: Desk,
) -> None:
    """CCT-8f, CCT-16: the preview says what is undone and what stays; Cancel stores
    nothing; Confirm clears the pairing numbers, cancels the Finals' jobs, audits and
    announces it. The correction refused while the Finals were drawn then passes, and
    `/event draw` draws the Finals again, checking their field once more (CCT-3)."""
    game = await drawn_finals(desk, "Undo", PLAYER_IDS + 100, "2026-05-20")
    finals = "Undo finals"
    fixed = await desk.run(
        "game correct", desk.arbiter, event="Undo open", game=game, result="½-½", reason="x"
    )
    text = refused(fixed)
    assert "Undo finals" in text and "while no Finals game is played" in text, text
    assert "cancel the Finals' draw with `/finals cancel-draw` first" in (fixed.reply.content or "")
    pending = [j for j in await jobs_of(desk, finals) if j.status == "pending"]
    kinds = sorted(j.kind for j in pending)
    assert "cct.poll" in kinds and "cct.round.r1" in kinds and "cct.appeals.day1" in kinds, kinds

    preview = await desk.run("finals cancel-draw", desk.organiser, event=finals)
    shown_text = preview.reply.text()
    assert "Nothing is stored" in (preview.reply.content or ""), shown_text
    drawn = (await desk.event(finals)).by_pairing
    assert f"1. {drawn[0].name}" in shown_text and "45 matches over 9 rounds" in shown_text
    assert "9 round reminder(s), 1 poll(s) of the sites and 9 appeal close(s)" in shown_text
    assert "10 entries (1 wildcard(s))" in shown_text, shown_text
    cancelled = await desk.click(preview.reply, "Cancel", desk.organiser)
    assert "nothing was stored" in cancelled.reply.text().lower(), cancelled.reply.text()
    assert (await desk.event(finals)).record.drawn_at is not None
    assert [j for j in await jobs_of(desk, finals) if j.status == "pending"] == pending
    assert "finals.cancel_draw" not in await audit_actions(desk)

    preview = await desk.run("finals cancel-draw", desk.organiser, event=finals)
    confirmed = await desk.click(preview.reply, "Confirm", desk.organiser)
    assert "cancelled" in confirmed.reply.text() and "19 scheduled job(s)" in confirmed.reply.text()
    after = await desk.event(finals)
    assert after.record.drawn_at is None and after.record.draw_seed is None
    assert len(after.players) == 10 and all(p.pairing_no is None for p in after.players)
    assert [p.name for p in after.players if p.wildcard] == ["P10"]
    jobs = {j.id: j.status for j in await jobs_of(desk, finals)}
    assert all(jobs[j.id] == "cancelled" for j in pending), jobs
    async with desk.store.read() as view:
        [audit] = [a for a in await view.audit.recent(20) if a.action == "finals.cancel_draw"]
    assert audit.actor_id == desk.organiser.id and audit.details["seed"] == "f"
    assert audit.details["numbers"] == [p.name for p in drawn]
    await desk.clock.advance(dt.timedelta(0))  # the outbox's pass: posts delivered
    announced = [p.content or "" for p in desk.harness.posts]
    assert any("draw of **Undo finals** is cancelled" in t for t in announced), announced
    again = await desk.run("finals cancel-draw", desk.organiser, event=finals)
    assert "have no draw to cancel" in refused(again)

    corrected = await desk.run(
        "game correct", desk.arbiter, event="Undo open", game=game, result="½-½", reason="x"
    )
    assert not corrected.reply.ephemeral, corrected.reply.text()

    # The field is checked again at the new draw (CCT-3), and the jobs come back.
    await desk.run("tour ambassador-remove", desk.organiser, tour="Undo", player="P09")
    text = refused(await desk.run("event draw", desk.organiser, event=finals, seed="g"))
    assert "cannot be drawn" in text and "P09 is not qualified" in text, text
    await desk.run("tour ambassador-add", desk.organiser, tour="Undo", player="P09")
    redrawn = await desk.draw(finals, "g")
    assert "stored" in redrawn.reply.text(), redrawn.reply.text()
    again_drawn = await desk.event(finals)
    assert again_drawn.record.draw_seed == "g" and len(again_drawn.by_pairing) == 10
    fresh = [j for j in await jobs_of(desk, finals) if j.status == "pending"]
    assert len(fresh) == len(pending) and not {j.id for j in fresh} & set(jobs)


@IN_MODULE_LOOP
async def test_cct_8f_cancelling_the_finals_draw_needs_the_hq_role(desk: Desk) -> None:
    """A player, an arbiter or a director gets one private line naming the HQ role, and
    the draw stays as it was."""
    await drawn_finals(desk, "Roles", PLAYER_IDS + 200, "2026-05-20")
    before = await audit_actions(desk)
    for caller in (desk.player(200), desk.arbiter, desk.director):
        text = refused(await desk.run("finals cancel-draw", caller, event="Roles finals"))
        assert "league HQ" in text, text
    assert await audit_actions(desk) == before
    assert (await desk.event("Roles finals")).record.drawn_at is not None


@IN_MODULE_LOOP
async def test_cct_8f_cct_16_a_played_finals_result_keeps_the_draw(desk: Desk) -> None:
    """Once a Finals game has a result the draw stands: the refusal says why and what
    stands, nothing changes, and the earlier event stays fixed. Only the Finals' draw is
    cancelled this way."""
    await drawn_finals(desk, "Played", PLAYER_IDS + 300, "2026-04-30")
    finals = "Played finals"
    target = next(t for t in open_targets(await desk.event(finals)) if t.stage == "finals")
    reported = await desk.run(
        "game report", desk.arbiter, event=finals, game=target.name, result="1-0"
    )
    assert not reported.reply.ephemeral, reported.reply.text()
    before = await audit_actions(desk)
    text = refused(await desk.run("finals cancel-draw", desk.organiser, event=finals))
    assert text == (
        "The draw of the Finals Played finals stands: the Finals hold 1 game(s) with a report "
        "or a result, and a played Finals result is never thrown away (CCT-8f)."
    ), text
    # A match awarded without play (CCT-9) keeps the draw as well, and is named.
    other = next(p for p in round_robin((await desk.event(finals)).facts.players) if p.board == 2)
    options = {
        "event": finals,
        "match": f"R1 {other.white} v {other.black}",
        "winner": str(other.white),
        "reason": "withdrawal",
    }
    preview = await desk.run("finals award", desk.arbiter, **options)
    await desk.click(preview.reply, "Confirm", desk.arbiter)
    before = await audit_actions(desk)
    text = refused(await desk.run("finals cancel-draw", desk.organiser, event=finals))
    assert "1 game(s) with a report or a result and 1 match(es) decided without play" in text
    text = refused(await desk.run("finals cancel-draw", desk.organiser, event="Played open"))
    assert "is not the Finals" in text, text
    assert await audit_actions(desk) == before
    after = await desk.event(finals)
    assert after.record.drawn_at is not None and len(after.by_pairing) == 10
    assert len([g for g in after.games if g.status.settled]) == 1
