"""A tour event's pin kept by the bot's pin refresher (bot/runtime/pin_refresher.py with
bot/tour/events/pin.EventPins, the league's machinery): a change made while the pin's own
message had not reached Discord yet (Discord answered 503) is shown as soon as it has — no
later change needed; a change committed while no bot ran is edited once at the next start,
and a start with nothing stale edits nothing."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

from bot.tour.games import service as games
from bot.tour.store import load_event
from core.results import Result
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID, Post
from tests.support.tour_desk import START, Desk, tour_desk
from tests.support.tour_tables import table_rows
from tests.support.tour_world import ARBITER, tour_with_event
from tests.support.tour_world import player_names as names

PLAYERS = names(8)


async def _pin(desk: Desk) -> int:
    """The event `Open` (8 players, drawn) pinned in #general; the channel."""
    await tour_with_event(GuildStore(desk.bot.database, DEFAULT_GUILD_ID), players=PLAYERS)
    channel = desk.harness.channel("general")
    await desk.run("event pin", desk.organiser, event="Open", channel=channel)
    return channel


async def _first_game(database: Database) -> tuple[str, str]:
    """The name of the event's first game and its White player."""
    async with GuildStore(database, DEFAULT_GUILD_ID).read() as view:
        loaded = await load_event(view, (await view.tour_events.by_name("Open"))[0])
    game = loaded.games[0]
    return loaded.game_name(game), loaded.names[game.white_id]


def _in(desk: Desk, channel: int) -> list[Post]:
    return [p for p in desk.harness.posts if p.channel_id == channel]


async def test_a_change_before_the_pin_reached_discord_is_shown_once_it_has(
    tmp_path: Path,
) -> None:
    async with tour_desk(tmp_path / "bot.db") as desk:
        desk.harness.answer_next("POST", 503, channel_id=desk.harness.channel("general"))
        channel = await _pin(desk)
        await desk.clock.advance(dt.timedelta(0))
        assert _in(desk, channel) == []  # Discord answered 503: the pin is not posted yet
        game, white = await _first_game(desk.bot.database)
        await desk.run("game report", desk.arbiter, event="Open", game=game, result="1-0")
        await desk.clock.advance(dt.timedelta(seconds=5))  # the outbox's retry: posted
        posted = _in(desk, channel)
        assert [p.edited for p in posted] == [False, True]
        assert table_rows(posted[1].embeds[0]["description"])[0][:2] == ("1", white)
        assert posted[0].message_id == posted[1].message_id


def _edits_of(path: Path, message_id: int) -> int:
    """How many edits of the message the outbox holds (queued, sent or given up)."""
    with sqlite3.connect(path) as connection:
        (count,) = connection.execute(
            "SELECT count(*) FROM outbox WHERE edit_of = ?", (message_id,)
        ).fetchone()
    return int(count)


async def test_a_pin_left_stale_by_a_change_while_down_is_edited_once_at_start_up(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    async with tour_desk(path) as desk:
        channel = await _pin(desk)
        await desk.clock.advance(dt.timedelta(0))
        [posted] = _in(desk, channel)
        game, _ = await _first_game(desk.bot.database)
    assert _edits_of(path, posted.message_id) == 0

    # A result committed while no bot followed it (the bot stopped before its pass).
    database = await Database.open(path)
    store = GuildStore(database, DEFAULT_GUILD_ID)
    await games.report_game(store, ARBITER, "Open", game, Result.WHITE_WIN)
    await database.close()

    later = START + dt.timedelta(hours=1)
    async with tour_desk(path, later, set_up=False):
        pass  # start-up: the stale pin's edit queued (and sent) once
    assert _edits_of(path, posted.message_id) == 1
    async with tour_desk(path, later, set_up=False):
        pass  # nothing stale now: nothing queued
    assert _edits_of(path, posted.message_id) == 1
