"""CCT-3 and its Interpretation through the real command tree: the Finals field as it forms.
A made-up tour of two events (a Major won by Ada, a Regular won by Ivy; Fay, Max and Ned
are Ambassadors) gives the Finals list Ada, Bo, Ivy, Di, Jo, Cy, Lu, Kai (Major winner and
the standings) and Fay, Max (Ambassadors); Ed is 9th in the standings, Ned the next
Ambassador. A decline offers the place to the next in line; places no list can fill take
the organiser's wildcards; anyone else is refused with one private line."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from bot.formats.tour_file import parse_tour
from bot.rendering.tour.report_json import tour_json
from bot.rendering.tour.report_text import tour_text
from core.tour.report import tour_report
from tests.support.discord_harness import Outcome, Upload
from tests.support.discord_markdown import parse, shown
from tests.support.tour_desk import IN_MODULE_LOOP, Desk, module_desk

MAJOR = ["Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]
REGULAR = ["Ivy", "Jo", "Kai", "Lu", "Max", "Ned", "Oz", "Pip"]
LISTED = ["Ada", "Bo", "Ivy", "Di", "Jo", "Cy", "Lu", "Kai", "Fay", "Max"]


def _event(name: str, kind: str, order: list[str], start: str) -> dict[str, Any]:
    """An event by its official order, every knock-out round won by the higher-ranked."""
    p = order
    rounds = [
        ("QF1", p[0], p[7]),
        ("QF2", p[1], p[6]),
        ("QF3", p[2], p[5]),
        ("QF4", p[3], p[4]),
        ("SF1", p[0], p[3]),
        ("SF2", p[1], p[2]),
        ("F", p[0], p[1]),
        ("3rd", p[3], p[2]),
    ]
    return {
        "name": name,
        "type": kind,
        "start": start,
        "preliminary": {"order": order},
        "knockout": [{"round": r, "a": a, "b": b, "winner": a} for r, a, b in rounds],
    }


SMALL_TOUR = {
    "name": "Small tour",
    "ambassadors": ["Fay", "Max", "Ned"],
    "events": [
        _event("Major One", "major", MAJOR, "2026-01-05"),
        _event("Regular Two", "regular", REGULAR, "2026-02-02"),
    ],
}


desk = module_desk("finals-field")


async def finals_of(desk: Desk, tour: str) -> str:
    """Import the small tour as `tour` and add its Finals; the Finals' reference."""
    data = json.dumps(SMALL_TOUR).encode()
    imported = await desk.run("tour import", desk.organiser, file=Upload("t.json", data), name=tour)
    assert "imported" in (imported.reply.content or ""), imported.reply.text()
    made = await desk.create_event(
        tour,
        "Finals",
        type="finals",
        start="2026-06-01",
    )
    assert not made.reply.ephemeral, made.reply.text()
    return f"{tour}: Finals"


async def decline(desk: Desk, finals: str, player: str, note: str | None = None) -> Outcome:
    """`/finals decline` confirmed; the Confirm's outcome."""
    options: dict[str, Any] = {"event": finals, "player": player}
    if note is not None:
        options["note"] = note
    preview = await desk.run("finals decline", desk.organiser, **options)
    assert not preview.reply.ephemeral, preview.reply.text()
    return await desk.click(preview.reply, "Confirm", desk.organiser)


async def declines(desk: Desk, finals: str) -> list[str]:
    """The declines stored for the Finals `finals`."""
    async with desk.store.read() as view:
        tour, _, event = finals.partition(": ")
        owner = await view.tours.by_name(tour)
        assert owner is not None
        [record] = await view.tour_events.by_name(event, owner.id)
        return [d.name for d in await view.tour_events.declines(record.id)]


def refused(outcome: Outcome) -> str:
    """The one private line of a refusal, as Discord shows it."""
    text = outcome.reply.content or ""
    assert outcome.reply.ephemeral and "\n" not in text.strip(), outcome.reply.text()
    return shown(parse(text))


