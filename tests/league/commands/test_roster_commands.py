"""/roster through the real tree on the 127.0.0.1 fake chess.com: link (own, and an admin's
for another member), check (CL-18 multi-team, CL-19 closed, CL-21 timeouts above the
season's limit), remove (recorded, verified or put to the directors as a forfeit motion,
CL-21) and removals, with autocomplete for club and player."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.arbiter import ArbiterBot
from bot.chesscom.models import PlayerStats
from bot.kernel.config import ChessComConfig, Config, DatabaseConfig
from bot.kernel.errors import UserError
from bot.league.rosters.check import check_roster
from bot.league.store import StandingsCache
from bot.runtime.clock import VirtualClock
from bot.runtime.polite_http import ApiError
from bot.runtime.scheduler import Scheduler
from storage.engine.database import Database
from storage.guild import GuildStore, on_commit
from tests.support.chesscom_fake import FakeChessCom
from tests.support.cl_seasons import match, season, unplayed
from tests.support.command_world import dump
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness
from tests.support.motion_world import START, club_admin, directors, import_test_season, set_up

SEASON = season(
    [
        match("1", "A", "B", [("m1", "b1", 2), ("a2", "b2", 1)], round=1),
        match("2", "C", "D", [("m1", "d1", 1)], round=1),
        match("3", "A", "C", [("a1", "c1", 2), ("slowpoke", "c2", 0)], round=2),
        match("4", "B", "D", [("b1", "m1", 0)], round=2),
        unplayed("5", "A", "D", [], round=3, start=dt.datetime(2026, 4, 1, 18, tzinfo=dt.UTC)),
    ],
    closed_accounts=["a2"],
)
"""m1 plays for A, then C and D: a multi-team player (CL-18); a2's account is closed (CL-19)."""


@pytest.fixture
def fake(fake: FakeChessCom) -> FakeChessCom:
    """The shared chess.com fake, also serving two players' daily timeout ratios."""
    fake.serve("player/slowpoke/stats", {"chess_daily": {"record": {"timeout_percent": 30.5}}})
    fake.serve("player/a1/stats", {"chess_daily": {"record": {"timeout_percent": 25}}})
    return fake


@pytest.fixture
async def bot(tmp_path: Path, fake: FakeChessCom) -> AsyncIterator[ArbiterBot]:
    """A bot on the virtual clock's database whose chess.com is the fake."""
    path = tmp_path / "bot.db"
    clock = VirtualClock(START)
    database = await Database.open(path, clock=clock)
    config = Config(
        database=DatabaseConfig(path=path),
        chesscom=ChessComConfig(base_url=fake.base_url, contact="tests@example.org", max_retries=0),
    )
    bot = ArbiterBot(config, database=database)
    async with bot:
        await bot.setup_hook()
        assert bot.scheduler is not None
        await bot.scheduler.shutdown()  # motions' closing jobs wait on the virtual clock
        bot.scheduler = Scheduler(bot.database, bot.jobs, timer=clock)
        on_commit(database, bot.scheduler.on_commit)
        await import_test_season(bot.database, SEASON)
        yield bot


async def test_link_own_account_and_an_admin_links_another_member(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)
    player, other = harness.member(), harness.member()
    reply = (await harness.command("roster link", user=player, chesscom_username="erik")).reply
    assert reply.ephemeral and "**erik**" in (reply.content or "")
    before = dump(bot.database.path)
    # The command's own `user` option (the harness's `user=` is the caller).
    payload = harness.command_payload(
        "roster link", player, {"chesscom_username": "carol", "user": other}
    )
    refused = await harness.run(payload)
    assert refused.reply.ephemeral and "club admin" in (refused.reply.content or "")
    assert dump(bot.database.path) == before
    admin = await club_admin(bot, harness, "A")
    payload = harness.command_payload(
        "roster link", admin, {"chesscom_username": "carol", "user": other}
    )
    linked = await harness.run(payload)
    assert f"<@{other.id}>" in (linked.reply.content or "")
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
        found = await view.rosters.user_of("carol")
    assert found is not None and found.user_id == other.id


