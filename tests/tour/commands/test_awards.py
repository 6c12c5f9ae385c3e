"""CCT-9 awards without play through the real command tree: `/series award`, `/game award` and
`/finals award` — a preview with Confirm / Cancel, one unit of work on Confirm (the fact, its
audit row, the announcement), a second award refused in one private line, and everything
that follows (bracket, series card, placings, tour points, the Finals table, the tour file
both ways) showing a walkover with its reason, never invented games."""

from __future__ import annotations

import datetime as dt
import json

from bot.app.ui.confirm import CANCELLED
from bot.tour import views
from bot.tour.files import export_tour_file
from bot.tour.game_targets import knockout_ties
from bot.tour.series import awards
from bot.tour.store import load_event
from core.tour.knockout import Tie
from core.tour.ranking import EventType
from tests.support.discord_harness import Upload
from tests.support.tour_desk import IN_MODULE_LOOP, PLAYER_IDS, Desk, module_desk
from tests.support.tour_world import (
    ARBITER,
    knockout_started,
    player_names,
    tour_with_event,
)

NAMES = player_names(16)
WINNERS = (
    ("QF1", "P01"),
    ("QF2", "P02"),
    ("QF3", "P03"),
    ("QF4", "P04"),
    ("SF1", "P01"),
    ("SF2", "P02"),
    ("F", "P02"),
    ("3rd", "P03"),
)


desk = module_desk("awards")


async def _announced(desk: Desk) -> list[str]:
    await desk.clock.advance(dt.timedelta(0))  # the outbox's pass: posts delivered
    channel = desk.harness.channel("announcements")
    return [p.content or "" for p in desk.harness.posts if p.channel_id == channel]


async def _audit(desk: Desk) -> list[str]:
    async with desk.store.read() as view:
        return [e.action for e in await view.audit.recent(50)]


async def _knockout(desk: Desk, tour: str, event: str, first: int) -> None:
    await knockout_started(desk.store, event, tour=tour, first_user=PLAYER_IDS + first)


@IN_MODULE_LOOP
async def test_cct_9_a_series_award_previews_then_decides_the_round_and_the_bracket_follows(
    desk: Desk,
) -> None:
    await _knockout(desk, "Awards", "Award open", 0)
    event = "Award open"
    refused = await desk.run(
        "series award", desk.player(0), event=event, round="QF1", winner="P01", reason="no-show"
    )
    assert refused.reply.ephemeral and "arbiter" in (refused.reply.content or "")
    await desk.run("series choose", desk.player(0), event=event, round="QF1", colour="white")
    await desk.run("game report", desk.arbiter, event=event, game="QF1 day 1 game 1", result="0-1")
    options = {"event": event, "round": "QF1", "winner": "p01", "reason": "illness"}
    needs_note = await desk.run("series award", desk.arbiter, **{**options, "reason": "other"})
    assert needs_note.reply.ephemeral and "note" in (needs_note.reply.content or "")
    preview = await desk.run("series award", desk.arbiter, **options, note="P08 has the flu")
    text = preview.reply.text()
    assert "**P01** wins QF1 against P08 without play — walkover (illness: P08 has the flu)" in text
    assert "1 game(s) played so far stay recorded" in text and "P01 goes on to SF1" in text
    cancelled = await desk.click(preview.reply, "Cancel", desk.arbiter)
    assert cancelled.reply.content == CANCELLED
    still = await desk.run("series show", desk.player(1), event=event, round="QF1")
    assert "next: QF1 day 1 game 2" in still.reply.text()

    preview = await desk.run("series award", desk.arbiter, **options, note="P08 has the flu")
    confirmed = await desk.click(preview.reply, "Confirm", desk.arbiter)
    assert "QF1 awarded to **P01** without play" in (confirmed.reply.content or "")
    assert any("QF1 is awarded to **P01** against P08" in p for p in await _announced(desk))
    assert "series.award" in await _audit(desk)

    again = await desk.run(
        "series award", desk.arbiter, event=event, round="QF1", winner="P08", reason="no-show"
    )
    reply = again.reply.content or ""
    assert again.reply.ephemeral and "\n" not in reply.strip()
    assert "decided already" in reply and "P01" in reply and "by walkover" in reply

    card = (await desk.run("series show", desk.player(1), event=event, round="QF1")).reply.text()
    assert "walkover (illness: P08 has the flu): awarded without play (CCT-9)" in card
    assert "QF1 day 1 game 1" in card and "won by **P01**" in card  # the game is kept
    bracket = (await desk.run("event bracket", desk.player(1), event=event)).reply.text()
    assert "**QF1** P01 – P08: walkover (illness: P08 has the flu)" in bracket
    loaded = await desk.event(event)
    image = views.bracket(loaded, knockout_ties(loaded))  # what bracket.png draws
    assert image.get(Tie.QF1).footer() == ("✓ P01 by walkover (illness)", "")
    reported = await desk.run(
        "game report", desk.arbiter, event=event, game="QF1 day 1 game 2", result="1-0"
    )
    assert reported.reply.ephemeral  # no game after the award

    # A knock-out game not played is a forfeit win that counts in its match (CCT-8d).
    await desk.run("series choose", desk.player(1), event=event, round="QF2", colour="white")
    preview = await desk.run(
        "game award",
        desk.arbiter,
        event=event,
        game="QF2 day 1 game 1",
        winner="P07",
        reason="no-show",
    )
    await desk.click(preview.reply, "Confirm", desk.arbiter)
    card = (await desk.run("series show", desk.player(1), event=event, round="QF2")).reply.text()
    assert "QF2 day 1 game 1: P02 – P07 -/+ (decided)" in card
    assert "next: QF2 day 1 game 2 — White P07, Black P02" in card


