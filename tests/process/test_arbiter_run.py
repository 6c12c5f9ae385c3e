"""`arbiter run` for real: the program users start, as a child process on a real config.toml
and database file, against the Discord double (tests/discord_double) and the chess.com
stand-in, both on 127.0.0.1, reached through configuration only (`ARBITER_DISCORD_API`).

One double, one chess.com and one bot process serve the whole module (the tests run in
order, each in a guild of its own): start-up to ready and `arbiter sync --guild`; a league
story over the gateway; a 429 storm and 5xx bursts on announcements; a gateway close, a
RECONNECT and an invalid session in the middle of a story; kill -9 during concurrent result
reports, restarting on the same files; SIGTERM last (of the last process started).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import random
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from bot.app.arbiter import arbiter_intents
from bot.formats.season_file import load_season
from bot.league.store import import_season
from bot.offline.chesscom_standin import ChessComStandIn
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.jobs import running_jobs
from storage.shared.outbox import pending_messages
from storage.shared.ownership import OwnerLock
from tests.discord_double import DiscordDouble
from tests.discord_double.ratelimits import Fault
from tests.discord_double.world import Guild, Member
from tests.support.arbiter_process import ArbiterProcess, tree_payload, write_config
from tests.support.paths import ROOT
from tests.support.report_season import (
    check_once,
    chesscom_match,
    drained,
    finished,
    result_messages,
    seed,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

PAYLOADS = ROOT / "tests" / "scripts" / "payloads"
CLUBS = {
    "arsenal-fans": ("Arsenal Fans", "ann", "bob"),
    "chelsea-fans": ("Chelsea Fans", "cat", "dan"),
    "everton-fans": ("Everton Fans", "eve", "fay"),
    "fulham-fans": ("Fulham Fans", "gus", "hal"),
}
"""chess.com club → its name and its two admins (CL-2..4)."""
ROLES = ("HQ", "Directors", "Arbiters")
CHANNELS = ("general", "announcements", "directors")
MESSAGES = "POST /channels/{channel_id}/messages"
SOAK = os.environ.get("ARBITER_SOAK") == "1"
KILLS = 20 if SOAK else 2
REPORTS = 200 if SOAK else 6
STEP = 30.0
"""Seconds any one wait of the kill -9 test may take before it fails."""


@dataclass
class League:
    """A guild of the double with the cast of the stories."""

    guild: Guild
    members: dict[str, Member] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Member:
        return self.members[name]

    @property
    def announcements(self) -> Any:
        """The league's announcements channel."""
        return self.guild.channel("announcements")


@dataclass
class Running:
    """The module's double, chess.com, bot process, files, and the sync that ran."""

    double: DiscordDouble
    chesscom: ChessComStandIn
    bot: ArbiterProcess
    sync: ArbiterProcess
    expected_tree: list[dict[str, Any]]
    folder: Path
    config: Path
    story: League
    spawned: list[ArbiterProcess] = field(default_factory=list)

    @property
    def database(self) -> Path:
        """The bot's database file."""
        return self.folder / "arbiter.db"

    async def restart(self, timeout: float = 30.0) -> ArbiterProcess:
        """A new `arbiter run` on the same files (the previous one must have exited), once
        it has identified."""
        assert not self.bot.running
        identified = len(self.double.gateway.identifies)
        self.bot = ArbiterProcess(self.config, self.double)
        self.spawned.append(self.bot)
        await self.bot.start()
        gateway = self.double.gateway
        await self.double.wait_for(
            lambda: len(gateway.identifies) > identified, timeout, "IDENTIFY"
        )
        return self.bot


def add_league(double: DiscordDouble, name: str, source: Guild | None = None) -> League:
    """A guild with the roles, channels and members of the stories; with `source`, the
    commands published there are published here too (a second `arbiter sync --guild`)."""
    guild = double.add_guild(name, roles=ROLES, channels=CHANNELS)
    league = League(guild)
    league.members["hq"] = double.add_member(guild, "hq", roles=("HQ",), manager=True)
    league.members["arbi"] = double.add_member(guild, "arbi", roles=("Arbiters",))
    for who in ("dora", "dmitri", "diane"):
        league.members[who] = double.add_member(guild, who, roles=("Directors",))
    for _, first, second in CLUBS.values():
        for who in (first, second):
            league.members[who] = double.add_member(guild, who)
    league.members["zed"] = double.add_member(guild, "zed")
    if source is not None:
        double.commands[guild.id] = [
            c | {"guild_id": str(guild.id)} for c in double.commands[source.id]
        ]
    return league


