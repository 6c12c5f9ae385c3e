"""The tour tried as hostile and careless users would, through the real command tree: what a
review found and fixed (one test per finding, the rule ID in its name where a rule is
involved). One bot serves the module (with the chess.com stand-in on 127.0.0.1); each test
works on its own tour."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import AsyncIterator
from fractions import Fraction

import icalendar
import pytest
import pytest_asyncio

from bot.formats.tour_file import parse_tour
from bot.kernel.config import CctDefaults, ChessComConfig, Config, DatabaseConfig, RuleDefaults
from bot.offline.chesscom_standin import ChessComStandIn
from bot.rendering.tour.report_json import tour_json
from bot.tour.files import export_tour_file
from bot.tour.store import LoadedEvent
from bot.tour.tours import service as tours
from core.results import Result
from core.tour.report import tour_report
from tests.support.discord_harness import Upload
from tests.support.discord_markdown import parse, shown
from tests.support.paths import ROOT
from tests.support.tour_desk import IN_MODULE_LOOP, Desk, tour_desk
from tests.support.tour_tables import table_rows
from tests.support.tour_world import (
    MATE_MOVES,
    ORGANISER,
    pgn_text,
    player_names,
    preliminary_played,
    tour_with_event,
)

NAMES = player_names(8)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def desk(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Desk]:
    """One bot for the module's tests, chess.com served by the stand-in."""
    standin = ChessComStandIn()
    base = await standin.start()
    path = tmp_path_factory.mktemp("tour-review") / "tour.db"
    config = Config(
        database=DatabaseConfig(path=path),
        chesscom=ChessComConfig(base_url=base, contact="tests", max_retries=0),
    )
    try:
        async with tour_desk(path, config=config) as running:
            running.chesscom = standin  # type: ignore[attr-defined]
            yield running
    finally:
        await standin.stop()


def pairing(loaded: LoadedEvent, a: str, b: str) -> tuple[str, str, str]:
    """The name, White and Black of the preliminary game between `a` and `b`."""
    game = next(
        g
        for g in loaded.games
        if g.stage == "preliminary"
        and {loaded.names[g.white_id], loaded.names[g.black_id]} == {a, b}
    )
    return loaded.game_name(game), loaded.names[game.white_id], loaded.names[game.black_id]


@IN_MODULE_LOOP
async def test_cct_8a_a_pgn_of_another_pairing_is_refused(desk: Desk) -> None:
    """A PGN whose players are two other players of the event (or one of this game's and
    another of the event's) is not this game: refused, nothing stored."""
    await tour_with_event(
        desk.store, tour="Pgn tour", event="Pgn open", players=NAMES, first_user=7000
    )
    loaded = await desk.event("Pgn open")
    name, white, _ = pairing(loaded, "P01", "P02")
    _, other_white, other_black = pairing(loaded, "P03", "P04")
    for header_white, header_black in ((other_white, other_black), (white, "P05")):
        pgn = pgn_text(header_white, header_black, MATE_MOVES, site="?")
        refused = await desk.run(
            "game report",
            desk.arbiter,
            event="Pgn open",
            game=name,
            pgn=Upload("g.pgn", pgn.encode()),
        )
        assert refused.reply.ephemeral, refused.reply.text()
        assert "another pairing" in (refused.reply.content or ""), refused.reply.text()
    assert not (await desk.event("Pgn open")).facts.prelim_games
    # A PGN naming this game's players (or neither, e.g. full names) still counts.
    pgn = pgn_text("Carlsen, Magnus", "So, Wesley", MATE_MOVES, site="?")
    counted = await desk.run(
        "game report", desk.arbiter, event="Pgn open", game=name, pgn=Upload("g.pgn", pgn.encode())
    )
    assert "1-0, decided by an arbiter" in (counted.reply.content or ""), counted.reply.text()