@IN_MODULE_LOOP
async def test_cct_9_cct_6_awards_finish_an_event_and_the_tour_file_keeps_them(
    desk: Desk,
) -> None:
    """The awarded 3rd-place match gives its loser 4th place's points (CCT-6); the export
    writes each round as a walkover with its reason and an import reads it back."""
    event = "Walk open"
    await _knockout(desk, "Walks", event, 100)

    async def award(round_: str, winner: str, reason: str = "withdrawal") -> str:
        preview = await desk.run(
            "series award", desk.arbiter, event=event, round=round_, winner=winner, reason=reason
        )
        assert not preview.reply.ephemeral, preview.reply.content
        confirmed = await desk.click(preview.reply, "Confirm", desk.arbiter)
        return confirmed.reply.content or ""

    for tie, winner in (("QF1", "P01"), ("QF2", "P02"), ("QF3", "P03")):
        await award(tie, winner)
    assert "SF1: P01 v P04" in await award("QF4", "P04")
    await award("SF1", "P01")
    both = await award("SF2", "P02", "no-show")
    assert "F: P01 v P02" in both and "3rd: P03 v P04" in both
    await award("F", "P02", "illness")
    over = await award("3rd", "P03")
    assert "P03 is 3rd" in over and "Walk open is over" in over
    placings = (await desk.run("event show", desk.player(100), event=event)).reply.text()
    placed = placings[placings.index("**Placings**") :]
    assert "1. P02 — 48 points\n2. P01 — 35 points\n3. P03 — 21 points" in placed
    assert "4. P04 — 15 points" in placed  # 5 for 4th in the preliminary + 10 for 4th (CCT-6)
    standings = (await desk.run("tour standings", desk.player(100), tour="Walks")).reply.text()
    assert "P04" in standings

    exported = await desk.run("tour export", desk.player(100), tour="Walks")
    document = json.loads(next(iter(exported.reply.uploads.values())))
    rounds = {r["round"]: r for r in document["events"][0]["knockout"]}
    assert rounds["3rd"] == {
        "round": "3rd",
        "a": "P03",
        "b": "P04",
        "winner": "P03",
        "walkover": True,
        "reason": "withdrawal",
    }
    assert rounds["F"]["reason"] == "illness" and "days" not in rounds["F"]
    imported = await desk.run(
        "tour import",
        desk.organiser,
        file=Upload("walks.json", json.dumps(document).encode()),
        name="Walks again",
    )
    assert "imported" in (imported.reply.content or ""), imported.reply.content
    again = (await desk.run("tour standings", desk.player(100), tour="Walks again")).reply.text()
    assert again.replace("Walks again", "Walks") == standings
    store = desk.store
    async with store.read() as view:
        tours = await view.tours.by_name("Walks again")
        assert tours is not None
        record = (await view.tour_events.of_tour(tours.id))[0]
        loaded = await load_event(view, record)
    assert loaded.contests["3rd"].recorded is not None
    assert loaded.contests["3rd"].recorded["reason"] == "withdrawal"
    second = await desk.run("tour export", desk.player(100), tour="Walks again")
    assert json.loads(next(iter(second.reply.uploads.values())))["events"] == document["events"]


