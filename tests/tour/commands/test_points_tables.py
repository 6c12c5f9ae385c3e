"""Tour points tables and preliminary game scoring set in Discord, through the real command
tree (CCT-6, CCT-8a, CCT-16): `/tour create` freezes the Regular and Major tables and the
scoring, `/event create` gives an event its own, `/event points` changes them with a preview
until the draw is confirmed, `/event show` and `/tour show` print them, the tour file carries
them out and back in, and a 3/1/0 preliminary is ranked by its own points. One bot serves the
module; each test works on its own tour."""

from __future__ import annotations

import csv
import io
import json

from core.results import STANDARD, THREE_ONE_ZERO, Result
from core.tour.knockout import KoStage
from storage.tour.events import TourEventRecord
from tests.support.discord_harness import Upload
from tests.support.paths import ROOT
from tests.support.tour_desk import IN_MODULE_LOOP, Desk, module_desk
from tests.support.tour_events import REGULAR_PLAYERS
from tests.support.tour_play import play_to_the_deciding_game
from tests.support.tour_world import preliminary_played

SKILLING = "prelim 10 8 6 5 4 3 2 1; winner 40; runner-up 20; semi-final 10; quarter-final 0"
"""The 2020-21 tour's first event: runner-up 20, semi-final losers 10, no 3rd-place match."""
MAJOR = "prelim 20 16 12 10 8 6 4 2; winner 80; runner-up 50; 3rd 30; 4th 20; semi-final 20"


desk = module_desk("tour-points")


async def event_record(desk: Desk, name: str) -> TourEventRecord:
    """The event as stored now."""
    async with desk.store.read() as view:
        return (await view.tour_events.by_name(name))[0]


async def enter_and_draw(desk: Desk, event: str, players: list[str], first: int = 0) -> None:
    """Enter `players` (linked members) and confirm a seeded draw, all through the tree."""
    await desk.enter(event, players, first)
    confirmed = await desk.draw(event)
    assert "stored" in (confirmed.reply.content or ""), confirmed.reply.text()


@IN_MODULE_LOOP
async def test_cct_6_cct_16_the_skilling_open_pays_its_runner_up_20_as_its_own_table_says(
    desk: Desk,
) -> None:
    """The real first event of 2020-21, created in Discord with its own table and no
    3rd-place match: `/event show` prints the table, and once played the runner-up gets 20
    knock-out points (8 + 20 for 2nd place), the semi-final losers 10 each."""
    await desk.run("tour create", desk.organiser, name="CCT 2020-21")
    made = await desk.create_event(
        "CCT 2020-21",
        "Skilling Open",
        type="regular",
        start="2020-11-22",
        third_place_match=False,
        points=SKILLING,
    )
    assert not made.reply.ephemeral, made.reply.text()
    shown = await desk.run("event show", desk.player(0), event="Skilling Open")
    assert f"Tour points (CCT-6): {SKILLING}" in shown.reply.text()
    assert "Game scoring (CCT-8a): 1/½/0" in shown.reply.text()
    record = await event_record(desk, "Skilling Open")
    assert record.points is not None and record.points.stage_points(KoStage.RUNNER_UP) == 20

    players = list(REGULAR_PLAYERS)
    await enter_and_draw(desk, "Skilling Open", players)
    deciding = await play_to_the_deciding_game(desk.store, "Skilling Open", players)
    final = await desk.run(
        "game report", desk.arbiter, event="Skilling Open", game=deciding, result="½-½"
    )
    assert not final.reply.ephemeral, final.reply.text()
    text = (await desk.run("event show", desk.player(0), event="Skilling Open")).reply.text()
    assert "Status: finished" in text
    # The higher-ranked player wins every series: 1st beats 2nd in the final, 3rd and 4th lose
    # the semi-finals, 5th-8th the quarter-finals.
    assert "1. Magnus Carlsen — 50 points" in text  # 10 + winner 40
    assert "2. Wesley So — 28 points" in text  # 8 + runner-up 20 (the default table: 25)
    assert "3. Hikaru Nakamura — 16 points" in text  # 6 + semi-final 10, no 3rd-place match
    assert "3. Ian Nepomniachtchi — 15 points" in text  # 5 + semi-final 10
    assert "5. Teimour Radjabov — 4 points" in text  # 4 + quarter-final 0
    standings = await desk.run("tour standings", desk.player(0), tour="CCT 2020-21")
    assert "28" in standings.reply.text()