@IN_MODULE_LOOP
async def test_cct_8a_a_game_link_to_another_pairing_is_refused(desk: Desk) -> None:
    """A chess.com game found in one player's archive but played against someone else than
    this game's opponent (whose chess.com username is linked) is not this game."""
    await tour_with_event(
        desk.store, tour="Link tour", event="Link open", players=NAMES, first_user=7100
    )
    loaded = await desk.event("Link open")
    name, white, black = pairing(loaded, "P01", "P02")
    for player in (white, black):
        await desk.run(
            "tour link", desk.organiser, tour="Link tour", player=player, chesscom=f"{player}cc"
        )
    url = "https://www.chess.com/game/live/424242"
    archive = {
        "games": [{"url": url, "pgn": pgn_text(f"{white}cc", "somebodyelse", MATE_MOVES, site=url)}]
    }
    desk.chesscom.serve_bytes(  # type: ignore[attr-defined]
        f"player/{white.lower()}cc/games/2026/05", json.dumps(archive).encode()
    )
    refused = await desk.run("game report", desk.arbiter, event="Link open", game=name, link=url)
    assert refused.reply.ephemeral, refused.reply.text()
    assert "not this game" in (refused.reply.content or ""), refused.reply.text()
    assert not (await desk.event("Link open")).facts.prelim_games


@IN_MODULE_LOOP
async def test_cct_8a_a_draw_confirmed_after_its_players_changed_is_refused(desk: Desk) -> None:
    """The Confirm stores what the preview showed, or nothing: a player taken out and another
    entered in between change the numbers the seed gives, so the preview is stale."""
    await desk.run("tour create", desk.organiser, name="Stale draw")
    await desk.create_event(
        "Stale draw",
        "Stale",
        type="regular",
        start="2026-05-01",
        players=8,
    )
    await desk.enter("Stale", NAMES, 7200)
    preview = await desk.run("event draw", desk.organiser, event="Stale", seed="same")
    await desk.run("event player-remove", desk.organiser, event="Stale", player="P01")
    await desk.run("event player-add", desk.organiser, event="Stale", player="Late")
    stale = await desk.click(preview.reply, "Confirm", desk.organiser)
    said = " / ".join(reply.text() for reply in stale.replies)  # the refusal: privately
    assert "changed since the preview" in said, said
    assert (await desk.event("Stale")).record.drawn_at is None
    again = await desk.run("event draw", desk.organiser, event="Stale", seed="same")
    stored = await desk.click(again.reply, "Confirm", desk.organiser)
    assert "stored" in stored.reply.text(), stored.reply.text()


@IN_MODULE_LOOP
async def test_cct_8c_a_knockout_confirmed_after_the_order_changed_is_refused(desk: Desk) -> None:
    """The Confirm of `/event start-knockout` builds the bracket its preview showed, or
    nothing: an arbiter's correction in between that moves places 1-8 makes it stale."""
    names = player_names(10)
    await tour_with_event(
        desk.store, tour="Stale ko", event="Stale ko", players=names, first_user=7300, played=True
    )
    preview = await desk.run("event start-knockout", desk.organiser, event="Stale ko")
    assert "QF1: P01 – P08" in preview.reply.text(), preview.reply.text()
    game, white, _ = pairing(await desk.event("Stale ko"), "P08", "P09")
    upset = "0-1" if white == "P08" else "1-0"
    await desk.run(
        "game correct", desk.arbiter, event="Stale ko", game=game, result=upset, reason="flag"
    )
    stale = await desk.click(preview.reply, "Confirm", desk.organiser)
    said = " / ".join(reply.text() for reply in stale.replies)  # the refusal: privately
    assert "changed since the preview" in said, said
    assert (await desk.event("Stale ko")).record.knockout_started_at is None


