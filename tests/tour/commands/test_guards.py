"""No fact before its time, none rewritten after it is relied on: the tour's guards tried
through the real command tree (and the real config loader and CLI), one test per guard, the
rule ID in its name. One bot serves the module; each test works on its own tour."""

from __future__ import annotations

import datetime as dt
import json
import logging

import pytest

from bot.kernel.config import Config, DatabaseConfig
from bot.tour.events import service as events
from bot.tour.games import service as games
from bot.tour.store import LoadedEvent
from core.results import Result
from core.tour.ranking import EventType
from storage.tour.tours import TourPlayer
from tests.support.discord_harness import Upload
from tests.support.discord_markdown import constructs, parse, shown
from tests.support.paths import ROOT
from tests.support.tour_desk import IN_MODULE_LOOP, PLAYER_IDS, Desk, module_desk
from tests.support.tour_play import play_to_the_deciding_game
from tests.support.tour_world import (
    ARBITER,
    MATE_MOVES,
    ORGANISER,
    pgn_text,
    player_names,
    tour_with_event,
)

NAMES = player_names(8)
PAST = "2026-04-20"
"""An event start before the desk's clock (2026-05-01 09:00 UTC): its preliminary sessions
have all started."""
MATE = pgn_text("Carlsen, Magnus", "So, Wesley", MATE_MOVES, site="?")


desk = module_desk("tour-guards", config=lambda path: Config(database=DatabaseConfig(path=path)))


def first_game(loaded: LoadedEvent) -> str:
    """The name of the event's first preliminary game (round 1, board 1)."""
    game = min(
        (g for g in loaded.games if g.stage == "preliminary"),
        key=lambda g: (g.round or 0, g.board or 0),
    )
    return loaded.game_name(game)


@IN_MODULE_LOOP
async def test_cct_7_a_pgn_with_control_bytes_is_refused_and_not_logged_as_an_error(
    desk: Desk, caplog: pytest.LogCaptureFixture
) -> None:
    """A PGN holding NUL (which PostgreSQL cannot store) or another control byte is refused
    with one line; a PGN python-chess cannot read is refused without python-chess's ERROR
    log line (the sender's mistake, not ours). Nothing is stored either way."""
    await tour_with_event(desk.store, tour="Pgn tour", event="Pgn open", players=NAMES, start=PAST)
    game = first_game(await desk.event("Pgn open"))
    caplog.set_level(logging.WARNING)
    for bad, said in (
        (MATE.replace("Qh5", "Qh5\x00"), "control character (U+0000) on line 7"),
        (MATE.replace("[Site", "\x1b[Site"), "control character (U+001B) on line 2"),
        (MATE.replace("Qxf7#", "Qxe8#"), "cannot be read"),
    ):
        refused = await desk.run(
            "game report",
            desk.arbiter,
            event="Pgn open",
            game=game,
            pgn=Upload("g.pgn", bad.encode()),
        )
        text = refused.reply.content or ""
        assert refused.reply.ephemeral and said in text and "\n" not in text, text
    assert not (await desk.event("Pgn open")).facts.prelim_games
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    counted = await desk.run(
        "game report", desk.arbiter, event="Pgn open", game=game, pgn=Upload("g.pgn", MATE.encode())
    )
    assert "1-0, decided by an arbiter" in (counted.reply.content or ""), counted.reply.text()


HOSTILE = "**Bold** <@123> [free](https://evil.example) <t:0:R>"
"""A player name in a tour file with Discord's syntax: bold, a mention, a masked link and a
timestamp."""


@IN_MODULE_LOOP
async def test_a_refused_tour_file_quotes_its_names_as_typed(desk: Desk) -> None:
    """`/tour import` of a file that names a hostile player twice (and as a knock-out winner
    who did not play) is refused quoting the names through the one gate out: Discord shows
    them as typed, with no bold, mention, link or timestamp of theirs. Nothing is stored."""
    history = json.loads((ROOT / "tests" / "scripts" / "tour" / "tour_history.json").read_text())
    order = history["events"][0]["preliminary"]["order"]
    order[-2:] = [HOSTILE, HOSTILE]
    history["events"][0]["knockout"][0]["winner"] = HOSTILE
    refused = await desk.run(
        "tour import",
        desk.organiser,
        file=Upload("t.json", json.dumps(history).encode()),
        name="Hostile history",
    )
    text = refused.reply.content or ""
    assert refused.reply.ephemeral and "listed twice" in text, text
    nodes = parse(text)
    assert not constructs(nodes), (text, constructs(nodes))
    assert repr(HOSTILE) in shown(nodes), shown(nodes)
    async with desk.store.read() as view:
        assert await view.tours.by_name("Hostile history") is None