@IN_MODULE_LOOP
async def test_cct_16_tour_create_freezes_its_tables_and_scoring_for_its_events(desk: Desk) -> None:
    """`/tour create` with a Regular and a Major table and 3/1/0: `/tour show` prints them,
    and a new event of each type takes its type's table and the scoring (CCT-16)."""
    made = await desk.run(
        "tour create",
        desk.organiser,
        name="Later season",
        regular_points=SKILLING,
        major_points=MAJOR,
        scoring="3/1/0",
    )
    assert not made.reply.ephemeral, made.reply.text()
    card = (await desk.run("tour show", desk.player(0), tour="Later season")).reply.text()
    assert f"Regular tour points (CCT-6): {SKILLING}" in card
    assert f"Major tour points (CCT-6): {MAJOR}; quarter-final 0" in card
    assert "Preliminary game scoring (CCT-8a): 3/1/0" in card
    assert card.index("Regular tour points") < card.index("Major tour points")
    for name, kind in (("Later open", "regular"), ("Later major", "major")):
        await desk.create_event(
            "Later season",
            name,
            type=kind,
            start="2026-06-01",
        )
    regular = await event_record(desk, "Later open")
    major = await event_record(desk, "Later major")
    assert regular.points is not None and regular.points.knockout[KoStage.RUNNER_UP] == 20
    assert major.points is not None and major.points.preliminary[0] == 20
    assert regular.scoring == THREE_ONE_ZERO and major.scoring == THREE_ONE_ZERO
    shown = await desk.run("event show", desk.player(0), event="Later major")
    assert f"Tour points (CCT-6): {MAJOR}; quarter-final 0" in shown.reply.text()
    assert "Game scoring (CCT-8a): 3/1/0" in shown.reply.text()


@IN_MODULE_LOOP
async def test_cct_6_an_events_own_table_and_scoring_override_the_tours(desk: Desk) -> None:
    """`/event create points: scoring:` give the event its own; `/tour show` marks them."""
    await desk.run("tour create", desk.organiser, name="Own tables")
    await desk.create_event(
        "Own tables",
        "Own open",
        type="regular",
        start="2026-06-01",
        points="PRELIM 12, 9, 7; Winner 45; Runner Up 22; SF 11",
        scoring="3/1/0",
    )
    record = await event_record(desk, "Own open")
    assert record.points is not None and record.points.preliminary == (12, 9, 7)
    assert record.points.knockout[KoStage.QUARTER_FINAL] == 0
    assert record.scoring == THREE_ONE_ZERO
    card = (await desk.run("tour show", desk.player(0), tour="Own tables")).reply.text()
    assert (
        "own tour points: prelim 12 9 7; winner 45; runner-up 22; semi-final 11; "
        "quarter-final 0 · game scoring 3/1/0" in card
    )
    assert "Preliminary game scoring (CCT-8a): 1/½/0" in card