@IN_MODULE_LOOP
async def test_an_event_whose_days_fall_past_the_calendar_is_refused(desk: Desk) -> None:
    """A start in year 9999 leaves no room for the event's days: one private line at
    creation, not an internal error at the draw."""
    await desk.run("tour create", desk.organiser, name="Far tour")
    refused = await desk.create_event(
        "Far tour",
        "Far",
        type="regular",
        start="9999-12-31",
    )
    assert refused.reply.ephemeral and "9999-12-31" in (refused.reply.content or ""), (
        refused.reply.text()
    )
    async with desk.store.read() as view:
        assert not await view.tour_events.by_name("Far")


@IN_MODULE_LOOP
async def test_cct_8f_a_finals_of_another_size_is_refused_at_creation(desk: Desk) -> None:
    """The Finals' size is the tour's, frozen at its creation (CCT-2, CCT-16; CCT-8f: 10):
    `arbiter tour` checks an exported Finals against that size, so a Finals of 12 drawn in
    Discord would be shown here and refused there (and its 11th round has no day)."""
    await desk.run("tour create", desk.organiser, name="Finals size")
    refused = await desk.create_event(
        "Finals size",
        "Big Finals",
        type="finals",
        start="2026-09-01",
        players=12,
    )
    assert refused.reply.ephemeral and "10 players" in (refused.reply.content or ""), (
        refused.reply.text()
    )
    made = await desk.create_event(
        "Finals size",
        "Finals",
        type="finals",
        start="2026-09-01",
        players=10,
    )
    assert not made.reply.ephemeral, made.reply.text()


@IN_MODULE_LOOP
async def test_a_tour_file_whose_event_dates_cannot_be_exported_is_refused(desk: Desk) -> None:
    """`/tour import` of an event starting 9999-12-31 (or on 2026-13-45) stored it, and
    `/tour export` then failed with an internal error (its last day is past the calendar):
    the file is refused naming the JSON path, nothing stored."""
    history = json.loads((ROOT / "tests" / "scripts" / "tour" / "tour_history.json").read_text())
    for start, problem in (("9999-12-31", "no room"), ("2026-13-45", "not a date")):
        history["events"][0]["start"] = start
        history["events"][0].pop("end", None)
        refused = await desk.run(
            "tour import",
            desk.organiser,
            file=Upload("t.json", json.dumps(history).encode()),
            name=f"Dated {start}",
        )
        text = shown(parse(refused.reply.content or ""))  # as Discord shows it
        assert refused.reply.ephemeral and "events[0].start" in text and problem in text, text
        async with desk.store.read() as view:
            assert await view.tours.by_name(f"Dated {start}") is None


@IN_MODULE_LOOP
async def test_cct_8f_a_finals_of_the_tours_own_size_is_drawn_one_round_a_day(desk: Desk) -> None:
    """A tour frozen with `finals_players = 12` (CCT-2 config): its Finals draw used to fail
    with an internal error (no day for round 10); they play one round a day, 11 days."""
    twelve = Config(rules=RuleDefaults(cct=CctDefaults(finals_players=12)))
    await tours.create_tour(desk.store, ORGANISER, twelve, "Twelve")
    await desk.create_event(
        "Twelve",
        "Twelve Finals",
        type="finals",
        start="2026-09-01",
    )
    # A tour with no event yet: every place is a wildcard's (CCT-3).
    await desk.enter("Twelve Finals", player_names(12), 7400, wildcard=True)
    drawn = await desk.draw("Twelve Finals", "x")
    assert "66 games over 11 rounds" in drawn.reply.text(), drawn.reply.text()
    calendar = await desk.run("event calendar", desk.player(7400), event="Twelve Finals")
    assert "Round 11" in calendar.reply.text(), calendar.reply.text()
    # issue 32: every session has an end, 4 hours after its start (no zero-length events)
    ics = icalendar.Calendar.from_ical(calendar.reply.uploads["event.ics"])
    sessions = ics.walk("VEVENT")
    assert len(sessions) == 11
    for session in sessions:
        start = session.decoded("dtstart")
        assert session.decoded("dtend") - start == dt.timedelta(hours=4)
        assert start.utcoffset() == dt.timedelta(0)