@IN_MODULE_LOOP
async def test_cct_11_one_appeal_per_player_per_game_decided_once(desk: Desk) -> None:
    """CCT-11: a player's second appeal about the same game is refused naming the first (its
    number and when it was lodged) and nothing is stored; another game, or another player,
    may appeal. An appeal decided once cannot be decided again."""
    await tour_with_event(
        desk.store,
        tour="Appeal tour",
        event="Appeal open",
        players=NAMES,
        first_user=PLAYER_IDS + 100,
        start="2026-05-01",
    )
    loaded = await desk.event("Appeal open")
    game = first_game(loaded)
    player = desk.player(100)
    lodged = await desk.run("appeal lodge", player, event="Appeal open", game=game, text="Help.")
    assert "recorded" in (lodged.reply.content or ""), lodged.reply.text()
    first = int((lodged.reply.content or "").split()[1])
    again = await desk.run("appeal lodge", player, event="Appeal open", game=game, text="Again.")
    text = again.reply.content or ""
    assert again.reply.ephemeral and f"appeal {first}, lodged 2026-05-01 11:00 CEST" in text, text
    other = await desk.run(
        "appeal lodge", desk.player(101), event="Appeal open", game=game, text="Me too."
    )
    assert "recorded" in (other.reply.content or ""), other.reply.text()
    async with desk.store.read() as view:
        assert len(await view.tour_rulings.appeals(loaded.record.id)) == 2
    decided = await desk.run(
        "appeal decide", desk.arbiter, appeal=first, decision="dismissed", reason="No evidence."
    )
    assert "dismissed" in (decided.reply.content or ""), decided.reply.text()
    twice = await desk.run(
        "appeal decide", desk.arbiter, appeal=first, decision="upheld", reason="Changed my mind."
    )
    said = twice.reply.content or ""
    assert twice.reply.ephemeral and "dismissed already" in said and "once" in said, said
    async with desk.store.read() as view:
        stored = await view.tour_rulings.appeal(first)
    assert stored is not None and (stored.status, stored.reason) == ("dismissed", "No evidence.")


async def _player(desk: Desk, tour: str, name: str) -> TourPlayer:
    async with desk.store.read() as view:
        record = await view.tours.by_name(tour)
        assert record is not None
        found = await view.tours.player_by_name(record.id, name)
    assert found is not None
    return found


@IN_MODULE_LOOP
async def test_a_link_is_never_removed_silently(desk: Desk) -> None:
    """`/tour link` with a blank (whitespace-only) username, or with neither a member nor a
    username, unlinked the member without a word: both are refused, the links kept. A link is
    removed by `/tour unlink` alone, previewed and confirmed: the member, or one username."""
    await tour_with_event(
        desk.store,
        tour="Link tour",
        event="Link open",
        players=NAMES,
        first_user=PLAYER_IDS + 200,
        start=PAST,
    )
    set_names = await desk.run(
        "tour link", desk.organiser, tour="Link tour", player="P01", chesscom="p01cc", lichess="p1"
    )
    assert f"<@{PLAYER_IDS + 200}>" in (set_names.reply.content or ""), set_names.reply.text()
    for options, said in (
        ({"chesscom": "   "}, "blank chess.com username links nothing"),
        ({"lichess": "\t"}, "blank lichess username links nothing"),
        ({}, "`/tour unlink`"),
    ):
        refused = await desk.run(
            "tour link", desk.organiser, tour="Link tour", player="P01", **options
        )
        text = refused.reply.content or ""
        assert refused.reply.ephemeral and said in text, text
    kept = await _player(desk, "Link tour", "P01")
    assert (kept.user_id, kept.chesscom, kept.lichess) == (PLAYER_IDS + 200, "p01cc", "p1")

    preview = await desk.run(
        "tour unlink", desk.organiser, tour="Link tour", player="P01", site="chess.com"
    )
    assert "without the chess.com username p01cc?" in preview.reply.text(), preview.reply.text()
    assert (await _player(desk, "Link tour", "P01")).chesscom == "p01cc"  # a preview only
    removed = await desk.click(preview.reply, "Confirm", desk.organiser)
    assert "removed" in removed.reply.text(), removed.reply.text()
    after = await _player(desk, "Link tour", "P01")
    assert (after.user_id, after.chesscom, after.lichess) == (PLAYER_IDS + 200, None, "p1")

    member = await desk.run("tour unlink", desk.organiser, tour="Link tour", player="P01")
    assert f"unlinked from <@{PLAYER_IDS + 200}>?" in member.reply.text(), member.reply.text()
    await desk.click(member.reply, "Confirm", desk.organiser)
    after = await _player(desk, "Link tour", "P01")
    assert (after.user_id, after.chesscom, after.lichess) == (None, None, "p1")
    nothing = await desk.run("tour unlink", desk.organiser, tour="Link tour", player="P01")
    said = nothing.reply.content or ""
    assert nothing.reply.ephemeral and "has no member: nothing to unlink" in said, said