@IN_MODULE_LOOP
async def test_cct_3_a_decline_is_previewed_cancel_stores_nothing_confirm_stores_it(
    desk: Desk,
) -> None:
    """CCT-3: the preview says where the place goes; Cancel stores nothing; Confirm stores
    the decline, audits it and announces it; the place goes to the next in the standings."""
    finals = await finals_of(desk, "Decline tour")
    preview = await desk.run(
        "finals decline", desk.organiser, event=finals, player="Kai", note="Plays elsewhere"
    )
    shown = preview.reply.text()
    assert "offered to Ed" in shown and "Plays elsewhere" in shown, shown
    assert "Nothing is stored" in (preview.reply.content or "")
    cancelled = await desk.click(preview.reply, "Cancel", desk.organiser)
    assert "nothing was stored" in cancelled.reply.text().lower(), cancelled.reply.text()
    assert await declines(desk, finals) == []

    confirmed = await decline(desk, finals, "Kai", "Plays elsewhere")
    assert "offered to Ed" in confirmed.reply.text(), confirmed.reply.text()
    assert await declines(desk, finals) == ["Kai"]
    async with desk.store.read() as view:
        [audit] = [a for a in await view.audit.recent(5) if a.action == "finals.decline"]
    assert audit.actor_id == desk.organiser.id and audit.details["replaced_by"] == ["Ed"]
    await desk.clock.advance(dt.timedelta(0))  # the outbox's pass: posts delivered
    announced = [p.content or "" for p in desk.harness.posts]
    assert any("Kai" in t and "declined" in t and "offered to Ed" in t for t in announced)

    listed = await desk.run(
        "tour qualification", desk.player(0), tour="Decline tour", event="Finals"
    )
    text = listed.reply.text()
    assert "Declined:** Kai — place offered to Ed" in text, text
    assert "Places open: 0" in text, text


@IN_MODULE_LOOP
async def test_cct_3_a_decline_needs_the_hq_role_and_writes_nothing_otherwise(
    desk: Desk,
) -> None:
    finals = await finals_of(desk, "Role tour")
    for caller in (desk.player(3), desk.arbiter, desk.director):
        text = refused(await desk.run("finals decline", caller, event=finals, player="Bo"))
        assert "league HQ" in text, text
        text = refused(await desk.run("finals decline-undo", caller, event=finals, player="Bo"))
        assert "league HQ" in text, text
    assert await declines(desk, finals) == []


@IN_MODULE_LOOP
async def test_cct_3_an_ambassador_place_goes_to_the_next_ambassador_then_a_wildcard(
    desk: Desk,
) -> None:
    """Max declines: Ned, the next Ambassador, is offered the place. Ned declines: no
    Ambassador is left, the place is open, and the organiser's wildcard fills it — shown as
    a wildcard by /tour qualification and /event show."""
    finals = await finals_of(desk, "Ambassador tour")
    hostile = await desk.run(
        "finals decline", desk.organiser, event=finals, player="Max", note="@everyone **now**"
    )
    shown = hostile.reply.text()  # the note is user text: shown as typed, never a ping
    assert "now" in shown and "@everyone" not in shown and "**now**" not in shown, shown
    assert "offered to Ned" in (await decline(desk, finals, "Max")).reply.text()
    open_place = (await decline(desk, finals, "Ned")).reply.text()
    assert "open for a wildcard" in open_place, open_place

    added = await desk.run(
        "event player-add", desk.organiser, event=finals, player="Gus", wildcard=True
    )
    assert not added.reply.ephemeral and "as a wildcard" in added.reply.text(), added.reply.text()
    listed = await desk.run(
        "tour qualification", desk.player(0), tour="Ambassador tour", event="Finals"
    )
    text = listed.reply.text()
    assert "Declined:** Max — place offered to Ned" in text, text
    assert "Declined:** Ned — no one next in line: place open" in text, text
    assert "W1. **Gus** — wildcard" in text and "Places open: 0" in text, text
    card = (await desk.run("event show", desk.player(0), event=finals)).reply.text()
    assert "Gus (wildcard, CCT-3)" in card, card

    # A second wildcard: no place is open any more.
    text = refused(
        await desk.run(
            "event player-add", desk.organiser, event=finals, player="Hal", wildcard=True
        )
    )
    assert "No Finals place is open for a wildcard" in text, text
    assert "10 of 10 places are taken by 9 qualifiers and 1 wildcard" in text, text


