"""kill -9 of the real `arbiter run` while members report results concurrently, restarted
each time on the same database file: nothing lost, nothing doubled.

A season of unplayed matches (each with its finished chess.com team match on the stand-in)
is seeded into the database; an arbiter reports every match at once over the gateway; the
test SIGKILLs the process after a random number of the bot's REST calls, restarts it, and
reports again what the database does not show as finished (as a member who got no answer
would). At the end every match has its result once: one `match.import` audit row, one
announcement in the outbox, sent, and one message in Discord (the double) — and every
report the bot answered is stored. `ARBITER_SOAK=1`: 20 kills during 200 reports;
`ARBITER_SEED` picks the kill points.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import random
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.formats.season_file import load_season
from bot.league_store import import_season
from bot.offline.chesscom_standin import ChessComStandIn
from core.berger import berger_table
from storage.database import Database
from storage.guild import GuildStore
from storage.outbox import pending_messages
from tests.arbiter_process import ArbiterProcess, publish_tree, write_config
from tests.discord_double import DiscordDouble
from tests.discord_double.world import Guild, Member
from tests.paths import ROOT

SOAK = os.environ.get("ARBITER_SOAK") == "1"
KILLS = 20 if SOAK else 2
REPORTS = 200 if SOAK else 6
DIVISIONS, CLUBS = (3, 13) if SOAK else (1, 4)
TEMPLATE = (ROOT / "tests" / "scripts" / "payloads" / "match-7000001-finished.json").read_text()
FIRST_CHESSCOM = 8_000_000
STEP = 30.0  # seconds any one wait may take before the test fails


def season_file(start: dt.datetime) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
    """DIVISIONS round-robin divisions of CLUBS clubs, no match played; and each match key's
    (home, away) club url-ids."""
    divisions, matches, pairs = [], [], {}
    for d in range(DIVISIONS):
        clubs = [f"d{d}-club-{c}" for c in range(CLUBS)]
        divisions.append({"name": f"Division {d}", "min_players": 1, "clubs": clubs})
        for number, boards in enumerate(berger_table(CLUBS).rounds, start=1):
            for pairing in boards:
                if max(pairing.white, pairing.black) > CLUBS:
                    continue  # a bye
                home, away = clubs[pairing.white - 1], clubs[pairing.black - 1]
                key = f"{d}-{number}-{home}"
                when = (start + dt.timedelta(weeks=number)).isoformat().replace("+00:00", "Z")
                matches.append(
                    {
                        "id": key,
                        "division": f"Division {d}",
                        "round": number,
                        "home": home,
                        "away": away,
                        "start": when,
                        "boards": [],
                    }
                )
                pairs[key] = (home, away)
    return {"name": "Kill Season", "divisions": divisions, "matches": matches}, pairs


def chesscom_match(number: int, home: str, away: str) -> str:
    """The recorded finished match, re-addressed: its number and its two clubs."""
    text = TEMPLATE.replace("7000001", str(number))
    return text.replace("arsenal-fans", home).replace("fulham-fans", away)


async def seed(path: Path, guild: Guild) -> tuple[dict[int, int], dict[int, tuple[str, str]]]:
    """The guild's settings, clubs and season in a new database: the REPORTS matches to
    report (match id → chess.com match) and each chess.com match's clubs."""
    database = await Database.open(path)
    await database.migrate()
    start = dt.datetime.now(dt.UTC).replace(microsecond=0, second=0) + dt.timedelta(days=14)
    data, pairs = season_file(start)
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
    await database.close()
    chosen = sorted(matches, key=lambda m: m.id)[:REPORTS]
    reports = {m.id: FIRST_CHESSCOM + n for n, m in enumerate(chosen)}
    return reports, {FIRST_CHESSCOM + n: pairs[m.key] for n, m in enumerate(chosen)}


async def finished(path: Path, guild_id: int) -> set[int]:
    """The matches the database shows as finished (read while no bot runs)."""
    database = await Database.open(path)
    try:
        async with GuildStore(database, guild_id).read() as view:
            season = await view.seasons.by_name("Kill Season")
            assert season is not None
            return {m.id for m in await view.matches.of_season(season.id) if m.finished_at}
    finally:
        await database.close()


async def drained(path: Path) -> None:
    """Wait until the running bot has marked every outbox message sent (polled: the bot's
    commit is the only signal, and it is milliseconds after Discord's answer)."""
    database = await Database.open(path)
    try:
        for _ in range(int(STEP / 0.02)):
            if not await pending_messages(database):
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the outbox never drained")
    finally:
        await database.close()


@pytest.fixture
async def servers() -> AsyncIterator[tuple[DiscordDouble, ChessComStandIn]]:
    # IDENTIFY unthrottled: each restart is a new process identifying at once.
    double = DiscordDouble(identify_window=0.0, heartbeat_interval_ms=1000)
    await double.start()
    chesscom = ChessComStandIn()
    await chesscom.start()
    yield double, chesscom
    await double.stop()
    await chesscom.stop()