def serve_chesscom(chesscom: ChessComStandIn) -> None:
    """The clubs of the stories and a finished match (7000001, Arsenal v Fulham)."""
    for club in CLUBS:
        chesscom.serve_bytes(f"club/{club}", (PAYLOADS / f"club-{club}.json").read_bytes())
        chesscom.serve(
            f"club/{club}/matches", {"finished": [], "in_progress": [], "registered": []}
        )
    chesscom.serve_bytes("match/7000001", (PAYLOADS / "match-7000001-finished.json").read_bytes())


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def running(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Running]:
    """The double and chess.com started with the story's guild; `arbiter run` started and
    `arbiter sync --guild` run beside it; every shard identified."""
    folder = tmp_path_factory.mktemp("arbiter-run")
    double = DiscordDouble(heartbeat_interval_ms=1000)
    await double.start()
    chesscom = ChessComStandIn()
    await chesscom.start()
    serve_chesscom(chesscom)
    story = add_league(double, "CL League")
    config = write_config(folder, chesscom.base_url, "[web]\nport = 0\n")  # any free port
    bot = ArbiterProcess(config, double)
    sync = ArbiterProcess(config, double, "sync", "--guild", str(story.guild.id))
    spawned = [bot, sync]
    try:
        async with bot, sync:  # both start now
            await double.wait_ready(timeout=30)
            assert await sync.wait() == 0, sync.log()
            # Built once the bot has identified: a thread busy in this process would delay
            # the double's reading of that IDENTIFY, and so skew its session start limit.
            expected = await asyncio.to_thread(tree_payload)
            yield Running(double, chesscom, bot, sync, expected, folder, config, story, spawned)
    finally:
        for process in spawned:  # restarted ones too
            await process.kill()
        await double.stop()
        await chesscom.stop()


async def say(double: DiscordDouble, member: Member, path: str, **options: Any) -> Any:
    """Invoke `/path` as `member` and return the reply with its content."""
    return await (await double.command(member, path, **options)).answer()


def posted(double: DiscordDouble, league: League) -> list[str]:
    """The texts of the messages the bot posted to the announcements channel, in order."""
    return [m.content for m in double.channel_messages(league.announcements, posted_only=True)]


async def test_start_up_to_ready_and_sync_publishes_the_tree(running: Running) -> None:
    double, guild, expected = running.double, running.story.guild, running.expected_tree
    assert f"synced {len(expected)} command(s) to guild {guild.id}" in running.sync.log()
    log = running.spawned[0].log()
    assert "\x1b[" not in log  # a pipe, not a terminal: no colour codes
    assert re.search(r"database \S+ (migrated to|at schema) version \d+", log)
    assert f"{len(expected)} slash command(s) in the tree" in log
    assert "loaded cogs" not in log  # an internal, at DEBUG
    ((synced_guild, sent),) = double.syncs
    assert synced_guild == guild.id
    assert json.loads(json.dumps(sent)) == json.loads(json.dumps(expected))
    assert [c["name"] for c in double.commands[guild.id]] == [c["name"] for c in expected]

    (connection,) = double.gateway.connections
    session = connection.session
    assert session is not None and connection.path == "/gateway"  # the URL /gateway/bot gave
    assert connection.compress  # discord.py asked for zlib-stream
    assert session.intents == arbiter_intents().value  # Server Members included (CL-23)
    assert connection.heartbeats >= 1
    assert double.rest.unanswered == []
    routes = {c.route for c in double.rest.calls}
    assert routes >= {"/users/@me", "/oauth2/applications/@me", "/gateway/bot"}


async def register_and_approve(double: DiscordDouble, league: League, clubs: list[str]) -> None:
    """Each club registered by its first admin (pending), then approved by HQ."""
    for club in clubs:
        name, first, second = CLUBS[club]
        reply = await say(
            double, league[first], "club register", chesscom_club=club, admin2=league[second]
        )
        assert reply.ephemeral and "pending until the league HQ decides" in reply.text()
        reply = await say(double, league["hq"], "club approve", club=name)
        assert "approved" in reply.text(), reply.text()


