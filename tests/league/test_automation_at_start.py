"""The at-start snapshot (issue 11 item 4) on a virtual clock with the bot restarted between
steps and the 127.0.0.1 fake chess.com: taken late when the bot was down over the start
(stored with the instant observed, announced as late with that instant), the CL-5, CL-6 and
CL-20 forfeits it causes announced once and shown by the league report; a chess.com timeout
stores nothing and retries later, when the snapshot is stored."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from bot.kernel.config import ChessComConfig, Config
from bot.league.matches import service as matches
from bot.league.store import load_season
from bot.runtime.clock import VirtualClock
from core.league import league_report
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import MatchRecord
from tests.support.automation_world import (
    CLUBS,
    GUILD,
    T0,
    AutomationWorld,
    admin,
    build_world,
    outbox,
    team_match,
)
from tests.support.chesscom_fake import FakeChessCom

FEW = 3  # players each club fields (a board counts for both clubs)


class QuickWorld(AutomationWorld):
    """The world with a chess.com client that gives up after 0.3 s (a hung request times out)."""

    def config(self) -> Config:
        config = super().config()
        chesscom = ChessComConfig(
            base_url=self.fake.base_url,
            contact="tests@example.org",
            max_retries=0,
            timeout_seconds=0.3,
        )
        return Config(database=config.database, chesscom=chesscom)


@pytest.fixture
async def world(database_location: Path | str, fake: FakeChessCom) -> AutomationWorld:
    built = await build_world(database_location, fake)
    return QuickWorld(built.location, fake, built.clubs, built.season)


def _profile(name: str, members: int, average: float) -> dict[str, Any]:
    url_id = CLUBS[name][0]
    return {
        "@id": f"https://api.chess.com/pub/club/{url_id}",
        "name": name,
        "members_count": members,
        "average_daily_rating": average,
        "admin": [],
    }


async def _accepted_romania_usa(world: AutomationWorld) -> MatchRecord:
    """Team Romania vs Team USA - Southwest, challenge 12803 issued and accepted in time."""
    async with world.bot(VirtualClock(T0)) as bot:
        m = await world.match(bot.database, "Team Romania", "Team USA - Southwest")
        store = GuildStore(bot.database, GUILD)
        await matches.record_challenge_issued(
            store, admin("Team Romania"), m.id, 12803, club=m.home_club_id
        )
        await matches.record_challenge_accepted(store, admin("Team USA - Southwest"), m.id)
    return m


async def _season_report(database: Database, world: AutomationWorld, now: dt.datetime) -> Any:
    async with GuildStore(database, GUILD).read() as view:
        record = await view.seasons.get(world.season)
        assert record is not None
        divisions = await view.seasons.divisions(record.id)
        season = await load_season(view, record)
    assert all(d.min_players > FEW for d in divisions)
    return league_report(season, now=now)


async def test_a_snapshot_taken_late_is_stored_as_observed_and_its_forfeits_announced_once(
    world: AutomationWorld, fake: FakeChessCom, fixtures_dir: Path
) -> None:
    """CL-5, CL-6, CL-20, CL-FF: the bot is down over the start of a match accepted in time;
    at the restart three hours later the snapshot reads Team Romania with 450 members (CL-5)
    and Team USA - Southwest with a daily average of 1800 (CL-6), both fielding 3 players
    (CL-20).
    It is stored with the restart's instant, the announcement says it was taken late (that
    instant as a Discord timestamp) and names the breaches, once (a second start-up at
    the same instant posts nothing), and the league report shows them."""
    m = await _accepted_romania_usa(world)
    fake.serve("club/team-romania", _profile("Team Romania", 450, 1500.0))
    fake.serve("club/team-usa-southwest", _profile("Team USA - Southwest", 120, 1800.0))
    running = team_match(fixtures_dir, status="in_progress")
    for team in ("team1", "team2"):
        players = running["teams"][team]["players"]
        running["teams"][team]["players"] = [
            p for p in players if p["board"].endswith(tuple(f"/{n}" for n in range(1, FEW + 1)))
        ]
    fake.serve("match/12803", running)
    observed = m.start + dt.timedelta(hours=3)
    async with world.bot(VirtualClock(observed)) as bot:
        rows = await outbox(bot.database)
        async with GuildStore(bot.database, GUILD).read() as view:
            facts = {f.club_id: f for f in await view.matches.at_start(m.id)}
        report = await _season_report(bot.database, world, observed)
    home, away = facts[m.home_club_id], facts[m.away_club_id]
    assert (home.members, home.avg_rating, home.players) == (450, 1500.0, FEW)
    assert (away.members, away.avg_rating, away.players) == (120, 1800.0, FEW)
    assert home.observed_at == away.observed_at == observed
    started = [t for _, t in rows if "**Team Romania** vs **Team USA - Southwest** started" in t]
    assert len(started) == 1
    text = started[0]
    assert f"read <t:{int(observed.timestamp())}:F>, late" in text
    assert f"the match started <t:{int(m.start.timestamp())}:F>; these are the facts" in text
    for breach in (
        "Team Romania (CL-5)",
        "Team Romania (CL-20)",
        "Team USA - Southwest (CL-6)",
        "Team USA - Southwest (CL-20)",
    ):
        assert breach in text
    assert {(b.club, b.rule) for b in report.forfeits if b.match == m.key} == {
        ("Team Romania", "CL-5"),
        ("Team Romania", "CL-20"),
        ("Team USA - Southwest", "CL-6"),
        ("Team USA - Southwest", "CL-20"),
    }
    async with world.bot(VirtualClock(observed)) as bot:
        assert await outbox(bot.database) == rows
    assert len([s for s in world.sends if "Team USA - Southwest** started" in s[1]]) == 1


async def test_a_chesscom_timeout_at_the_start_retries_later_and_stores_nothing_meanwhile(
    world: AutomationWorld, fake: FakeChessCom, fixtures_dir: Path
) -> None:
    """CL-5, CL-6, CL-20: at the start chess.com does not answer for Team Romania's profile
    (a timeout, not a 5xx): nothing is stored, nothing announced, no forfeit, and the job is
    pending at the next poll; then chess.com answers (Team Romania now over CL-5) and the
    next try stores the snapshot with that instant and its forfeit."""
    m = await _accepted_romania_usa(world)
    fake.serve("match/12803", team_match(fixtures_dir, status="in_progress"))
    fake.hang.add("club/team-romania")
    clock = VirtualClock(m.start - dt.timedelta(minutes=1))
    async with world.bot(clock) as bot:
        await clock.advance_to(m.start + dt.timedelta(minutes=1))
        async with GuildStore(bot.database, GUILD).read() as view:
            stored = await view.matches.at_start(m.id)
            retry = await view.jobs.pending("cl.at_start", f"match:{m.id}")
            audit = await view.audit.recent(1000)
        rows = await outbox(bot.database)
        report = await _season_report(bot.database, world, clock())
    assert fake.seen("club/team-romania") == []  # the request never got an answer
    assert stored == []
    assert retry is not None and retry.due_at == m.start + dt.timedelta(hours=1)
    retried = [a for a in audit if a.action == "job.retry"]
    assert [a.details.get("kind") for a in retried] == ["cl.at_start"]
    assert "no answer within 0.3 s" in str(retried[0].details)
    assert [t for _, t in rows if "started" in t and "Team Romania** vs" in t] == []
    assert [b for b in report.forfeits if b.match == m.key] == []

    fake.hang.discard("club/team-romania")
    fake.serve("club/team-romania", _profile("Team Romania", 450, 1500.0))
    clock = VirtualClock(clock())
    async with world.bot(clock) as bot:
        await clock.advance_to(m.start + dt.timedelta(hours=1, minutes=1))
        async with GuildStore(bot.database, GUILD).read() as view:
            stored = await view.matches.at_start(m.id)
            retry = await view.jobs.pending("cl.at_start", f"match:{m.id}")
        rows = await outbox(bot.database)
        report = await _season_report(bot.database, world, clock())
    later = m.start + dt.timedelta(hours=1)
    assert [(f.members, f.observed_at) for f in stored] == [(450, later), (120, later)]
    assert retry is None
    started = [t for _, t in rows if "**Team Romania** vs **Team USA - Southwest** started" in t]
    assert len(started) == 1 and f"read <t:{int(later.timestamp())}:F>, late" in started[0]
    assert "Team Romania (CL-5)" in started[0]
    assert {(b.club, b.rule) for b in report.forfeits if b.match == m.key} == {
        ("Team Romania", "CL-5")
    }