@IN_MODULE_LOOP
async def test_names_in_tour_titles_pass_the_renderer_once(desk: Desk) -> None:
    """A tour or event name is user text: shown as typed in an embed's title too (markdown
    escaped, a mention neutralised), as the league's titles and the tour's own lines are."""
    tour, event = "**Loud** @everyone", "_Slanted_ Open"
    await tour_with_event(desk.store, tour=tour, event=event, players=NAMES, first_user=7500)
    titles = {
        "tour show": (await desk.run("tour show", desk.organiser, tour=tour)).reply,
        "event show": (await desk.run("event show", desk.organiser, event=event)).reply,
        "event pairings": (await desk.run("event pairings", desk.organiser, event=event)).reply,
        "event calendar": (await desk.run("event calendar", desk.organiser, event=event)).reply,
        "incident list": (await desk.run("incident list", desk.organiser, event=event)).reply,
        "appeal list": (await desk.run("appeal list", desk.organiser, event=event)).reply,
    }
    for command, reply in titles.items():
        title = str(reply.embeds[0]["title"])
        assert "@everyone" not in title and "**" not in title, (command, title)
        assert title.startswith(("\\*\\*Loud\\*\\*", "\\_Slanted\\_")), (command, title)


@IN_MODULE_LOOP
async def test_an_unknown_after_event_is_quoted_cut_in_one_line(desk: Desk) -> None:
    """`/tour standings after:` with 5,000 characters: the refusal quotes the start of it
    and says what is wrong (it was the whole text, cut at Discord's 2,000 before the point)."""
    await desk.run("tour create", desk.organiser, name="After tour")
    refused = await desk.run("tour standings", desk.organiser, tour="After tour", after="x" * 5000)
    text = refused.reply.content or ""
    assert refused.reply.ephemeral and "is not a finished event" in text and len(text) < 300, text


@IN_MODULE_LOOP
async def test_cct_8d_a_correction_cannot_strand_a_reported_4th_game(desk: Desk) -> None:
    """Game 4 of match 1 is reported (2-1 after 3); an arbiter corrects game 3 to a draw,
    which decides the match 2½-½ after 3 games: the 4th game is not played (CCT-8d), so the
    correction cannot stand while that report waits (it stood, and the series showed a
    decided match with a 4th game whose confirmation could never be accepted)."""
    names = player_names(8)
    await tour_with_event(
        desk.store, tour="Strand", event="Strand", players=names, first_user=7600, played=True
    )
    preview = await desk.run("event start-knockout", desk.organiser, event="Strand")
    await desk.click(preview.reply, "Confirm", desk.organiser)
    top = desk.harness.member(user_id=7600, name="p01")  # P01 v P08 in QF1
    bottom = desk.harness.member(user_id=7607, name="p08")
    await desk.run("series choose", top, event="Strand", round="QF1", colour="white")
    for number, result in ((1, "1-0"), (2, "0-1"), (3, "0-1")):  # P01 2-1 after 3 games
        await desk.run(
            "game report",
            desk.arbiter,
            event="Strand",
            game=f"QF1 day 1 game {number}",
            result=result,
        )
    await desk.run("game report", bottom, event="Strand", game="QF1 day 1 game 4", result="0-1")
    refused = await desk.run(
        "game correct",
        desk.arbiter,
        event="Strand",
        game="QF1 day 1 game 3",
        result="½-½",
        reason="misread",
    )
    text = refused.reply.content or ""
    assert refused.reply.ephemeral and "QF1 day 1 game 4" in text and "CCT-8d" in text, text
    shown = await desk.run("series show", desk.organiser, event="Strand", round="QF1")
    assert "day 1 2–1" in shown.reply.text(), shown.reply.text()