async def set_up(double: DiscordDouble, league: League) -> None:
    """`/setup set` the roles and channels."""
    guild = league.guild
    reply = await say(
        double,
        league["hq"],
        "setup set",
        hq_role=guild.role("HQ"),
        director_role=guild.role("Directors"),
        arbiter_role=guild.role("Arbiters"),
        announcements=guild.channel("announcements"),
        directors_channel=guild.channel("directors"),
    )
    assert reply.ephemeral and "saved" in reply.text()


def first_round() -> str:
    """A Tuesday at least two weeks ahead, so no challenge deadline is due yet."""
    day = dt.date.today() + dt.timedelta(days=14)
    return (day + dt.timedelta(days=(1 - day.weekday()) % 7)).isoformat()


async def test_a_league_story_over_the_gateway(running: Running) -> None:
    double, league = running.double, running.story
    await set_up(double, league)
    await register_and_approve(double, league, list(CLUBS))
    hq = league["hq"]
    reply = await say(double, hq, "season create", name="CL 2027", first_round=first_round())
    assert "Season **CL 2027** created" in reply.text()
    for name, _, _ in CLUBS.values():
        await say(
            double, hq, "season club-add", season="CL 2027", division="Premier Division", club=name
        )
    preview = await say(double, hq, "season schedule", season="CL 2027")
    assert "Nothing is stored until you confirm" in preview.text()
    shown = double.messages[preview.message_id]
    refused = await (await double.click(league["zed"], shown, "Confirm")).answer()
    assert refused.ephemeral and "Only the member who asked" in refused.text()
    confirmed = await (await double.click(hq, shown, "Confirm")).answer()
    assert "6 matches stored" in confirmed.text()

    ann, gus = league["ann"], league["gus"]
    matches = await say(double, ann, "match list", season="CL 2027", mine=True)
    assert "Arsenal Fans" in matches.text()
    match_id = next(
        int(line.split("`#")[1].split("`")[0])
        for line in matches.text().splitlines()
        if "#" in line and "Fulham Fans" in line
    )
    reply = await say(double, ann, "match challenge", match=match_id, chesscom_match="7000001")
    assert f"Challenge of match #{match_id} (Arsenal Fans – Fulham Fans) recorded" in reply.text()
    reply = await say(double, gus, "match accept", match=match_id)
    assert "accepted" in reply.text()
    # CL-14: no result before the start — the report waits for last week's match, of a
    # season held in the database beside the bot (as `arbiter season import` would write).
    early = await double.command(ann, "match report", match=match_id)
    deferred, private = await early.replies_at_least(2)  # deferred privately, then refused
    assert deferred.type == 5
    assert private.ephemeral and "no result before its start" in private.text(), private.text()
    assert all(r.ephemeral for r in early.replies[1:]), [r.text() for r in early.replies]
    match_id = await _last_weeks_match(running)
    sent = await double.command(ann, "match report", match=match_id, chesscom_match="7000002")
    assert (await sent.response()).type == 5  # deferred (privately): chess.com may be slow
    reply = await sent.answer()
    assert reply.ephemeral and "result imported" in reply.text(), reply.text()
    # the result itself is posted for everyone, as a new message after the private answer
    await double.wait_for(
        lambda: any("Result: Arsenal Fans 2 – 2 Fulham Fans" in r.text() for r in sent.replies),
        STEP,
        "the public result",
    )
    [result] = [r for r in sent.replies if "Result: Arsenal Fans" in r.text()]
    assert not result.ephemeral
    image = await say(
        double,
        league["zed"],
        "standings",
        season="CL 2027",
        division="Premier Division",
        format="image",
    )
    (png,) = image.uploads.values()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and image.files == [
        "standings-cl-2027-premier-division.png"
    ]

    expected = []
    for name, first, second in CLUBS.values():
        ids = ", ".join(f"<@{league[who].id}>" for who in (first, second))
        club = next(c for c, (n, _, _) in CLUBS.items() if n == name)
        expected += [
            f"New club registration: **{name}** (https://www.chess.com/club/{club}),"
            f" admins {ids}. Pending until league HQ decides.",
            f"Club **{name}** is now **approved**.",
        ]
    expected += [
        "Season **CL 2027** is scheduled: 6 matches; the first round starts <t:",
        "Result (chess.com): **Arsenal Fans** 2 – 2 **Fulham Fans**.",
    ]
    count = len(expected)
    await double.wait_for(lambda: len(posted(double, league)) >= count, what="the announcements")
    texts = posted(double, league)
    assert len(texts) == count  # each once, in the order of the changes
    assert texts[:8] + texts[9:] == expected[:8] + expected[9:]
    assert texts[8].startswith(expected[8])
    assert all(len(i.replies) >= 1 for i in double.interactions.values())
    assert double.rest.unanswered == []