@IN_MODULE_LOOP
async def test_cct_6_a_bad_table_is_refused_in_one_line_and_nothing_is_created(
    desk: Desk,
) -> None:
    """Each bad part of a typed table gets one private line naming it; no tour or event is
    made."""
    await desk.run("tour create", desk.organiser, name="Refusals")
    cases = {
        "prelim 10 8; champion 40; runner-up 20; semi-final 10": "'champion'",
        "prelim 10 8; winner -40; runner-up 20; semi-final 10": "negative",
        "prelim 10 8.5; winner 40; runner-up 20; semi-final 10": "not whole",
        "prelim 9 8 7 6 5 4 3 2 1; winner 4; runner-up 2; semi-final 1": (
            "pays 9 preliminary places: the event has 8 players"
        ),
        "prelim 10; winner 40": "misses runner-up, semi-final",
    }
    for text, words in cases.items():
        refused = await desk.create_event(
            "Refusals",
            "Bad",
            type="regular",
            start="2026-06-01",
            players=8,
            points=text,
        )
        line = refused.reply.content or ""
        assert refused.reply.ephemeral and words in line and "\n" not in line, line
        assert line.startswith("`points`"), line
    hostile = await desk.create_event(
        "Refusals",
        "Bad",
        type="regular",
        start="2026-06-01",
        points="prelim 10; **bold** 5; <@123456789012345678> 1",
    )
    line = hostile.reply.content or ""
    assert hostile.reply.ephemeral and "not a key" in line and "**bold**" not in line, line
    async with desk.store.read() as view:
        assert await view.tour_events.by_name("Bad") == []
    tour = await desk.run(
        "tour create",
        desk.organiser,
        name="Bad tour",
        major_points="prelim 20 16; winner 80; runner-up 50; semi-final 20; 3rd 30",
    )
    line = tour.reply.content or ""
    assert tour.reply.ephemeral and line.startswith("`major_points`") and "3rd without 4th" in line
    async with desk.store.read() as view:
        assert await view.tours.by_name("Bad tour") is None
    finals = await desk.create_event(
        "Refusals",
        "Refused finals",
        type="finals",
        start="2026-07-01",
        scoring="3/1/0",
    )
    assert finals.reply.ephemeral and "Finals pay no tour points" in (finals.reply.content or "")


@IN_MODULE_LOOP
async def test_cct_6_cct_16_event_points_previews_confirms_and_is_audited(desk: Desk) -> None:
    """`/event points` (HQ) shows the table now and after; nothing changes until Confirm;
    the Confirm stores it with an audit row holding both."""
    await desk.run("tour create", desk.organiser, name="Changes")
    await desk.create_event(
        "Changes",
        "Change open",
        type="regular",
        start="2026-06-01",
    )
    preview = await desk.run(
        "event points", desk.organiser, event="Change open", points=SKILLING, scoring="3/1/0"
    )
    assert preview.reply.buttons == ["Confirm", "Cancel"]
    text = preview.reply.text()
    assert "Tour points (CCT-6) now: prelim 10 8 6 5 4 3 2 1; winner 40; runner-up 25" in text
    assert f"Tour points after: {SKILLING}" in text
    assert "Game scoring (CCT-8a) now: 1/½/0; after: 3/1/0" in text
    before = await event_record(desk, "Change open")
    assert before.points is not None and before.points.knockout[KoStage.RUNNER_UP] == 25
    assert before.scoring == STANDARD  # the preview stored nothing
    confirmed = await desk.click(preview.reply, "Confirm", desk.organiser)
    assert "Tour points of **Change open** changed" in (confirmed.reply.content or "")
    after = await event_record(desk, "Change open")
    assert after.points is not None and after.points.knockout[KoStage.RUNNER_UP] == 20
    assert after.scoring == THREE_ONE_ZERO
    async with desk.store.read() as view:
        audit = [a for a in await view.audit.recent(20) if a.action == "event.points"]
    assert len(audit) == 1 and audit[0].actor_id == desk.organiser.id
    assert audit[0].details["points_after"] == SKILLING
    assert audit[0].details["scoring_before"] == "1/½/0"
    assert audit[0].details["scoring_after"] == "3/1/0"
    same = await desk.run("event points", desk.organiser, event="Change open", scoring="3/1/0")
    assert same.reply.ephemeral and "already" in (same.reply.content or "")
    bad = await desk.run("event points", desk.organiser, event="Change open", points="prelim 1")
    line = bad.reply.content or ""
    assert bad.reply.ephemeral and "misses winner, runner-up, semi-final" in line, line
    neither = await desk.run("event points", desk.organiser, event="Change open")
    assert neither.reply.ephemeral and "Give `points`" in (neither.reply.content or "")