@IN_MODULE_LOOP
async def test_cct_9_an_expelled_player_plays_and_qualifies_for_no_further_event(
    desk: Desk,
) -> None:
    """CCT-9: a player who disconnected on purpose "shall be expelled from the event in
    question as well as all further Tour events": `/event player-add` entered them in the
    next event and `/tour qualification` listed them (here a Major winner) for the Finals.
    Their place goes on as a decliner's (CCT-3), and the tour file names them, so
    `arbiter tour` on the export lists the same Finals qualification."""
    history = (ROOT / "tests" / "scripts" / "tour" / "tour_history.json").read_bytes()
    await desk.run("tour import", desk.organiser, file=Upload("t.json", history), name="Exiles")
    players = ["Carlsen", "So", "Nakamura", "Nepomniachtchi", "Aronian", "Giri", "Dubov", "Duda"]
    await desk.run(
        "event create",
        desk.organiser,
        tour="Exiles",
        name="Exile Open",
        type="regular",
        start="2026-04-20",  # played: its results are recorded after their sessions
        players=8,
    )
    for player in players:
        await desk.run("event player-add", desk.organiser, event="Exile Open", player=player)
    preview = await desk.run(
        "event draw", desk.organiser, event="Exile Open", order=", ".join(players)
    )
    await desk.click(preview.reply, "Confirm", desk.organiser)
    game, white, _ = pairing(await desk.event("Exile Open"), "Carlsen", "So")
    await desk.run(
        "game correct",
        desk.arbiter,
        event="Exile Open",
        game=game,
        result="0-1" if white == "Carlsen" else "1-0",
        reason="disconnected on purpose",
        ground="deliberate-disconnection",
    )
    await desk.create_event(
        "Exiles",
        "Exile Finals",
        type="finals",
        start="2026-09-01",
    )
    refused = await desk.run(
        "event player-add", desk.organiser, event="Exile Finals", player="Carlsen"
    )
    assert refused.reply.ephemeral and "expelled" in (refused.reply.content or ""), (
        refused.reply.text()
    )
    listed = await desk.run(
        "tour qualification", desk.player(0), tour="Exiles", event="Exile Finals"
    )
    shown = re.findall(r"^\d+\. \*\*(.+?)\*\*", listed.reply.text(), re.M)
    assert "Carlsen" not in shown and len(shown) == 8, listed.reply.text()
    _, data = await export_tour_file(desk.store, "Exiles")
    assert json.loads(data)["expelled"] == ["Carlsen"]
    tour, tables = parse_tour(data.decode())
    report = tour_json(tour_report(tour, None, tables))
    assert [q["player"] for q in report["qualification"]["finals"]] == shown


@IN_MODULE_LOOP
async def test_setting_a_players_usernames_keeps_their_member_linked(desk: Desk) -> None:
    """`/tour link player: chesscom:` (no `user`) set the username and unlinked the member,
    so that player could no longer report or confirm their games; a link with neither a
    member nor a username is refused (`/tour unlink` removes a link)."""
    await tour_with_event(
        desk.store, tour="Usernames", event="Usernames", players=NAMES, first_user=7700
    )
    linked = await desk.run(
        "tour link", desk.organiser, tour="Usernames", player="P01", chesscom="p01cc"
    )
    assert "<@7700>" in (linked.reply.content or ""), linked.reply.text()
    name, white, _ = pairing(await desk.event("Usernames"), "P01", "P02")
    p01 = desk.harness.member(user_id=7700, name="p01")
    result = "1-0" if white == "P01" else "0-1"
    reported = await desk.run("game report", p01, event="Usernames", game=name, result=result)
    assert "waiting for the opponent" in (reported.reply.content or ""), reported.reply.text()
    refused = await desk.run("tour link", desk.organiser, tour="Usernames", player="P01")
    assert "/tour unlink" in (refused.reply.content or ""), refused.reply.text()