async def _last_weeks_match(running: Running) -> int:
    """Arsenal Fans – Fulham Fans, started a week ago with its challenge accepted in time, in
    season "CL 2026" of the story's guild; chess.com's match 7000002 finished after it."""
    start = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(weeks=1)

    def at(instant: dt.datetime) -> str:
        return instant.isoformat().replace("+00:00", "Z")

    data = {
        "name": "CL 2026",
        "divisions": [
            {"name": "Premier", "min_players": 1, "clubs": ["Arsenal Fans", "Fulham Fans"]}
        ],
        "matches": [
            {
                "id": "P-1-1",
                "division": "Premier",
                "round": 1,
                "home": "Arsenal Fans",
                "away": "Fulham Fans",
                "start": at(start),
                "challenge": {
                    "issued_by": "Arsenal Fans",
                    "issued": at(start - dt.timedelta(days=7)),
                    "accepted": at(start - dt.timedelta(days=6)),
                },
            }
        ],
    }
    running.chesscom.serve_bytes(
        "match/7000002",
        chesscom_match(7000002, "arsenal-fans", "fulham-fans", start + dt.timedelta(hours=2)),
    )
    database = await Database.open(running.database)
    try:
        store = GuildStore(database, running.story.guild.id)
        async with store.change(None, "test.import", "season") as uow:
            record = await import_season(uow, load_season(data))
            [match] = await uow.matches.of_season(record.id)
    finally:
        await database.close()
    return match.id


def responses(double: DiscordDouble, league: League) -> list[int]:
    """How many callbacks each interaction of the league's guild got."""
    return [
        sum(1 for r in i.replies if r.kind == "response")
        for i in double.interactions.values()
        if i.guild_id == league.guild.id
    ]


def storm_faults(league: League, kind: str) -> list[Fault]:
    """The failures of the next sends to a league's announcements: a 429 storm (route,
    twice, then global) and a 503 whose message was made but whose answer was lost; or a
    500 (discord.py itself retries a 500, a second later)."""
    channel = f"channel_id={league.announcements.id}"
    if kind == "429":
        return [
            Fault(429, "POST", MESSAGES, channel, times=2, retry_after=0.05),
            Fault(429, "POST", MESSAGES, channel, retry_after=0.05, scope="global"),
            Fault(503, "POST", MESSAGES, channel, after=True),  # the outbox waits, resends
        ]
    return [Fault(500, "POST", MESSAGES, channel)]


async def test_the_public_site_is_served_beside_the_bot(running: Running) -> None:
    """With `[web]` configured, `arbiter run` serves the site on the bot's database: a guild
    shows on it from the moment its HQ runs `/setup web`."""
    double = running.double
    line = await running.bot.wait_line("web site at ")
    address = line.rsplit(" ", 1)[1]
    league = add_league(double, "Web League", source=running.story.guild)
    await set_up(double, league)
    async with aiohttp.ClientSession() as session:
        async with session.get(address) as front:
            assert front.status == 200
            assert "/g/web-league/" not in await front.text()
        async with session.get(f"{address}g/web-league/") as hidden:
            assert hidden.status == 404
        reply = await say(double, league["hq"], "setup web", slug="web-league")
        assert reply.ephemeral and "/g/web-league/" in reply.text(), reply.text()
        async with session.get(f"{address}g/web-league/") as home:
            assert home.status == 200
            assert home.headers["X-Content-Type-Options"] == "nosniff"
        async with session.post(address) as post:
            assert post.status == 405


