"""A season of unplayed matches to report under kill -9 (tests/process/test_arbiter_run.py): round-
robin divisions of clubs with chess.com ids, each match with its own finished chess.com team
match (the recorded one re-addressed), seeded straight into the bot's database; and the
checks that every result was stored, audited, announced and posted exactly once."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from collections import Counter
from pathlib import Path
from typing import Any

from bot.formats.season_file import load_season
from bot.league.store import import_season
from core.berger import berger_table
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.outbox import pending_messages
from tests.discord_double import DiscordDouble
from tests.discord_double.world import Guild, Message
from tests.support.paths import ROOT

NAME = "Kill Season"
TEMPLATE = (ROOT / "tests" / "scripts" / "payloads" / "match-7000001-finished.json").read_text()
FIRST_CHESSCOM = 8_000_000


def season_file(
    divisions: int, clubs: int, start: dt.datetime
) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
    """`divisions` round-robin divisions of `clubs` clubs, no match played; and each match
    key's (home, away) club url-ids (the clubs are named after them)."""
    listed, matches, pairs = [], [], {}
    for d in range(divisions):
        names = [f"k{d}-club-{c}" for c in range(clubs)]
        listed.append({"name": f"Division {d}", "min_players": 1, "clubs": names})
        for number, boards in enumerate(berger_table(clubs).rounds, start=1):
            for pairing in boards:
                if max(pairing.white, pairing.black) > clubs:
                    continue  # a bye
                home, away = names[pairing.white - 1], names[pairing.black - 1]
                key = f"{d}-{number}-{home}"
                when = start + dt.timedelta(weeks=number)
                matches.append(
                    {
                        "id": key,
                        "division": f"Division {d}",
                        "round": number,
                        "home": home,
                        "away": away,
                        "start": when.isoformat().replace("+00:00", "Z"),
                        "boards": [],
                    }
                )
                pairs[key] = (home, away)
    return {"name": NAME, "divisions": listed, "matches": matches}, pairs


def chesscom_match(number: int, home: str, away: str, finished: dt.datetime | None = None) -> bytes:
    """The recorded finished match (two boards), re-addressed: its number and its clubs,
    finished at `finished` (default: an hour ago — after every seeded match's start, CL-14:
    a result never comes before its start)."""
    text = TEMPLATE.replace("7000001", str(number))
    payload = json.loads(text.replace("arsenal-fans", home).replace("fulham-fans", away))
    end = finished or dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
    payload["end_time"] = int(end.timestamp())
    payload["start_time"] = min(int(payload["start_time"]), payload["end_time"])
    return json.dumps(payload).encode()


async def seed(
    path: Path, guild: Guild, *, divisions: int, clubs: int, reports: int
) -> tuple[dict[int, int], dict[int, tuple[str, str]]]:
    """The guild's settings, clubs and season, written beside the running bot (as the CLI
    may): the first `reports` matches to report (match id → chess.com match) and each
    chess.com match's clubs."""
    database = await Database.open(path)
    try:
        # Every match started before now (CL-14: a result comes after the start): the
        # season's rounds are the weeks before the last one.
        rounds = len(berger_table(clubs).rounds)
        start = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(weeks=rounds + 1)
        data, pairs = season_file(divisions, clubs, start)
        store = GuildStore(database, guild.id)
        async with store.change(None, "test.seed", "league") as uow:
            await uow.settings.update(
                hq_role_id=guild.role("HQ").id,
                arbiter_role_id=guild.role("Arbiters").id,
                announcements_channel_id=guild.channel("announcements").id,
            )
            for division in data["divisions"]:
                for club in division["clubs"]:
                    await uow.clubs.register(club, club, status="approved")
            record = await import_season(uow, load_season(data))
            matches = await uow.matches.of_season(record.id)
    finally:
        await database.close()
    chosen = sorted(matches, key=lambda m: m.id)[:reports]
    numbers = {m.id: FIRST_CHESSCOM + n for n, m in enumerate(chosen)}
    return numbers, {numbers[m.id]: pairs[m.key] for m in chosen}


async def finished(path: Path, guild_id: int) -> set[int]:
    """The matches of the season the database shows as finished."""
    database = await Database.open(path)
    try:
        async with GuildStore(database, guild_id).read() as view:
            season = await view.seasons.by_name(NAME)
            assert season is not None
            return {m.id for m in await view.matches.of_season(season.id) if m.finished_at}
    finally:
        await database.close()


async def drained(path: Path, timeout: float) -> None:
    """Wait until the running bot has marked every outbox message sent (polled: its commit
    is the only sign, milliseconds after Discord's answer)."""
    database = await Database.open(path)
    try:
        for _ in range(int(timeout / 0.02)):
            if not await pending_messages(database):
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the outbox never drained")
    finally:
        await database.close()


def result_messages(double: DiscordDouble, guild_id: int) -> list[Message]:
    """The result announcements posted in the guild's announcements channel."""
    channel = double.guilds[guild_id].channel("announcements")
    return [
        m
        for m in double.channel_messages(channel, posted_only=True)
        if m.content.startswith("Result (chess.com)")
    ]


async def check_once(path: Path, guild_id: int, double: DiscordDouble, matches: set[int]) -> None:
    """Every match: its two boards stored, one `match.import` audit row, its one
    announcement row sent, and that one message at Discord (by nonce) — none twice."""
    database = await Database.open(path)
    try:
        async with GuildStore(database, guild_id).read() as view:
            audit = await view.audit.recent(limit=1_000_000)
            imports = [e for e in audit if e.action == "match.import"]
            assert Counter(e.subject for e in imports) == {f"match:{m}": 1 for m in matches}
            rows = []
            for entry in imports:
                (posted,) = entry.details["outbox"]
                row = await view.outbox.get(posted["id"])
                assert row is not None and row.status == "sent", row
                rows.append(row)
            for match in matches:
                assert len(await view.matches.boards(match)) == 2
    finally:
        await database.close()
    messages = result_messages(double, guild_id)
    assert len(messages) == len(matches)  # none lost, none posted twice
    by_nonce = {(m.channel_id, m.nonce): m for m in messages}
    assert len(by_nonce) == len(messages)
    for row in rows:
        assert by_nonce[(row.channel_id, row.nonce)].id == row.message_id