HALF = Fraction(1, 2)
DE_TEST: dict[tuple[str, str], Fraction] = {}
"""A preliminary worked by hand (points of the first player): A, B, C, D tie on 4½; their
direct encounters give A 2, B 1½, C 1½, D 1; B beat C, but C has 4 wins to B's 3."""
for first, second, points in (
    ("A", "B", HALF), ("A", "C", HALF), ("A", "D", 1), ("B", "C", 1), ("B", "D", 0),
    ("C", "D", 1), ("A", "E", 1), ("A", "F", 1), ("A", "G", HALF), ("A", "H", 0),
    ("D", "E", 1), ("D", "F", 1), ("D", "G", 1), ("D", "H", HALF), ("B", "E", 1),
    ("B", "F", 1), ("B", "G", HALF), ("B", "H", HALF), ("C", "E", 1), ("C", "F", 1),
    ("C", "G", 1), ("C", "H", 0), ("H", "E", HALF), ("H", "F", HALF), ("H", "G", 0),
    ("G", "E", HALF), ("G", "F", HALF), ("E", "F", 1),
):  # fmt: skip
    DE_TEST[(first, second)] = Fraction(points)
    DE_TEST[(second, first)] = 1 - Fraction(points)


def _by_hand(white: str, black: str) -> Result:
    points = DE_TEST[(white, black)]
    return Result.WHITE_WIN if points == 1 else Result.DRAW if points == HALF else Result.BLACK_WIN


@IN_MODULE_LOOP
@pytest.mark.parametrize(("reading", "order"), [("cct", "ACBDHG"), ("fide2024", "ABCDHG")])
async def test_cct_8b_the_de_reading_of_the_event_orders_its_standings_and_bracket(
    desk: Desk, reading: str, order: str
) -> None:
    """CCT-8b by hand: DE once over A-D leaves B and C on 1½, then WIN puts C (4) before B
    (3); the `fide2024` reading re-applies DE to B and C, and B beat C. `/event standings`
    and the knock-out preview follow the event's reading."""
    tour = f"Readings {reading}"
    await desk.run("tour create", desk.organiser, name=tour)
    await desk.create_event(
        tour,
        tour,
        type="regular",
        start="2026-05-01",
        players=8,
        tiebreaks=reading,
    )
    for player in "ABCDEFGH":
        await desk.run("event player-add", desk.organiser, event=tour, player=player)
    preview = await desk.run("event draw", desk.organiser, event=tour, order=",".join("ABCDEFGH"))
    await desk.click(preview.reply, "Confirm", desk.organiser)
    await preliminary_played(desk.store, tour, _by_hand)
    shown = await desk.run("event standings", desk.player(0), event=tour)
    rows = table_rows(shown.reply.embeds[0]["description"])
    assert "".join(player for _, player, _ in rows)[:6] == order, rows
    assert [rank for rank, _, _ in rows] == [str(n) for n in range(1, 9)], rows
    knockout = await desk.run("event start-knockout", desk.organiser, event=tour)
    assert f"QF2: {order[1]} – E" in knockout.reply.text(), knockout.reply.text()
    assert f"QF3: {order[2]} – G" in knockout.reply.text(), knockout.reply.text()