async def one_run(
    bot: ArbiterProcess,
    double: DiscordDouble,
    arbiter: Member,
    todo: dict[int, int],
    kill_after: int | None,
    total: int,
) -> dict[int, str]:
    """With the bot started, send every report in `todo` at once; SIGKILL it after `kill_after` of
    its REST calls, or (None) let it answer them all and announce all `total` results, then
    SIGTERM it. Returns the reports it answered: match → the text the member saw."""
    await double.wait_for(lambda: double.gateway.connected(0) is not None, STEP, "an IDENTIFY")
    before = len(double.rest.calls)
    sent = {
        match: await double.command(
            arbiter, "match report", match=match, chesscom_match=str(number)
        )
        for match, number in todo.items()
    }
    if kill_after is None:
        for report in sent.values():
            await report.answer(STEP)
        await double.wait_for(
            lambda: len(result_messages(double, arbiter.guild_id)) >= total, STEP, "results"
        )
        await drained(bot.config.parent / "arbiter.db")
        code, _ = await bot.terminate()
        assert code == 0, bot.log()[-3000:]
    else:
        await double.wait_for(
            lambda: (
                len(double.rest.calls) >= before + kill_after
                or all(s.replies[1:] for s in sent.values())
            ),
            STEP,
            f"{kill_after} REST calls",
        )
        await bot.kill()  # SIGKILL: no clean-up of any kind
    answered = {}
    for match, report in sent.items():
        answers = [r for r in report.replies if r.kind == "followup"]
        if answers:
            answered[match] = answers[0].text()
    return answered


async def test_kill_9_during_concurrent_reports_loses_and_doubles_nothing(
    tmp_path: Path, servers: tuple[DiscordDouble, ChessComStandIn]
) -> None:
    double, chesscom = servers
    guild = double.add_guild("Kill League", roles=("HQ", "Arbiters"))
    arbiter = double.add_member(guild, "arbi", roles=("Arbiters",))
    publishing = asyncio.create_task(publish_tree(double, guild.id))
    database = tmp_path / "arbiter.db"
    reports, pairs = await seed(database, guild)
    for number, (home, away) in pairs.items():
        chesscom.serve_bytes(f"match/{number}", chesscom_match(number, home, away).encode())
    await publishing
    config = write_config(tmp_path, chesscom.base_url)
    rnd = random.Random(os.environ.get("ARBITER_SEED", "24"))
    answered: dict[int, str] = {}  # match → the reply the member saw
    kills = 0
    while True:
        done = await finished(database, guild.id)
        assert set(answered) <= done, "a result the bot confirmed is not stored"
        todo = {m: n for m, n in reports.items() if m not in done}
        last = kills == KILLS or not todo
        # The kill point: after 0 .. 3 REST calls a report (callback, follow-up, announcement).
        kill_after = None if last else rnd.randint(0, 3 * len(todo))
        async with ArbiterProcess(config, double) as bot:
            answered |= await one_run(bot, double, arbiter, todo, kill_after, len(reports))
        if last:
            break
        kills += 1

    assert kills == KILLS, f"the work was done after {kills} kills"
    assert all("Result:" in text for text in answered.values()), answered
    assert set(answered) <= await finished(database, guild.id) == set(reports)
    await check_once(database, guild, double, reports)


def result_messages(double: DiscordDouble, guild_id: int) -> list[Any]:
    """The result announcements in the guild's announcements channel."""
    channel = double.guilds[guild_id].channel("announcements")
    return [
        m
        for m in double.channel_messages(channel, posted_only=True)
        if m.content.startswith("Result (chess.com)")
    ]


async def check_once(
    path: Path, guild: Guild, double: DiscordDouble, reports: dict[int, int]
) -> None:
    """One import fact and audit row per match, one announcement row, sent, one message."""
    database = await Database.open(path)
    try:
        async with GuildStore(database, guild.id).read() as view:
            audit = await view.audit.recent(limit=1_000_000)
            imports = [e for e in audit if e.action == "match.import"]
            assert Counter(e.subject for e in imports) == {f"match:{m}": 1 for m in reports}
            rows = []
            for entry in imports:
                (posted,) = entry.details["outbox"]
                message = await view.outbox.get(posted["id"])
                assert message is not None and message.status == "sent", message
                rows.append(message)
            for match in reports:
                assert len(await view.matches.boards(match)) == 2
    finally:
        await database.close()
    messages = result_messages(double, guild.id)
    assert len(messages) == len(reports)  # none lost, none posted twice
    by_nonce = {(m.channel_id, m.nonce): m for m in messages}
    assert len(by_nonce) == len(messages)
    for row in rows:
        assert by_nonce[(row.channel_id, row.nonce)].id == row.message_id
    print(json.dumps({"reports": len(reports), "messages": len(messages), "rows": len(rows)}))
