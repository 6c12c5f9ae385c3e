"""The league runs itself (issue 11), on a virtual clock with the bot restarted between steps
(a new ArbiterBot on the same database file) and the 127.0.0.1 fake chess.com: CL-15
reminders once each and none once accepted, a deadline missed while down judged once at
start-up, a reschedule moving every job, CL-DQ after three late challenges, and a chess.com
5xx while polling retried later with nothing lost. Outbox rows and recorded sends are
counted to prove each announcement happens exactly once."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.league.matches import service as matches
from bot.league.matches.jobs import KINDS, deadline_of, poll_lead
from bot.league.store import load_season
from bot.runtime.clock import VirtualClock
from core.league import league_report
from core.league.season import SeasonRules
from storage.guild import GuildStore
from tests.support.automation_world import (
    ANNOUNCEMENTS,
    DIRECTOR,
    GUILD,
    ROMANIA_CHANNEL,
    T0,
    AutomationWorld,
    admin,
    build_world,
    direct_messages,
    outbox,
    team_match,
)
from tests.support.chesscom_fake import FakeChessCom

NOTICE = 120


@pytest.fixture
async def world(database_location: Path | str, fake: FakeChessCom) -> AutomationWorld:
    return await build_world(database_location, fake)


def _about(rows: list[tuple[int, str]], *words: str) -> list[tuple[int, str]]:
    return [r for r in rows if all(w in r[1] for w in words)]


async def test_cl15_reminders_fire_once_and_not_when_the_challenge_was_accepted(
    world: AutomationWorld,
) -> None:
    """CL-15: at deadline − 48 h both clubs of a match without a challenge are reminded (their
    admins mentioned, in each club's channel, with the deadline as a Discord timestamp and the
    command); at − 12 h a match accepted meanwhile says nothing, an issued one reminds only the
    club that must accept. A restart runs nothing twice."""
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        round_one = [m for m in await world.matches(bot.database) if m.round == 1]
        first, second = round_one
        deadline = deadline_of(first.start, NOTICE)
        await clock.advance_to(deadline - dt.timedelta(hours=47))
        rows = await outbox(bot.database)
    reminders = _about(rows, "must be", "CL-15")
    assert len(reminders) == 4  # two matches × two clubs
    unix = int(deadline.timestamp())
    for _, text in reminders:
        assert f"<t:{unix}:F>" in text and f"<t:{unix}:R>" in text
        assert "`/match challenge`" in text
    romania = [r for r in reminders if "**Team Romania** vs" in r[1]]
    assert romania and all(channel == ROMANIA_CHANNEL for channel, _ in romania)
    assert "<@201> <@202>" in romania[0][1]
    assert all(c == ANNOUNCEMENTS for c, t in reminders if "**Team Romania** vs" not in t)

    # Between the reminders: the first match's challenge is issued and accepted, the
    # second's only issued (by its home club).
    clock2 = VirtualClock(clock())
    async with world.bot(clock2) as bot:
        names = {v: k for k, v in world.clubs.items()}
        store = GuildStore(bot.database, GUILD)
        home1, away1 = names[first.home_club_id], names[first.away_club_id]
        await matches.record_challenge_issued(store, admin(home1), first.id, 12803)
        await matches.record_challenge_accepted(store, admin(away1), first.id)
        home2, away2 = names[second.home_club_id], names[second.away_club_id]
        await matches.record_challenge_issued(store, admin(home2), second.id, 1000001)
        await clock2.advance_to(deadline - dt.timedelta(hours=11))
        rows = await outbox(bot.database)
    twelve = _about(rows, "must be", "CL-15")[4:]
    assert len(twelve) == 1
    assert f"**{away2}** vs **{home2}**" in twelve[0][1] and "`/match accept`" in twelve[0][1]

    # A third start at the same instant runs nothing again.
    async with world.bot(VirtualClock(clock2())) as bot:
        assert await outbox(bot.database) == rows
        dms = await direct_messages(bot.database)
    sent = [s for s in world.sends if "must be" in s[1] and "<@" in s[1]]  # the channel's
    assert len(sent) == 5 and len(set(sent)) == 5
    # Each admin of a reminded club also got it by direct message (on by default): 2 admins
    # of 4 clubs at - 48 h, of 1 at - 12 h; and each issued challenge told the 2 admins of
    # the club that must accept it.
    reminded = [(to, text) for to, text, _ in dms if text.startswith("Your club")]
    assert len(reminded) == 10 and len(set(reminded)) == 10
    assert len([to for to, text, _ in dms if "issued the chess.com challenge" in text]) == 4


async def test_a_deadline_missed_while_down_is_judged_once_at_start_up(
    world: AutomationWorld,
) -> None:
    """CL-15: the bot is down over the first round's deadline; at start-up the deadline is
    judged once per match (no challenge → both clubs forfeit), with no late reminders, and a
    second start-up judges nothing again. The forfeits are derived, not stored."""
    async with world.bot(VirtualClock(T0)) as bot:
        first = min(await world.matches(bot.database), key=lambda m: m.start)
    deadline = deadline_of(first.start, NOTICE)
    later = VirtualClock(deadline + dt.timedelta(hours=2))
    async with world.bot(later) as bot:
        rows = await outbox(bot.database)
        async with GuildStore(bot.database, GUILD).read() as view:
            record = await view.seasons.get(world.season)
            assert record is not None
            season = await load_season(view, record)
    judged = _about(rows, "Challenge deadline", "both clubs forfeit")
    assert len(judged) == 2 and all("judged at start-up" in t for _, t in judged)
    assert _about(rows, "must be") == []  # reminders due before the deadline say nothing late
    report = league_report(season, now=later())
    assert {(b.club, b.rule) for b in report.forfeits} == {(club, "CL-15") for club in world.clubs}
    async with world.bot(VirtualClock(later())) as bot:
        assert await outbox(bot.database) == rows
    assert len([s for s in world.sends if "Challenge deadline" in s[1]]) == 2


async def test_a_reschedule_moves_every_job_of_the_match(world: AutomationWorld) -> None:
    """CL-13, CL-15: a director moves a match a week later: its reminders, deadline, at-start
    and poll jobs move with it; the old deadline passes without a judgement, the new one
    judges it."""
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        first = min(await world.matches(bot.database), key=lambda m: m.start)
        new_start = first.start + dt.timedelta(days=7, hours=1)
        store = GuildStore(bot.database, GUILD)
        await matches.reschedule_match(store, DIRECTOR, first.id, new_start)
        async with store.read() as view:
            jobs = {k: await view.jobs.pending(k, f"match:{first.id}") for k in KINDS}
    new_deadline = deadline_of(new_start, NOTICE)
    assert {k: j.due_at if j else None for k, j in jobs.items()} == {
        "cl.reminder.48h": new_deadline - dt.timedelta(hours=48),
        "cl.reminder.12h": new_deadline - dt.timedelta(hours=12),
        "cl.deadline": new_deadline,
        "cl.at_start": new_start,
        "cl.poll": new_deadline - poll_lead(SeasonRules()),
    }
    old_deadline = deadline_of(first.start, NOTICE)
    clock = VirtualClock(old_deadline + dt.timedelta(hours=1))
    async with world.bot(clock) as bot:
        rows = await outbox(bot.database)
        moved = [t for _, t in _about(rows, "Challenge deadline") if "<t:" in t]
        assert len(moved) == 1  # only the other first-round match
        await clock.advance_to(new_deadline + dt.timedelta(minutes=1))
        rows = await outbox(bot.database)
    stamp = f"<t:{int(new_deadline.timestamp())}:F>"
    assert len(_about(rows, "Challenge deadline", stamp)) == 1


async def test_three_late_challenges_disqualify_a_club_and_its_matches_stop_counting(
    world: AutomationWorld,
) -> None:
    """CL-15, CL-DQ: in each of Club D's three matches its opponent issues the challenge and
    D never accepts; the other match of each round is accepted in time. At the third deadline
    D is disqualified (announced once, with the ranks that moved) and none of its matches
    count in anyone's standings."""
    names_by_id = {v: k for k, v in world.clubs.items()}
    d = world.clubs["Club D"]
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        store = GuildStore(bot.database, GUILD)
        for m in await world.matches(bot.database):
            issuer = m.away_club_id if m.home_club_id == d else m.home_club_id
            chesscom = 500 + m.id
            await matches.record_challenge_issued(store, admin(names_by_id[issuer]), m.id, chesscom)
            if d not in (m.home_club_id, m.away_club_id):
                other = m.away_club_id if issuer == m.home_club_id else m.home_club_id
                await matches.record_challenge_accepted(store, admin(names_by_id[other]), m.id)
        starts = sorted({m.start for m in await world.matches(bot.database)})
    for start in starts:  # one restart per round, just after its deadline
        clock = VirtualClock(deadline_of(start, NOTICE) + dt.timedelta(minutes=1))
        async with world.bot(clock) as bot:
            rows = await outbox(bot.database)
    forfeits = _about(rows, "Challenge deadline", "**Club D** forfeits")
    assert len(forfeits) == 3
    dq = _about(rows, "**Club D** is disqualified", "CL-DQ", "3 forfeits under CL-15")
    assert len(dq) == 1
    assert "**Club D** forfeits" in dq[0][1]  # judged with the breach that disqualified
    assert "standings:" in dq[0][1] and "Club D 3= → disqualified" in dq[0][1]
    async with world.bot(VirtualClock(clock())) as bot:
        assert await outbox(bot.database) == rows
        async with GuildStore(bot.database, GUILD).read() as view:
            record = await view.seasons.get(world.season)
            assert record is not None
            season = await load_season(view, record)
    report = league_report(season, now=clock())
    assert [q.club for q in report.disqualified] == ["Club D"]
    table = {s.club: s for s in report.standings("Premier Division")}
    assert table["Club D"].disqualified
    for club in ("Team Romania", "Team USA - Southwest", "Club C"):
        assert table[club].played == 0  # D's forfeits count for no one; nothing else played
    assert len([s for s in world.sends if "is disqualified" in s[1]]) == 1