@IN_MODULE_LOOP
async def test_cct_3_a_player_neither_qualified_nor_a_wildcard_is_refused(desk: Desk) -> None:
    """Every place is a qualifier's: Ed (9th) is refused, with or without a wildcard, and
    nothing is written; a qualified player enters without one."""
    finals = await finals_of(desk, "Full tour")
    async with desk.store.read() as view:
        before = len(await view.audit.recent(500))
    text = refused(await desk.run("event player-add", desk.organiser, event=finals, player="Ed"))
    assert text == (
        "Ed is not qualified for the Finals and no place is open for a wildcard: 10 of 10 "
        "places are taken by qualifiers (CCT-3)."
    ), text
    text = refused(
        await desk.run("event player-add", desk.organiser, event=finals, player="Ed", wildcard=True)
    )
    assert "No Finals place is open for a wildcard" in text, text
    text = refused(
        await desk.run("event player-add", desk.organiser, event=finals, player="Bo", wildcard=True)
    )
    assert "qualified for the Finals" in text and "without a wildcard" in text, text
    newcomer = await desk.run("event player-add", desk.organiser, event=finals, player="Zed")
    assert "Zed is not qualified" in refused(newcomer)
    async with desk.store.read() as view:
        assert len(await view.audit.recent(500)) == before
        owner = await view.tours.by_name("Full tour")
        assert owner is not None
        assert await view.tours.player_by_name(owner.id, "Zed") is None
    entered = await desk.run("event player-add", desk.organiser, event=finals, player="Bo")
    assert not entered.reply.ephemeral and "(1/10)" in entered.reply.text(), entered.reply.text()


@IN_MODULE_LOOP
async def test_cct_3_a_decliner_comes_back_only_when_the_decline_is_withdrawn(
    desk: Desk,
) -> None:
    finals = await finals_of(desk, "Undo tour")
    await decline(desk, finals, "Kai")
    text = refused(await desk.run("event player-add", desk.organiser, event=finals, player="Kai"))
    assert "Kai declined the Finals" in text and "withdrawn" in text, text
    # Ed, offered Kai's place, enters: withdrawing Kai's decline would take it from him.
    await desk.run("event player-add", desk.organiser, event=finals, player="Ed")
    text = refused(
        await desk.run("finals decline-undo", desk.organiser, event=finals, player="Kai")
    )
    assert "Ed is not qualified" in text and "Take that player out" in text, text
    await desk.run("event player-remove", desk.organiser, event=finals, player="Ed")
    undone = await desk.run("finals decline-undo", desk.organiser, event=finals, player="Kai")
    assert "withdrawn" in undone.reply.text() and not undone.reply.ephemeral, undone.reply.text()
    assert await declines(desk, finals) == []
    back = await desk.run("event player-add", desk.organiser, event=finals, player="Kai")
    assert not back.reply.ephemeral, back.reply.text()
    text = refused(
        await desk.run("finals decline-undo", desk.organiser, event=finals, player="Kai")
    )
    assert "has not declined" in text, text


@IN_MODULE_LOOP
async def test_cct_3_declines_and_wildcards_go_out_and_back_in_the_tour_file(
    desk: Desk,
) -> None:
    """CCT-3: `/tour export` writes the Finals' declines (with their notes) and wildcards,
    `/tour import` reads them back into a tour with the same field, and `arbiter tour` on
    the file shows them in its qualification."""
    finals = await finals_of(desk, "File tour")
    await decline(desk, finals, "Max", "Family reasons")
    await decline(desk, finals, "Ned")
    await desk.run("event player-add", desk.organiser, event=finals, player="Gus", wildcard=True)
    exported = await desk.run("tour export", desk.player(0), tour="File tour")
    [data] = exported.reply.uploads.values()
    document = json.loads(data)
    assert document["finals"]["declined"] == [
        {"player": "Max", "note": "Family reasons"},
        {"player": "Ned"},
    ]
    assert document["finals"]["wildcards"] == ["Gus"] and "players" not in document["finals"]

    tour, tables = parse_tour(data.decode())
    report = tour_report(tour, None, tables)
    text = tour_text(report)
    assert "Declined: Max — place offered to Ned" in text, text
    assert "Declined: Ned — no one next in line: place open" in text, text
    assert "wildcards (organiser): Gus; still open: 0" in text, text
    assert tour_json(report)["qualification"]["wildcards"] == ["Gus"]

    back = await desk.run(
        "tour import", desk.organiser, file=Upload("t.json", data), name="File tour copy"
    )
    assert "imported" in (back.reply.content or ""), back.reply.text()
    assert await declines(desk, "File tour copy: Finals") == ["Max", "Ned"]
    listed = await desk.run(
        "tour qualification", desk.player(0), tour="File tour copy", event="Finals"
    )
    assert "W1. **Gus** — wildcard" in listed.reply.text(), listed.reply.text()
    again = await desk.run("tour export", desk.player(0), tour="File tour copy")
    assert json.loads(next(iter(again.reply.uploads.values())))["finals"] == document["finals"]