@IN_MODULE_LOOP
async def test_cct_16_an_event_points_confirm_after_another_change_is_refused(
    desk: Desk,
) -> None:
    """Two previews open at once: the first Confirm stores its change; the second, whose
    preview showed the table as it was, stores nothing."""
    await desk.run("tour create", desk.organiser, name="Two previews")
    await desk.create_event(
        "Two previews",
        "Twice open",
        type="regular",
        start="2026-06-01",
    )
    first = await desk.run("event points", desk.organiser, event="Twice open", points=SKILLING)
    second = await desk.run("event points", desk.organiser, event="Twice open", scoring="3/1/0")
    await desk.click(first.reply, "Confirm", desk.organiser)
    stale = await desk.click(second.reply, "Confirm", desk.organiser)
    said = " / ".join(reply.text() for reply in stale.replies)
    assert "changed since the preview" in said, said
    record = await event_record(desk, "Twice open")
    assert record.points is not None and record.points.knockout[KoStage.RUNNER_UP] == 20
    assert record.scoring == STANDARD


@IN_MODULE_LOOP
async def test_cct_16_event_points_is_hq_only_and_refused_once_the_draw_is_confirmed(
    desk: Desk,
) -> None:
    """`/help` lists it for organisers only; a director or a player is refused in one private
    line; after the draw is confirmed the organiser is refused too, saying so, and the table
    stays."""
    await desk.run("tour create", desk.organiser, name="Frozen")
    await desk.create_event(
        "Frozen",
        "Frozen open",
        type="regular",
        start="2026-06-01",
        players=8,
    )
    help_text = (await desk.run("help", desk.organiser)).reply.text()
    assert "/event points" in help_text and "before the draw" in help_text
    assert "/event points" not in (await desk.run("help", desk.player(0))).reply.text()
    for who in (desk.director, desk.player(0)):
        refused = await desk.run("event points", who, event="Frozen open", points=SKILLING)
        line = refused.reply.content or ""
        assert refused.reply.ephemeral and "league HQ" in line and "\n" not in line, line
    await enter_and_draw(desk, "Frozen open", [f"F{n}" for n in range(1, 9)], first=100)
    late = await desk.run("event points", desk.organiser, event="Frozen open", points=SKILLING)
    line = late.reply.content or ""
    assert late.reply.ephemeral and line.startswith("The draw of Frozen open is confirmed"), line
    assert not late.reply.buttons
    record = await event_record(desk, "Frozen open")
    assert record.points is not None and record.points.knockout[KoStage.RUNNER_UP] == 25


@IN_MODULE_LOOP
async def test_cct_8a_a_3_1_0_preliminary_is_ranked_by_its_own_points(desk: Desk) -> None:
    """An event scored 3/1/0: A (4 wins, 3 losses) has 12 and leads B (2 wins, 5 draws: 11),
    who would lead 4½ to 4 under 1/½/0. `/event standings` shows the 3/1/0 points as CSV,
    and as a table and a crosstable image."""
    await desk.run("tour create", desk.organiser, name="Three points")
    await desk.create_event(
        "Three points",
        "Three open",
        type="regular",
        start="2026-06-01",
        players=8,
        scoring="3/1/0",
    )
    names = ["Alpha", "Bravo", "C1", "C2", "C3", "C4", "C5", "C6"]
    await enter_and_draw(desk, "Three open", names, first=200)
    wins = {("Bravo", "Alpha"), ("Bravo", "C1"), ("Alpha", "C1"), ("Alpha", "C2")}
    wins |= {("Alpha", "C3"), ("Alpha", "C4"), ("C5", "Alpha"), ("C6", "Alpha")}

    def result(white: str, black: str) -> Result:
        if (white, black) in wins:
            return Result.WHITE_WIN
        return Result.BLACK_WIN if (black, white) in wins else Result.DRAW

    await preliminary_played(desk.store, "Three open", result)
    table = await desk.run("event standings", desk.player(0), event="Three open", format="csv")
    rows = list(csv.DictReader(io.StringIO(table.reply.uploads["standings.csv"].decode())))
    columns = ("rank", "player", "points", "wins", "sb", "ks")
    # SB and Koya read 3/1/0 points too (CCT-8b): see core.tour.event_facts.
    assert [tuple(r[c] for c in columns) for r in rows[:2]] == [
        ("1", "Alpha", "12", "4", "69", "0"),
        ("2", "Bravo", "11", "2", "87", "3"),
    ]
    image = await desk.run("event standings", desk.player(0), event="Three open", format="image")
    uploads = image.reply.uploads
    assert sorted(uploads) == ["crosstable.png", "standings.png"]  # the table and CCT-8a's grid
    assert all(data.startswith(b"\x89PNG") for data in uploads.values())
    assert uploads["crosstable.png"] != uploads["standings.png"]