async def test_a_429_storm_and_5xx_bursts_deliver_every_announcement_once_in_order(
    running: Running,
) -> None:
    double = running.double
    limiter = double.rest.limiter
    stormy = add_league(double, "Storm League", source=running.story.guild)
    burst = add_league(double, "Burst League", source=running.story.guild)
    await asyncio.gather(set_up(double, stormy), set_up(double, burst))
    faults = {
        stormy.guild.id: storm_faults(stormy, "429"),
        burst.guild.id: storm_faults(burst, "5xx"),
    }
    for scripted in faults.values():
        for fault in scripted:
            limiter.fault(fault)
    limiter.limit(MESSAGES, 2, 0.25)  # and the bot must wait whenever the headers say 0 left
    count = 2 * len(CLUBS)
    try:
        await asyncio.gather(  # both leagues at once: their waits overlap
            register_and_approve(double, stormy, list(CLUBS)),
            register_and_approve(double, burst, list(CLUBS)),
        )
        await double.wait_for(
            lambda: all(len(posted(double, league)) >= count for league in (stormy, burst)),
            timeout=20,
            what="every announcement",
        )
    finally:
        limiter.limits.pop(MESSAGES)
    for league in (stormy, burst):
        assert [f.times for f in faults[league.guild.id]] == [0] * len(faults[league.guild.id])
        messages = double.channel_messages(league.announcements, posted_only=True)
        nonces = [int(str(m.nonce).removeprefix("outbox-")) for m in messages]
        assert len(messages) == count and len(set(nonces)) == count  # none lost, none twice
        assert [m.content for m in messages if m.content.startswith("Club")] == [
            f"Club **{name}** is now **approved**." for name, _, _ in CLUBS.values()
        ]
        assert nonces == sorted(nonces)  # in the order they were queued
        channel = f"channel_id={league.announcements.id}"
        assert [entry for entry in limiter.limited if entry[1] == channel] == []  # obeyed
        assert responses(double, league) == [1] * len(responses(double, league))
    assert len(double.repeated_nonces) == 1  # the lost answer's resend got the message made


async def test_a_gateway_close_a_reconnect_and_an_invalid_session_lose_and_double_nothing(
    running: Running,
) -> None:
    double = running.double
    gateway = double.gateway
    league = add_league(double, "Resume League", source=running.story.guild)
    await set_up(double, league)
    first = gateway.connected(0)
    assert first is not None and first.session is not None
    session = first.session

    # The socket drops: an interaction made meanwhile waits in the session, replayed on RESUME.
    await gateway.close(0, 4000)
    name, admin, second = CLUBS["arsenal-fans"]
    waiting = await double.command(
        league[admin], "club register", chesscom_club="arsenal-fans", admin2=league[second]
    )
    assert "pending until the league HQ decides" in (await waiting.answer()).text()
    assert session.resumes == 1 and gateway.connected(0) is not None
    assert gateway.connections[-1].path == "/resume"  # READY's resume_gateway_url

    # Op 7 RECONNECT: the bot closes, dials the resume URL and resumes the same session.
    await gateway.reconnect(0)
    approved = await double.command(league["hq"], "club approve", club=name)
    assert "approved" in (await approved.answer()).text()
    await double.wait_for(lambda: session.resumes == 2, what="a second RESUME")

    # Op 9, not resumable: a new IDENTIFY at the address GET /gateway/bot gave (discord.py's
    # DEFAULT_GATEWAY, which the bot set from it; Discord's own would be dialled otherwise).
    identified = len(gateway.identifies)
    await gateway.invalidate(0)
    await double.wait_for(
        lambda: len(gateway.identifies) == identified + 1 and gateway.connected(0) is not None,
        timeout=15,  # IDENTIFY waits for the session start limit (1 per 5 s)
        what="a new IDENTIFY",
    )
    fresh = gateway.connected(0)
    assert fresh is not None and fresh.session is not session and fresh.path == "/gateway"
    assert gateway.refused_identifies == 0  # the bot waited as long as the limit needs
    await register_and_approve(double, league, ["chelsea-fans"])

    assert responses(double, league) == [1] * len(responses(double, league))
    texts = [
        "Club **Arsenal Fans** is now **approved**.",
        "Club **Chelsea Fans** is now **approved**.",
    ]
    await double.wait_for(lambda: len(posted(double, league)) == 4, what="four announcements")
    assert [t for t in posted(double, league) if t.startswith("Club")] == texts
    assert len([t for t in posted(double, league) if t.startswith("New club")]) == 2
    assert double.rest.unanswered == []