SESSION_TWO = dt.datetime(2026, 5, 1, 15, tzinfo=dt.UTC)
"""The session of day 2 of an event starting 2026-04-30: 17:00 Paris, after the desk's clock."""


async def _two_days(desk: Desk, tour: str, first_user: int) -> tuple[LoadedEvent, str, str]:
    """An 8-player event that started yesterday: its day 1 (rounds 1-3) was played, its day
    2 (rounds 4-5) starts at 17:00 Paris today. The event, a round 1 game and a round 4 game
    of its first player."""
    await tour_with_event(
        desk.store,
        tour=tour,
        event=f"{tour} open",
        players=NAMES,
        first_user=first_user,
        start="2026-04-30",
    )
    loaded = await desk.event(f"{tour} open")
    mine = [g for g in loaded.games if loaded.names[g.white_id] == "P01"]
    played = next(g for g in mine if g.round is not None and g.round <= 3)
    later = next(g for g in mine if g.round == 4 or g.round == 5)
    return loaded, loaded.game_name(played), loaded.game_name(later)


def _too_early(text: str, game: str) -> bool:
    """One line naming the game and its session's start as a Discord timestamp."""
    stamp = f"<t:{int(SESSION_TWO.timestamp())}:F>"
    return stamp in text and game in text and "\n" not in text


@IN_MODULE_LOOP
async def test_cct_9_no_report_or_arbiters_entry_before_the_games_session(desk: Desk) -> None:
    """A player's report before the game's session has started is refused with one private
    line giving the session's start as a Discord timestamp, so the 12-hour auto-confirmation
    can never make it final; so is an arbiter's entry and correction (CCT-9: a result without
    play is a walkover, another door). A game whose session started is reported as ever,
    and a tour file of a historic event still imports (it is no live report)."""
    _loaded, played, later = await _two_days(desk, "Early", PLAYER_IDS + 300)
    white = desk.player(300)
    reported = await desk.run("game report", white, event="Early open", game=played, result="1-0")
    assert "waiting for the opponent" in (reported.reply.content or ""), reported.reply.text()
    for caller, command, options in (
        (white, "game report", {"result": "1-0"}),
        (desk.arbiter, "game report", {"result": "1-0"}),
        (desk.arbiter, "game correct", {"result": "0-1", "reason": "early"}),
    ):
        refused = await desk.run(command, caller, event="Early open", game=later, **options)
        text = refused.reply.content or ""
        assert refused.reply.ephemeral and _too_early(text, later), (command, text)
    after = await desk.event("Early open")
    assert next(g for g in after.games if after.game_name(g) == later).report.result is None
    assert len([g for g in after.games if g.status.value != "open"]) == 1
    history = (ROOT / "tests" / "scripts" / "tour" / "tour_history.json").read_bytes()
    imported = await desk.run(
        "tour import", desk.organiser, file=Upload("t.json", history), name="Early history"
    )
    assert "imported" in (imported.reply.content or ""), imported.reply.text()