@IN_MODULE_LOOP
async def test_cct_6_cct_8a_export_and_import_keep_the_table_and_the_scoring(desk: Desk) -> None:
    """`/tour export` writes the event's own table and `"scoring": "3/1/0"` (and the tour's);
    `/tour import` of that file stores them again, the same placings following."""
    await desk.run("tour create", desk.organiser, name="Round trip", scoring="3/1/0")
    await desk.create_event(
        "Round trip",
        "Trip open",
        type="regular",
        start="2026-04-01",
        players=8,
        third_place_match=False,
        points=SKILLING,
    )
    await desk.create_event(
        "Round trip",
        "Trip standard",
        type="regular",
        start="2026-04-11",
        players=8,
        scoring="1/½/0",
    )
    for event in ("Trip open", "Trip standard"):
        names = [f"T{n}" for n in range(1, 9)]
        await enter_and_draw(desk, event, names, first=300)
        deciding = await play_to_the_deciding_game(desk.store, event, names)
        await desk.run("game report", desk.arbiter, event=event, game=deciding, result="½-½")
    exported = await desk.run("tour export", desk.player(0), tour="Round trip")
    (data,) = exported.reply.uploads.values()
    document = json.loads(data)
    assert document["rules"]["scoring"] == "3/1/0"
    own, standard = document["events"]
    assert own["scoring"] == "3/1/0" and own["third_place_match"] is False
    assert own["points"]["knockout"]["runner-up"] == 20
    assert "3rd" not in own["points"]["knockout"]
    # Written although 1/½/0: read back without it, the event would take the tour's 3/1/0.
    assert standard["scoring"] == "1/½/0"
    imported = await desk.run(
        "tour import", desk.organiser, file=Upload("t.json", data), name="Round trip again"
    )
    assert not imported.reply.ephemeral, imported.reply.text()
    async with desk.store.read() as view:
        tour = await view.tours.by_name("Round trip again")
        assert tour is not None and tour.rules.scoring == THREE_ONE_ZERO
        copy, copy_standard = await view.tour_events.of_tour(tour.id)
    original = await event_record(desk, "Trip open")
    assert copy.scoring == THREE_ONE_ZERO and copy_standard.scoring == STANDARD
    assert copy.points is not None and original.points is not None
    assert copy.points.preliminary == original.points.preliminary
    assert dict(copy.points.knockout) == dict(original.points.knockout)
    again = await desk.run("tour export", desk.player(0), tour="Round trip again")
    (second,) = again.reply.uploads.values()
    assert json.loads(second)["events"] == document["events"]
    # An imported event is past its draw: its table stays (CCT-16).
    late = await desk.run(
        "event points", desk.organiser, event="Round trip again: Trip open", scoring="1/½/0"
    )
    assert late.reply.ephemeral and "is confirmed" in (late.reply.content or "")


@IN_MODULE_LOOP
async def test_cct_16_an_event_imported_by_its_results_keeps_its_table(desk: Desk) -> None:
    """An event read from a tour file by its official order was played: `/event points`
    refuses it, saying so."""
    history = (ROOT / "tests" / "data" / "tour_three_events.json").read_bytes()
    await desk.run("tour import", desk.organiser, file=Upload("t.json", history), name="History")
    refused = await desk.run("event points", desk.organiser, event="Regular One", points=SKILLING)
    line = refused.reply.content or ""
    assert refused.reply.ephemeral and "imported with its results" in line, line