async def one_run(
    running: Running, arbiter: Member, todo: dict[int, int], kill_after: int | None, total: int
) -> dict[int, str]:
    """With the bot identified, send every report in `todo` at once; SIGKILL it after
    `kill_after` of its REST calls, or (None) let it answer them all, announce all `total`
    results and mark them sent. Returns the reports it answered: match → what the member saw."""
    double = running.double
    before = len(double.rest.calls)
    sent = {
        match: await double.command(arbiter, "match report", match=match, chesscom_match=str(n))
        for match, n in todo.items()
    }
    if kill_after is None:
        for report in sent.values():
            await report.answer(STEP)
        await double.wait_for(
            lambda: len(result_messages(double, arbiter.guild_id)) >= total, STEP, "results"
        )
        await drained(running.database, STEP)
    else:
        await double.wait_for(
            lambda: (
                len(double.rest.calls) >= before + kill_after
                or all(s.replies[1:] for s in sent.values())
            ),
            STEP,
            f"{kill_after} REST calls",
        )
        await running.bot.kill()  # SIGKILL: no clean-up of any kind
    answered = {}
    for match, report in sent.items():
        answers = [r for r in report.replies if r.kind == "followup"]
        if answers:  # the private "result imported", then (unless killed) the public result
            answered[match] = " / ".join(answer.text() for answer in answers)
    return answered


async def test_kill_9_during_concurrent_reports_loses_and_doubles_nothing(
    running: Running,
) -> None:
    # An arbiter reports a season's matches all at once; the bot is SIGKILLed after a random
    # number of its REST calls and restarted on the same file; what the database does not
    # show as finished is reported again (as a member who got no answer would). At the end
    # every result is stored, audited, announced and posted once, and every answered report
    # is stored. ARBITER_SOAK=1: 20 kills during 200 reports; ARBITER_SEED: the kill points.
    double, chesscom = running.double, running.chesscom
    league = add_league(double, "Kill League", source=running.story.guild)
    divisions, clubs = (3, 13) if SOAK else (1, 4)
    reports, pairs = await seed(
        running.database, league.guild, divisions=divisions, clubs=clubs, reports=REPORTS
    )
    for number, (home, away) in pairs.items():
        chesscom.serve_bytes(f"match/{number}", chesscom_match(number, home, away))
    rnd = random.Random(os.environ.get("ARBITER_SEED", "24"))
    double.identify_window = 0.0  # each restart is a new process, identifying at once
    answered: dict[int, str] = {}
    kills = 0
    try:
        while True:
            if not running.bot.running:
                await running.restart()
            done = await finished(running.database, league.guild.id)
            assert set(answered) <= done, "a result the bot confirmed is not stored"
            todo = {m: n for m, n in reports.items() if m not in done}
            last = kills == KILLS or not todo
            # The kill point: after 0 .. len(todo) of the bot's REST calls, i.e. within the
            # first third of the batch (a report makes four: callback, two follow-ups, post).
            kill_after = None if last else rnd.randint(0, len(todo))
            answered |= await one_run(running, league["arbi"], todo, kill_after, len(reports))
            if last:
                break
            kills += 1
    finally:
        double.identify_window = 5.0
    assert kills == KILLS, f"the reports were all done after {kills} kills"
    assert all("result imported" in text for text in answered.values()), answered
    assert set(answered) <= await finished(running.database, league.guild.id) == set(reports)
    await check_once(running.database, league.guild.id, double, set(reports))


async def test_sigterm_stops_cleanly_within_10_seconds(running: Running) -> None:
    double, bot = running.double, running.bot
    connection = double.gateway.connected(0)
    assert connection is not None and bot.running
    # The first `arbiter run`'s on_ready, 2 s (discord.py's guild_ready_timeout) after its
    # last GUILD_CREATE of the start (the story's guild, and any the bot joined meanwhile).
    assert re.search(r"ready: \d guild\(s\) on 1 shard\(s\)", running.spawned[0].log())
    site = (await bot.wait_line("web site at ")).rsplit(" ", 1)[1]
    code, seconds = await bot.terminate(timeout=10)
    assert code == 0, bot.log()[-3000:]
    with pytest.raises(aiohttp.ClientConnectionError):  # the site stopped with the bot
        async with aiohttp.ClientSession() as session, session.get(site):
            pass
    assert seconds < 10
    assert connection.client_close_code == 1000  # the bot closed its gateway connection
    assert (
        "stopped: scheduler, outbox and gateway closed, database closed and released" in bot.log()
    )
    assert "Traceback" not in bot.log()
    database = running.folder / "arbiter.db"
    assert not database.with_name("arbiter.db-wal").exists()  # SQLite's clean close
    OwnerLock.acquire(database).release()
    opened = await Database.open(database)
    try:
        # A message Discord accepted but not yet marked sent at the stop stays pending, to be
        # sent again under its nonce (Discord answers with the message it made): none lost.
        for message in await pending_messages(opened):
            assert (message.channel_id, message.nonce) in double.nonces, message
        assert await running_jobs(opened) == []
    finally:
        await opened.close()