@IN_MODULE_LOOP
async def test_cct_10_no_disconnection_before_the_games_session(desk: Desk) -> None:
    """A disconnection happens during a game: one recorded before the game's session starts
    is refused with the session's start (nothing stored, no result), one in a game whose
    session started is ruled as ever."""
    loaded, played, later = await _two_days(desk, "Dropped early", PLAYER_IDS + 400)
    options = {
        "player": "P01",
        "clock_seconds": 20,
        "reconnected_within_30s": False,
        "backup_connection": True,
    }
    refused = await desk.run(
        "incident disconnection", desk.arbiter, event="Dropped early open", game=later, **options
    )
    text = refused.reply.content or ""
    assert refused.reply.ephemeral and _too_early(text, later), text
    async with desk.store.read() as view:
        assert not await view.tour_rulings.incidents(loaded.record.id)
    ruled = await desk.run(
        "incident disconnection", desk.arbiter, event="Dropped early open", game=played, **options
    )
    assert "lost" in (ruled.reply.content or ""), ruled.reply.text()
    after = await desk.event("Dropped early open")
    assert [after.game_name(g) for g in after.games if g.status.settled] == [played]


@IN_MODULE_LOOP
async def test_cct_8f_cct_6_no_correction_feeds_the_bonus_of_drawn_finals(desk: Desk) -> None:
    """CCT-8f, CCT-6: the Finals' bonus points are the tour standings at their start. Once
    the Finals are drawn, an arbiter's correction of an earlier event's result (CCT-9) is
    refused naming the Finals, and nothing changes; the same correction went through before
    their draw."""
    store = desk.store
    await tour_with_event(
        store,
        tour="Fixed bonus",
        event="Fixed open",
        players=NAMES,
        first_user=PLAYER_IDS + 500,
        start=PAST,
        played=True,
    )
    deciding = await play_to_the_deciding_game(store, "Fixed open", NAMES)
    await games.report_game(store, ARBITER, "Fixed open", deciding, Result.DRAW)
    loaded = await desk.event("Fixed open")
    game = next(
        loaded.game_name(g)
        for g in loaded.games
        if {loaded.names[g.white_id], loaded.names[g.black_id]} == {"P01", "P08"}
    )
    before = await desk.run(
        "game correct", desk.arbiter, event="Fixed open", game=game, result="½-½", reason="flag"
    )
    assert not before.reply.ephemeral, before.reply.text()
    await events.create_event(
        store, ORGANISER, "Fixed bonus", "Fixed finals", EventType.FINALS, "2026-05-20"
    )
    for number, name in enumerate(player_names(10), start=1):
        # CCT-3: places 1-8 of the standings; the 2 places no Ambassador fills are wildcards.
        await events.add_player(store, ORGANISER, "Fixed finals", name, wildcard=number > 8)
    await events.draw_event(store, ORGANISER, "Fixed finals", seed="f", confirm=True)
    refused = await desk.run(
        "game correct", desk.arbiter, event="Fixed open", game=game, result="1-0", reason="back"
    )
    text = refused.reply.content or ""
    assert refused.reply.ephemeral and "Fixed finals" in text and "CCT-8f" in text, text
    after = await desk.event("Fixed open")
    stored = next(g for g in after.games if after.game_name(g) == game)
    assert stored.result is Result.DRAW


@IN_MODULE_LOOP
async def test_tour_import_says_a_file_s_problems_in_plain_words(desk: Desk) -> None:
    """`/tour import` of a file with a wrong type, an extra key or a bad choice is refused in
    plain words, not pydantic's (issue 32, item 4)."""
    history = json.loads((ROOT / "tests" / "scripts" / "tour" / "tour_history.json").read_text())
    for change, said in (
        ({"name": 3}, "name: must be text (in quotes)"),
        ({"bogus": 1}, "bogus: unknown key"),
    ):
        refused = await desk.run(
            "tour import",
            desk.organiser,
            file=Upload("t.json", json.dumps({**history, **change}).encode()),
            name="Plain words",
        )
        text = refused.reply.content or ""
        assert refused.reply.ephemeral and said in text, text
        assert "Input should" not in text and "Extra inputs" not in text
    history["events"][0]["scoring"] = "2/1/0"
    refused = await desk.run(
        "tour import",
        desk.organiser,
        file=Upload("t.json", json.dumps(history).encode()),
        name="Plain words",
    )
    text = refused.reply.content or ""
    assert "scoring: must be one of 1/½/0 or 3/1/0" in text, text