async def test_a_chesscom_5xx_while_polling_is_retried_later_and_loses_nothing(
    world: AutomationWorld, fake: FakeChessCom, fixtures_dir: Path
) -> None:
    """The match is accepted in time and linked to chess.com match 12803. At the start the
    snapshot is stored (observed then, not late); polls read the running match; a 503 delays
    the import (nothing recorded, no forfeit); the next poll imports the finished match
    through the /match report service and announces the result once; polling then stops."""
    names_by_id = {v: k for k, v in world.clubs.items()}
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        m = await world.match(bot.database, "Team Romania", "Team USA - Southwest")
        store = GuildStore(bot.database, GUILD)
        home, away = names_by_id[m.home_club_id], names_by_id[m.away_club_id]
        await matches.record_challenge_issued(store, admin(home), m.id, 12803, club=m.home_club_id)
        await matches.record_challenge_accepted(store, admin(away), m.id)
    fake.serve("match/12803", team_match(fixtures_dir, status="in_progress"))
    clock = VirtualClock(m.start - dt.timedelta(minutes=1))
    async with world.bot(clock) as bot:
        await clock.advance_to(m.start + dt.timedelta(minutes=1))
        async with GuildStore(bot.database, GUILD).read() as view:
            at_start = await view.matches.at_start(m.id)
        assert [(f.members, f.observed_at) for f in at_start] == [(120, m.start)] * 2
        assert all(f.players == 54 for f in at_start)
        before = len(fake.seen("match/12803"))
        fake.fail("match/12803", 503)
        await clock.advance(dt.timedelta(hours=1))
        assert fake.seen("match/12803")[-1].status == 503
        assert len(fake.seen("match/12803")) == before + 1
        async with GuildStore(bot.database, GUILD).read() as view:
            record = await view.matches.get(m.id)
            assert record is not None and record.finished_at is None
            assert await view.jobs.pending("cl.poll", f"match:{m.id}") is not None
    # CL-14: the match finished after its start (the recorded payload's 2010 end moved).
    finish = int((m.start + dt.timedelta(hours=2)).timestamp())
    fake.serve("match/12803", team_match(fixtures_dir, end_time=finish))
    clock = VirtualClock(clock() + dt.timedelta(hours=3))  # down for a while; catch up once
    async with world.bot(clock) as bot:
        await clock.advance(dt.timedelta(hours=5))
        rows = await outbox(bot.database)
        async with GuildStore(bot.database, GUILD).read() as view:
            record = await view.matches.get(m.id)
            boards = await view.matches.boards(m.id)
            assert await view.jobs.pending("cl.poll", f"match:{m.id}") is None
    assert record is not None and record.finished_at is not None and len(boards) == 54
    results = _about(rows, "Result (chess.com)")
    assert len(results) == 1
    assert _about(rows, "**Team Romania** vs **Team USA - Southwest**", "forfeit") == []
    started = _about(rows, "**Team Romania** vs **Team USA - Southwest** started")
    assert len(started) == 1 and "late" not in started[0][1]
    assert len([s for s in world.sends if "Result (chess.com)" in s[1]]) == 1


async def test_a_restart_after_both_reminders_fell_due_posts_only_the_last(
    world: AutomationWorld,
) -> None:
    """CL-15: the bot is down over the − 48 h and − 12 h reminders and starts 6 h before the
    deadline: only the − 12 h reminder speaks (one per club still to act), not both; a bot
    down past the deadline posts no reminder at all (the judgement speaks)."""
    async with world.bot(VirtualClock(T0)) as bot:
        found = await world.matches(bot.database)
    first = min(found, key=lambda m: m.start)
    round_one = len([m for m in found if m.start == first.start])
    deadline = deadline_of(first.start, NOTICE)
    async with world.bot(VirtualClock(deadline - dt.timedelta(hours=6))) as bot:
        rows = await outbox(bot.database)
    reminders = _about(rows, "must be", "CL-15")
    assert len(reminders) == 2 * round_one  # both clubs of each match, once
    assert len(set(reminders)) == len(reminders)
    async with world.bot(VirtualClock(deadline + dt.timedelta(hours=1))) as bot:
        later = await outbox(bot.database)
    assert _about(later, "must be", "CL-15") == reminders
    assert len(_about(later, "Challenge deadline", "both clubs forfeit")) == round_one
