"""Polling the clubs' chess.com match lists (issue 11 item 5), on a virtual clock with the bot
restarted between steps and the 127.0.0.1 fake chess.com: a match against the fixture's
opponent seen in registration counts as issued and accepted at the instant first seen
("seen on chess.com"), silences the later reminders and passes the CL-15 deadline; a match
against another club is ignored; a match seen in both clubs' lists and on later polls is
recorded once."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from bot.league.matches.jobs import deadline_of, poll_lead
from bot.league.matches.lines import match_line
from bot.league.store import load_season
from bot.runtime.clock import VirtualClock
from core.league import league_report
from core.league.season import SeasonRules
from storage.guild import GuildStore
from tests.support.automation_world import GUILD, T0, AutomationWorld, build_world, outbox
from tests.support.chesscom_fake import FakeChessCom

NOTICE = 120
API = "https://api.chess.com/pub"
SEEN = 873060  # the fixture's chess.com match (home club created it)
OTHER = 777  # Team Romania against Club C: not this fixture's opponent


@pytest.fixture
async def world(database_location: Path | str, fake: FakeChessCom) -> AutomationWorld:
    return await build_world(database_location, fake)


def _registration(fixtures_dir: Path, match_id: int, team1: str, team2: str) -> dict[str, Any]:
    """The recorded match in registration, re-pointed at two of the world's clubs."""
    path = fixtures_dir / "chesscom" / "team_match_daily_registration_873060_EXCERPT.json"
    payload: dict[str, Any] = json.loads(path.read_text())
    payload["@id"] = f"{API}/match/{match_id}"
    payload["teams"]["team1"]["@id"] = f"{API}/club/{team1}"
    payload["teams"]["team2"] = {
        "@id": f"{API}/club/{team2}",
        "name": team2,
        "url": f"https://www.chess.com/club/{team2}",
        "score": 0,
        "players": [],
    }
    return payload


def _listed(match_id: int, opponent: str) -> dict[str, Any]:
    return {
        "name": "Spring",
        "@id": f"{API}/match/{match_id}",
        "opponent": f"{API}/club/{opponent}",
        "start_time": 1900000000,
        "time_class": "daily",
    }


async def test_a_match_seen_in_registration_counts_as_issued_and_accepted_when_first_seen(
    world: AutomationWorld, fake: FakeChessCom, fixtures_dir: Path
) -> None:
    """CL-15: Team Romania vs Team USA - Southwest (round 2). Polls before the match appears
    record nothing; after a restart the poll at 22:00 sees it in registration in both clubs'
    lists (Team Romania's lists a match against Club C first, which is ignored): issued by
    its creator and accepted at 22:00, source chess.com, recorded once; `/match show` says
    it was seen on chess.com; neither reminder mentions the match and the deadline judges it
    started on time (no forfeit, none in the league report)."""
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        m = await world.match(bot.database, "Team Romania", "Team USA - Southwest")
        deadline = deadline_of(m.start, NOTICE)
        first_poll = deadline - poll_lead(SeasonRules())
        await clock.advance_to(first_poll + dt.timedelta(hours=2, minutes=30))
        async with GuildStore(bot.database, GUILD).read() as view:
            record = await view.matches.get(m.id)
        assert record is not None and record.challenge is None
    assert len(fake.seen("club/team-romania/matches")) >= 3

    fake.serve(
        "club/team-romania/matches",
        {
            "finished": [],
            "in_progress": [],
            "registered": [
                _listed(OTHER, "club-c"),
                _listed(SEEN, "team-usa-southwest"),
            ],
        },
    )
    fake.serve(
        "club/team-usa-southwest/matches",
        {"finished": [], "in_progress": [], "registered": [_listed(SEEN, "team-romania")]},
    )
    fake.serve(
        f"match/{SEEN}", _registration(fixtures_dir, SEEN, "team-romania", "team-usa-southwest")
    )
    fake.serve(f"match/{OTHER}", _registration(fixtures_dir, OTHER, "team-romania", "club-c"))
    seen_at = first_poll + dt.timedelta(hours=3)
    clock = VirtualClock(clock())
    async with world.bot(clock) as bot:
        await clock.advance_to(seen_at + dt.timedelta(minutes=30))
        store = GuildStore(bot.database, GUILD)
        async with store.read() as view:
            record = await view.matches.get(m.id)
        assert record is not None and record.challenge is not None
        shown = await match_line(store, record)
    c = record.challenge
    assert record.chesscom_match_id == SEEN
    assert (c.issued_by, c.issued_at, c.issued_source) == (m.home_club_id, seen_at, "chesscom")
    assert (c.accepted_at, c.accepted_source) == (seen_at, "chesscom")
    assert "seen on chess.com" in shown.challenge
    assert f"<t:{int(seen_at.timestamp())}:F>" in shown.challenge
    assert fake.seen(f"match/{OTHER}") == []

    clock = VirtualClock(clock())
    async with world.bot(clock) as bot:
        await clock.advance_to(deadline + dt.timedelta(minutes=1))
        rows = await outbox(bot.database)
        async with GuildStore(bot.database, GUILD).read() as view:
            again = await view.matches.get(m.id)
            audit = await view.audit.recent(1000)
            polling = await view.jobs.pending("cl.poll", f"match:{m.id}")
            season_record = await view.seasons.get(world.season)
            assert season_record is not None
            season = await load_season(view, season_record)
    assert again is not None and again.challenge == c  # later polls changed nothing
    assert [a for a in audit if a.action != "job.done" and a.action.startswith("job.")] == []
    assert polling is not None and polling.due_at == m.start  # next read: the running match
    sightings = [a for a in audit if a.details.get("seen_on_chesscom") is not None]
    assert [(a.details.get("subject"), a.details["seen_on_chesscom"], a.at) for a in sightings] == [
        (f"match:{m.id}", SEEN, seen_at)
    ]
    judged = [
        a
        for a in audit
        if a.details.get("kind") == "cl.deadline" and a.details.get("subject") == f"match:{m.id}"
    ]
    assert [a.details.get("outcome") for a in judged] == ["challenge accepted in time"]
    both = [t for _, t in rows if "Team Romania" in t and "Team USA - Southwest" in t]
    assert [t for t in both if "must be" in t or "Challenge deadline" in t] == []
    assert [t for _, t in rows if "must be" in t]  # the other round-2 match was reminded
    report = league_report(season, now=deadline + dt.timedelta(minutes=1))
    assert not [b for b in report.forfeits if b.match == again.key]
    assert fake.seen(f"match/{OTHER}") == []

    # Past the start the linked match is read again (still in registration): seen twice,
    # recorded once, and polling goes on.
    clock = VirtualClock(clock())
    async with world.bot(clock) as bot:
        await clock.advance_to(m.start + dt.timedelta(hours=1, minutes=30))
        async with GuildStore(bot.database, GUILD).read() as view:
            latest = await view.matches.get(m.id)
            audit = await view.audit.recent(1000)
            polling = await view.jobs.pending("cl.poll", f"match:{m.id}")
    assert len(fake.seen(f"match/{SEEN}")) >= 3
    assert latest is not None and latest.challenge == c
    assert [a for a in audit if a.action != "job.done" and a.action.startswith("job.")] == []
    seen = [
        a.details.get("seen_on_chesscom")
        for a in audit
        if a.details.get("subject") == f"match:{m.id}"
    ]
    assert [x for x in seen if x is not None] == [SEEN]
    assert polling is not None and polling.due_at == m.start + dt.timedelta(hours=2)