@IN_MODULE_LOOP
async def test_cct_3_a_tour_file_with_a_wildcard_and_no_open_place_is_refused(
    desk: Desk,
) -> None:
    """The file door goes through the same check: a wildcard while every place is a
    qualifier's is refused naming the JSON path, nothing stored."""
    document = {**SMALL_TOUR, "finals": {"declined": [], "wildcards": ["Gus"]}}
    outcome = await desk.run(
        "tour import",
        desk.organiser,
        file=Upload("t.json", json.dumps(document).encode()),
        name="Bad wildcard",
    )
    text = refused(outcome)
    assert "finals.wildcards" in text and "1 wildcard for 0 open places" in text, text
    async with desk.store.read() as view:
        assert await view.tours.by_name("Bad wildcard") is None
    document = {**SMALL_TOUR, "finals": {"declined": [{"player": "Ed"}]}}
    outcome = await desk.run(
        "tour import",
        desk.organiser,
        file=Upload("t.json", json.dumps(document).encode()),
        name="Bad decline",
    )
    text = refused(outcome)
    assert "finals.declined[0].player" in text and "nothing to decline" in text, text


@IN_MODULE_LOOP
async def test_cct_3_the_field_is_set_once_the_finals_are_drawn(desk: Desk) -> None:
    """A decline, or its withdrawal, comes before the draw; and only the Finals take one."""
    document = {**SMALL_TOUR, "finals": {"players": LISTED, "declined": [], "wildcards": []}}
    data = json.dumps(document).encode()
    imported = await desk.run(
        "tour import", desk.organiser, file=Upload("t.json", data), name="Drawn tour"
    )
    assert "imported" in (imported.reply.content or ""), imported.reply.text()
    for command in ("finals decline", "finals decline-undo"):
        text = refused(
            await desk.run(command, desk.organiser, event="Drawn tour: Finals", player="Bo")
        )
        assert "are drawn" in text and "cannot change" in text, text
    text = refused(
        await desk.run("finals decline", desk.organiser, event="Drawn tour: Major One", player="Bo")
    )
    assert "is not the Finals" in text, text
    assert await declines(desk, "Drawn tour: Finals") == []


@IN_MODULE_LOOP
async def test_cct_3_the_finals_draw_checks_the_field_again(desk: Desk) -> None:
    """The list may change after the players were entered (here Max stops being an
    Ambassador): the draw refuses a field the rules no longer give, and draws it once they
    give it again."""
    finals = await finals_of(desk, "Draw tour")
    for player in LISTED:
        added = await desk.run("event player-add", desk.organiser, event=finals, player=player)
        assert not added.reply.ephemeral, added.reply.text()
    await desk.run("tour ambassador-remove", desk.organiser, tour="Draw tour", player="Max")
    text = refused(await desk.run("event draw", desk.organiser, event=finals, seed="s"))
    assert "cannot be drawn" in text and "Max is not qualified" in text, text
    await desk.run("tour ambassador-add", desk.organiser, tour="Draw tour", player="Max")
    drawn = await desk.draw(finals, "s")
    assert "stored" in drawn.reply.text(), drawn.reply.text()