@IN_MODULE_LOOP
async def test_cct_9_core_2_a_game_award_is_a_forfeit_win_counted_in_the_standings(
    desk: Desk,
) -> None:
    store = desk.store
    await tour_with_event(store, tour="Forfeits", event="Forfeit open", first_user=PLAYER_IDS + 200)
    white, black = await desk.first_pairing("Forfeit open")
    game = f"R1 {white} v {black}"
    options = {"event": "Forfeit open", "game": game, "winner": black, "reason": "no-show"}
    refused = await desk.run("game award", desk.player(200), **options)
    assert refused.reply.ephemeral and "arbiter" in (refused.reply.content or "")
    preview = await desk.run("game award", desk.arbiter, **options)
    assert f"**{black}** wins {game} against {white} without play" in preview.reply.text()
    assert "is -/+" in preview.reply.text()
    await desk.click(preview.reply, "Cancel", desk.arbiter)
    shown = await desk.run("game show", desk.player(200), event="Forfeit open", game=game)
    assert "-/+" not in shown.reply.text()
    preview = await desk.run("game award", desk.arbiter, **options)
    confirmed = await desk.click(preview.reply, "Confirm", desk.arbiter)
    assert f"{game} awarded to **{black}** without play" in (confirmed.reply.content or "")
    assert any(f"{game} is awarded to **{black}**" in p for p in await _announced(desk))
    assert "game.award" in await _audit(desk)
    shown = await desk.run("game show", desk.player(200), event="Forfeit open", game=game)
    assert "-/+" in shown.reply.text() and "walkover (no-show)" in shown.reply.text()
    assert "1-0" not in shown.reply.text() and "0-1" not in shown.reply.text()
    again = await desk.run("game award", desk.arbiter, **{**options, "winner": white})
    assert again.reply.ephemeral and "has a result already (-/+" in (again.reply.content or "")
    standings = await desk.run("event standings", desk.player(200), event="Forfeit open")
    top = standings.reply.text().splitlines()
    assert any(black in line and " 1 " in f" {line} " for line in top), top


@IN_MODULE_LOOP
async def test_cct_9_cct_8f_a_finals_award_scores_3_0_and_the_tour_file_keeps_it(
    desk: Desk,
) -> None:
    store = desk.store
    ten = NAMES[:10]
    await tour_with_event(
        store,
        tour="Final walks",
        event="Walk finals",
        kind=EventType.FINALS,
        players=ten,
        first_user=PLAYER_IDS + 300,
    )
    white, black = await desk.first_pairing("Walk finals")
    match = f"R1 {white} v {black}"
    options = {"event": "Walk finals", "match": match, "winner": white, "reason": "withdrawal"}
    refused = await desk.run("finals award", desk.player(300), **options)
    assert refused.reply.ephemeral and "arbiter" in (refused.reply.content or "")
    preview = await desk.run("finals award", desk.arbiter, **options)
    assert f"{white} 3 match points, {black} 0 (CCT-8f)" in preview.reply.text()
    await desk.click(preview.reply, "Cancel", desk.arbiter)
    confirmed = await desk.click(
        (await desk.run("finals award", desk.arbiter, **options)).reply, "Confirm", desk.arbiter
    )
    assert f"{match} awarded to **{white}**" in (confirmed.reply.content or "")
    assert "finals.award" in await _audit(desk)
    again = await desk.run("finals award", desk.arbiter, **{**options, "winner": black})
    assert again.reply.ephemeral and "decided already" in (again.reply.content or "")
    card = await desk.run("series show", desk.player(300), event="Walk finals", round=match)
    assert "walkover (withdrawal)" in card.reply.text()
    table = await desk.run("finals standings", desk.player(300), event="Walk finals")
    rows = table.reply.embeds[0]["description"].splitlines()
    assert any(white in row and " 3 " in row for row in rows), rows

    exported = await desk.run("tour export", desk.player(300), tour="Final walks")
    document = json.loads(next(iter(exported.reply.uploads.values())))
    assert document["finals"]["matches"] == [
        {
            "a": white,
            "b": black,
            "winner": white,
            "decided": "rapid",
            "walkover": True,
            "reason": "withdrawal",
        }
    ]
    # Read back: a finished tour's file with these Finals (their players played its event).
    await _knockout(desk, "Final source", "Source open", 400)
    for tie, winner in WINNERS:
        await awards.award_contest_series(
            store, ARBITER, "Source open", tie, winner, "no-show", confirm=True
        )
    _, data = await export_tour_file(store, "Final source")
    source = json.loads(data)
    source["finals"] = document["finals"]
    imported = await desk.run(
        "tour import",
        desk.organiser,
        file=Upload("finals.json", json.dumps(source).encode()),
        name="Final walks again",
    )
    assert "imported" in (imported.reply.content or ""), imported.reply.content
    second = await desk.run("tour export", desk.player(300), tour="Final walks again")
    assert json.loads(next(iter(second.reply.uploads.values())))["finals"] == document["finals"]
    again = await desk.run("finals standings", desk.player(300), event="Finals")
    read_back = again.reply.embeds[0]["description"].splitlines()
    assert any(white in row and " 3 " in row for row in read_back), read_back