@IN_MODULE_LOOP
async def test_cct_8f_the_finals_bonus_cannot_move_during_the_finals(desk: Desk) -> None:
    """CCT-8f: the bonus is the tour standings at the Finals' start. The Finals drawn while
    an earlier event was still played, or an earlier event drawn after the Finals, took
    that event's points into the bonus during the Finals: both draws are refused."""
    history = (ROOT / "tests" / "scripts" / "tour" / "tour_history.json").read_bytes()
    finalists = ["Carlsen", "So", "Nakamura", "Nepomniachtchi", "Aronian"]
    finalists += ["Vachier-Lagrave", "Giri", "Radjabov", "Dubov", "Grischuk"]
    for tour in ("Bonus early", "Bonus late"):
        await desk.run("tour import", desk.organiser, file=Upload("t.json", history), name=tour)
        await desk.run(
            "event create", desk.organiser, tour=tour, name=f"{tour} open", type="regular",
            start="2026-06-01", players=8,
        )  # fmt: skip
        for player in finalists[:8]:
            await desk.run("event player-add", desk.organiser, event=f"{tour} open", player=player)
        await desk.run(
            "event create", desk.organiser, tour=tour, name=f"{tour} finals", type="finals",
            start="2026-09-01",
        )  # fmt: skip
        for player in finalists:  # Dubov and Grischuk: the 2 places the list leaves (CCT-3)
            await desk.run(
                "event player-add", desk.organiser, event=f"{tour} finals", player=player,
                wildcard=player in ("Dubov", "Grischuk"),
            )  # fmt: skip

    async def draw(event: str, players: list[str]) -> str:
        preview = await desk.run("event draw", desk.organiser, event=event, order=",".join(players))
        if preview.reply.ephemeral:
            return preview.reply.content or ""
        return (await desk.click(preview.reply, "Confirm", desk.organiser)).reply.text()

    await draw("Bonus early open", finalists[:8])  # drawn, being played
    early = await draw("Bonus early finals", finalists)
    assert "Bonus early open" in early and "is not over" in early and "CCT-8f" in early, early
    assert "stored" in await draw("Bonus late finals", finalists)  # Bonus late open: no draw
    late = await draw("Bonus late open", finalists[:8])
    assert "are drawn" in late and "CCT-8f" in late, late


@IN_MODULE_LOOP
async def test_a_tour_file_passes_the_name_gate_and_reads_any_json_number(desk: Desk) -> None:
    """`/tour import` stored names the `/event` gate refuses (a right-to-left override here;
    as well a zero-width space or a name over 100 characters, which then cannot be typed
    back); and a 5,000-digit number made the import (and `arbiter tour`) fail with an
    internal error."""
    history = json.loads((ROOT / "tests" / "scripts" / "tour" / "tour_history.json").read_text())
    paths = {"player": "events[0].preliminary.order[0]", "event": "events[1].name"}
    for label, where in (("player", ("events", 0, "preliminary", "order", 0)), ("event", None)):
        document = json.loads(json.dumps(history))
        if where is None:
            document["events"][1]["name"] = "Open\u202eevil"
        else:
            document["events"][0]["preliminary"]["order"][0] = "Carl\u202esen"
            for round_ in document["events"][0]["knockout"]:
                for side in ("a", "b", "winner"):
                    if round_.get(side) == "Carlsen":
                        round_[side] = "Carl\u202esen"
        refused = await desk.run(
            "tour import",
            desk.organiser,
            file=Upload("t.json", json.dumps(document).encode()),
            name=f"Gate {label}",
        )
        text = shown(parse(refused.reply.content or ""))  # as Discord shows it
        # the one name gate (core.names) refuses it as the file is read, naming where
        assert refused.reply.ephemeral and "U+202E" in text, refused.reply.text()
        assert paths[label] in text, text
        async with desk.store.read() as view:
            assert await view.tours.by_name(f"Gate {label}") is None
    huge = json.dumps(history).replace('"events"', '"x": ' + "9" * 5000 + ', "events"', 1)
    refused = await desk.run(
        "tour import", desk.organiser, file=Upload("t.json", huge.encode()), name="Gate huge"
    )
    assert refused.reply.ephemeral and "4,300 digits" in (refused.reply.content or ""), (
        refused.reply.text()
    )


@IN_MODULE_LOOP
async def test_cct_8f_an_imported_finals_is_the_tours_size(desk: Desk) -> None:
    """A tour file whose Finals list 3 players was imported (and shown in Discord) though
    `arbiter tour` refuses the export: the Finals are the tour's size (CCT-8f)."""
    document = json.loads((ROOT / "tests" / "data" / "tour_three_events.json").read_text())
    document["finals"]["players"] = document["finals"]["players"][:3]
    document["finals"]["matches"] = []
    refused = await desk.run(
        "tour import",
        desk.organiser,
        file=Upload("t.json", json.dumps(document).encode()),
        name="Three finalists",
    )
    text = refused.reply.content or ""
    assert refused.reply.ephemeral and "3 players" in text and "10" in text, refused.reply.text()