async def test_check_lists_multi_team_closed_and_timeouts_above_the_limit(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)
    player = harness.member()
    clubs = await harness.autocomplete("roster check", user=player, focused="club", club="a")
    assert clubs[0]["value"] == "A"
    outcome = await harness.command("roster check", user=player, club="A")
    assert outcome.replies[0].type == 5  # deferred before chess.com is read
    text = outcome.replies[-1].text()
    assert "4 players fielded" in text  # m1, a2, a1, slowpoke
    multi, rest = text.split("Multi-team players (CL-18):**")[1].split("Closed accounts")
    assert "**m1**: home club A, 2 matches for others" in multi
    closed, timeouts = rest.split("Timeout ratio above 25 % (CL-21):**")
    assert "**a2**" in closed and "m1" not in closed
    assert "**slowpoke**: 30.5 %" in timeouts and "a1:" not in timeouts  # 25 % is not above
    assert "Not read from chess.com: a2, m1" in timeouts


async def test_remove_other_reason_opens_a_forfeit_motion_and_removals_lists_it(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)
    directors(harness, 3)
    admin = await club_admin(bot, harness, "A")
    players = await harness.autocomplete(
        "roster remove", user=admin, focused="player", club="A", player="s"
    )
    assert players[0]["value"] == "slowpoke"
    outcome = await harness.command(
        "roster remove", user=admin, club="A", player="a1", reason="other", note="left"
    )
    text = outcome.replies[-1].content or ""
    assert "Removal of **a1** from **A** recorded (other)." in text
    assert "Not verified" in text and "Motion #" in text
    verified = await harness.command(
        "roster remove", user=admin, club="A", player="slowpoke", reason="timeouts"
    )
    assert "Verified: A removed slowpoke: timeout ratio 30.5 %" in (
        verified.replies[-1].content or ""
    )
    listed = (await harness.command("roster removals", user=harness.member(), club="A")).reply
    assert "**a1** · other · motion" in listed.text()
    assert "**slowpoke** · timeouts · verified" in listed.text()


async def test_remove_is_refused_to_another_clubs_admin_and_writes_nothing(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    await set_up(harness)
    admin_b = await club_admin(bot, harness, "B")
    before = dump(bot.database.path)
    refused = await harness.command(
        "roster remove", user=admin_b, club="A", player="a1", reason="multi-team"
    )
    assert refused.reply.ephemeral and "**club admin** of **A**" in (refused.reply.content or "")
    assert dump(bot.database.path) == before


class _Stats:
    """Timeout ratios by player; anyone else is unknown to chess.com."""

    def __init__(self, percents: dict[str, float]) -> None:
        self.percents = percents

    async def player_stats(self, username: str) -> PlayerStats:
        if username not in self.percents:
            raise ApiError("not found", username)
        record = {"timeout_percent": self.percents[username]}
        return PlayerStats.model_validate({"chess_daily": {"record": record}})


async def test_the_roster_check_is_one_read_use_case(tmp_path: Path) -> None:
    """CL-18, CL-19, CL-21: `check_roster` gives the players fielded, the multi-team and
    closed-account ones and the timeout ratios above the limit; an unknown club is refused
    before `ready`."""
    database = await Database.open(tmp_path / "check.db", clock=VirtualClock(START))
    try:
        await database.migrate()
        await import_test_season(database, SEASON)
        store = GuildStore(database, DEFAULT_GUILD_ID)
        calls: list[str] = []

        async def ready() -> None:
            calls.append("ready")

        stats = _Stats({"slowpoke": 30.5, "a1": 25, "m1": 10})
        with pytest.raises(UserError):
            await check_roster(store, StandingsCache(), stats, "Nobody", None, ready)
        assert calls == []
        found = await check_roster(store, StandingsCache(), stats, "a", None, ready)
        assert calls == ["ready"]
        assert (found.club, sorted(found.players)) == ("A", ["a1", "a2", "m1", "slowpoke"])
        assert [(p.player, p.home_club, p.other_matches) for p in found.multi_team] == [
            ("m1", "A", 2)
        ]
        assert found.closed == ("a2",) and found.timeout_limit == 25
        assert [(a.player, a.percent) for a in found.above] == [("slowpoke", 30.5)]
        assert found.unknown == ("a2",)
    finally:
        await database.close()
