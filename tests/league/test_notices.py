"""Issue 36: the league's direct messages, queued in the outbox with the change they announce.

On a virtual clock with the bot restarted between steps, as the automation tests do, each kind
reaches exactly the members it concerns who want it: a CL-15 reminder and an issued challenge
(on by default) the waiting club's admins with the button to act, a match start, a result and a
forfeit or disqualification (off by default) the admins who turned them on, a motion opened and
one closing soon (on by default) its electors with the Yes and No buttons. A member who turned a
kind off gets none, and the channel posts stay as they were.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.formats.boards_csv import BoardRow
from bot.kernel.actor import Actor, Role
from bot.kernel.notifications import Kind
from bot.league.matches import results
from bot.league.matches import service as matches
from bot.league.matches.jobs import deadline_of
from bot.league.motions.lifecycle import (
    CLOSE_JOB,
    CLOSING_JOB,
    CLOSING_LEAD,
    MotionRequest,
    VoteRules,
    cast_vote,
    open_motion,
)
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.league.matches import MatchRecord
from tests.support.automation_world import (
    ANNOUNCEMENTS,
    GUILD,
    ROMANIA_CHANNEL,
    T0,
    AutomationWorld,
    admin,
    build_world,
    direct_messages,
    outbox,
)
from tests.support.chesscom_fake import FakeChessCom

NOTICE = 120
ROMANIA, USA = "Team Romania", "Team USA - Southwest"
ARBITER = Actor(103, frozenset({Role.ARBITER}))
DIRECTORS = (301, 302, 303)
LINK = f"https://discord.com/channels/{GUILD}/"


@pytest.fixture
async def world(database_location: Path | str, fake: FakeChessCom) -> AutomationWorld:
    return await build_world(database_location, fake)


async def _choose(database: Database, user: int, kind: Kind, enabled: bool) -> None:
    """The member's choice of `kind`, as `/notify` stores it."""
    async with GuildStore(database, GUILD).change(user, "notify", f"user:{user}") as uow:
        await uow.notifications.choose(user, kind.key, enabled)


def _to(dms: list[tuple[int, str, Any]], user: int, *words: str) -> list[tuple[str, Any]]:
    """The direct messages to `user` whose text holds every one of `words`."""
    return [
        (text, buttons) for to, text, buttons in dms if to == user and all(w in text for w in words)
    ]


def _custom_ids(buttons: Any) -> list[str]:
    return [c["custom_id"] for row in buttons for c in row["components"]]


async def _romania_usa(world: AutomationWorld, database: Database) -> MatchRecord:
    return await world.match(database, ROMANIA, USA)


async def _accepted(world: AutomationWorld, clock: VirtualClock) -> MatchRecord:
    """Team Romania vs Team USA - Southwest, its challenge issued and accepted in time."""
    async with world.bot(clock) as bot:
        m = await _romania_usa(world, bot.database)
        store = GuildStore(bot.database, GUILD)
        await matches.record_challenge_issued(
            store, admin(ROMANIA), m.id, 12803, club=m.home_club_id
        )
        await matches.record_challenge_accepted(store, admin(USA), m.id)
    return m


async def test_cl15_reminder_by_dm_with_the_button_to_the_admins_who_want_it(
    world: AutomationWorld,
) -> None:
    """CL-15, issue 36: at deadline − 48 h each admin of a club still to issue the challenge
    gets one direct message (on by default) with the "Record our challenge" button naming the
    guild and match, linking the club's reminder channel; an admin who turned challenges off
    gets none; the channel reminder is posted as before."""
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        await _choose(bot.database, 202, Kind.CHALLENGE, False)
        m = await _romania_usa(world, bot.database)
        deadline = deadline_of(m.start, NOTICE)
        await clock.advance_to(deadline - dt.timedelta(hours=47))
        dms = await direct_messages(bot.database)
        rows = await outbox(bot.database)
    mine = _to(dms, 201, f"match {m.id})")
    assert len(mine) == 1
    text, buttons = mine[0]
    assert text.startswith("Your club **Team Romania**: the chess.com challenge of")
    assert f"<t:{int(deadline.timestamp())}:R>" in text and "`/match challenge`" in text
    assert text.endswith(f"{LINK}{ROMANIA_CHANNEL}")
    assert _custom_ids(buttons) == [f"dmmatch:{GUILD}:{m.id}:challenge"]
    assert _to(dms, 202) == []
    assert len(_to(dms, 211, f"match {m.id})")) == 1  # the other club's admins too
    channel = [r for r in rows if r[0] == ROMANIA_CHANNEL and f"(match {m.id})" in r[1]]
    assert len(channel) == 1 and channel[0][1].startswith("<@201> <@202>:")


async def test_an_issued_challenge_asks_the_other_clubs_admins_to_accept_it(
    world: AutomationWorld,
) -> None:
    """CL-15, issue 36: Team Romania issues the challenge; each admin of Team USA - Southwest
    who wants challenges (on by default) gets one direct message with the "Accept the
    challenge" button; the one who turned them off and Team Romania's admins get none."""
    async with world.bot(VirtualClock(T0)) as bot:
        await _choose(bot.database, 212, Kind.CHALLENGE, False)
        m = await _romania_usa(world, bot.database)
        store = GuildStore(bot.database, GUILD)
        await matches.record_challenge_issued(
            store, admin(ROMANIA), m.id, 12803, club=m.home_club_id
        )
        dms = await direct_messages(bot.database)
    assert len(dms) == 1
    to, text, buttons = dms[0]
    assert to == 211
    assert text.startswith("**Team Romania** issued the chess.com challenge of **Team Romania**")
    assert "Your club must accept it by" in text and "`/match accept`" in text
    assert _custom_ids(buttons) == [f"dmmatch:{GUILD}:{m.id}:accept"]


async def test_match_start_result_and_forfeit_only_to_the_admins_who_turned_them_on(
    world: AutomationWorld,
) -> None:
    """Issue 36: a match starting, its result counted and corrected are off by default; the
    admin who turned each on gets one direct message each time, the others none."""
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        await _choose(bot.database, 201, Kind.MATCH_START, True)
        await _choose(bot.database, 211, Kind.MATCH_RESULT, True)
        await _choose(bot.database, 212, Kind.MATCH_RESULT, False)
    m = await _accepted(world, VirtualClock(T0))
    later = VirtualClock(m.start + dt.timedelta(minutes=1))
    async with world.bot(later) as bot:  # the at-start job runs at start-up
        started = await direct_messages(bot.database)
        store = GuildStore(bot.database, GUILD)
        boards = [BoardRow(1, "alice", "bob", Fraction(2), Fraction(0))]
        await later.advance_to(m.start + dt.timedelta(hours=1))
        await results.enter_manual_result(store, ARBITER, m.id, boards)
        await results.enter_manual_result(
            store, ARBITER, m.id, [BoardRow(1, "alice", "bob", Fraction(1), Fraction(1))]
        )
        dms = await direct_messages(bot.database)
    start = [d for d in started if "started" in d[1]]
    assert [(to, text) for to, text, _ in start] == [
        (
            201,
            f"Your club's match **Team Romania** vs **Team USA - Southwest** (match {m.id})"
            f" started <t:{int(m.start.timestamp())}:F>.\n{LINK}{ANNOUNCEMENTS}",
        )
    ]
    counted = [(to, text) for to, text, _ in dms if text.startswith("Result of your club")]
    assert [to for to, _ in counted] == [211, 211]
    assert "**Team Romania** 2 – 0 **Team USA - Southwest**" in counted[0][1]
    assert "**Team Romania** 1 – 1 **Team USA - Southwest**" in counted[1][1]
    assert all(b is None for _, text, b in dms if text.startswith("Result of your club"))


async def test_forfeit_at_the_deadline_to_the_admin_who_turned_forfeits_on(
    world: AutomationWorld,
) -> None:
    """CL-15, CL-FF, issue 36: no challenge by the deadline, both clubs forfeit; the one admin
    who turned forfeits on gets one direct message naming the match and the rule, the others
    (off by default) none."""
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        await _choose(bot.database, 202, Kind.FORFEIT, True)
        m = await _romania_usa(world, bot.database)
        deadline = deadline_of(m.start, NOTICE)
        await clock.advance_to(deadline + dt.timedelta(minutes=1))
        dms = await direct_messages(bot.database)
    forfeits = [(to, text) for to, text, _ in dms if f"(match {m.id}) under" in text]
    assert forfeits == [
        (
            202,
            f"Your club **Team Romania** forfeits **Team Romania** vs **Team USA - Southwest**"
            f" (match {m.id}) under CL-15: the challenge was not issued and accepted by"
            f" <t:{int(deadline.timestamp())}:F>.\n{LINK}{ANNOUNCEMENTS}",
        )
    ]


async def test_director_forfeit_and_disqualification_by_motion_reach_the_clubs_admin(
    world: AutomationWorld,
) -> None:
    """CL-21, CL-23, CL-DQ, issue 36: a passed forfeit motion and a passed disqualify motion
    each send one direct message to the admin of the club who turned forfeits on; the other
    admin, off by default, gets none."""
    async with world.bot(VirtualClock(T0)) as bot:
        await _choose(bot.database, 211, Kind.FORFEIT, True)
        m = await _romania_usa(world, bot.database)
        store = GuildStore(bot.database, GUILD)
        director = Actor(DIRECTORS[0], frozenset({Role.DIRECTOR}))
        for request in (
            MotionRequest("forfeit", "No show", match_id=m.id, club=USA),
            MotionRequest("disqualify", "Multi-team players", "Spring", club=USA, rule="CL-18"),
        ):
            motion = await open_motion(store, director, request, DIRECTORS)
            for voter in DIRECTORS:
                await cast_vote(store, voter, motion.id, True)
        dms = await direct_messages(bot.database)
    told = [(to, text) for to, text, _ in dms if to in (211, 212)]
    assert len(told) == 2 and {to for to, _ in told} == {211}
    assert told[0][1].startswith(
        f"Your club **Team USA - Southwest** forfeits **Team Romania** vs **Team USA - Southwest**"
        f" (match {m.id}) under CL-21: the directors decided it (motion {motion.id - 1})."
    )
    assert told[1][1].startswith(
        f"Your club **Team USA - Southwest** is disqualified by a director decision"
        f" (motion {motion.id}) (CL-DQ, under CL-18)."
    )


async def test_a_motion_opened_and_closing_soon_reach_the_electors_who_want_it(
    world: AutomationWorld,
) -> None:
    """CL-23, issue 36: a motion opened sends each elector (on by default) one direct message
    with Yes and No buttons naming the guild, but not the one who turned votes off; 12 h
    before its deadline the electors who have not voted get one reminder, the one who voted
    and the one who turned reminders off none; a restart says nothing again, and a motion
    closed before its reminder is due says nothing."""
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        await _choose(bot.database, 303, Kind.VOTE, False)
        await _choose(bot.database, 302, Kind.VOTE_CLOSING, False)
        m = await _romania_usa(world, bot.database)
        store = GuildStore(bot.database, GUILD)
        director = Actor(DIRECTORS[0], frozenset({Role.DIRECTOR}))
        request = MotionRequest("forfeit", "No show", match_id=m.id, club=USA)
        motion = await open_motion(store, director, request, (*DIRECTORS, 304))
        opened = await direct_messages(bot.database)
        await cast_vote(store, 301, motion.id, True)
        await clock.advance_to(motion.deadline - CLOSING_LEAD)
        dms = await direct_messages(bot.database)
    assert [to for to, _, _ in opened] == [301, 302, 304]
    _, text, buttons = opened[0]
    assert text.startswith(f"Motion {motion.id} · forfeit: ") and "awaits your vote" in text
    assert f"<t:{int(motion.deadline.timestamp())}:R>" in text
    assert _custom_ids(buttons) == [
        f"dmvote:{GUILD}:{motion.id}:yes",
        f"dmvote:{GUILD}:{motion.id}:no",
    ]
    closing = [(to, text, b) for to, text, b in dms if "your vote is not in yet" in text]
    assert [to for to, _, _ in closing] == [303, 304]
    assert _custom_ids(closing[0][2]) == _custom_ids(buttons)
    again = VirtualClock(clock())
    async with world.bot(again) as bot:
        assert await direct_messages(bot.database) == dms
        # A motion every elector voted on before its reminder: closed, it says nothing.
        store = GuildStore(bot.database, GUILD)
        second = await open_motion(store, director, request, DIRECTORS)
        for voter in DIRECTORS:
            await cast_vote(store, voter, second.id, True)
        async with GuildStore(bot.database, GUILD).read() as view:
            assert await view.jobs.pending(CLOSING_JOB, f"motion:{second.id}") is None
        before = await direct_messages(bot.database)
        await again.advance_to(second.deadline)
        assert await direct_messages(bot.database) == before


def _profile(name: str, members: int, average: float) -> dict[str, Any]:
    url_id = {ROMANIA: "team-romania", USA: "team-usa-southwest"}[name]
    return {
        "@id": f"https://api.chess.com/pub/club/{url_id}",
        "name": name,
        "members_count": members,
        "average_daily_rating": average,
        "admin": [],
    }


async def test_forfeits_at_the_start_reach_the_admin_who_turned_forfeits_on(
    world: AutomationWorld, fake: FakeChessCom
) -> None:
    """CL-5, CL-6, CL-FF, issue 36: the snapshot at the start finds Team Romania with 450
    members (CL-5) and Team USA - Southwest with a daily average of 1800 (CL-6); the admin of
    each club who turned forfeits on gets one direct message naming the rule, the others
    none, and nobody is told of the start itself (off by default)."""
    async with world.bot(VirtualClock(T0)) as bot:
        await _choose(bot.database, 201, Kind.FORFEIT, True)
        await _choose(bot.database, 212, Kind.FORFEIT, True)
    m = await _accepted(world, VirtualClock(T0))
    fake.serve("club/team-romania", _profile(ROMANIA, 450, 1500.0))
    fake.serve("club/team-usa-southwest", _profile(USA, 120, 1800.0))
    async with world.bot(VirtualClock(m.start + dt.timedelta(minutes=1))) as bot:
        dms = await direct_messages(bot.database)
    told = [(to, text) for to, text, _ in dms if f"(match {m.id}) under" in text]
    match = f"**Team Romania** vs **Team USA - Southwest** (match {m.id})"
    why = "its facts read at the start of the match breach it."
    assert [(to, text.split("\n")[0]) for to, text in told] == [
        (201, f"Your club **Team Romania** forfeits {match} under CL-5: {why}"),
        (212, f"Your club **Team USA - Southwest** forfeits {match} under CL-6: {why}"),
    ]
    assert not [text for _, text, _ in dms if "started" in text]


async def test_no_closing_reminder_when_the_motion_is_shorter_than_its_lead(
    world: AutomationWorld,
) -> None:
    """CL-23, issue 36: a motion open for 6 h only has no `vote.closing` job (12 h before its
    deadline is before it opened), while its `vote.close` job stands."""
    async with world.bot(VirtualClock(T0)) as bot:
        store = GuildStore(bot.database, GUILD)
        director = Actor(DIRECTORS[0], frozenset({Role.DIRECTOR}))
        request = MotionRequest("other", "A short question")
        motion = await open_motion(store, director, request, DIRECTORS, VoteRules(hours=6))
        async with store.read() as view:
            closing = await view.jobs.pending(CLOSING_JOB, f"motion:{motion.id}")
            close = await view.jobs.pending(CLOSE_JOB, f"motion:{motion.id}")
    assert motion.deadline == T0 + dt.timedelta(hours=6)
    assert closing is None and close is not None and close.due_at == motion.deadline


async def test_a_result_corrected_and_an_exclusion_by_motion_reach_the_admins_who_want_them(
    world: AutomationWorld,
) -> None:
    """CL-14, CL-4, CL-23, issue 36: a passed correct-result motion tells the admin who turned
    results on, with the corrected score; a passed exclude-club motion tells the admin who
    turned forfeits on that the club is disqualified; the others (off by default) get none."""
    async with world.bot(VirtualClock(T0)) as bot:
        await _choose(bot.database, 202, Kind.MATCH_RESULT, True)
        await _choose(bot.database, 212, Kind.FORFEIT, True)
        m = await _romania_usa(world, bot.database)
        store = GuildStore(bot.database, GUILD)
        director = Actor(DIRECTORS[0], frozenset({Role.DIRECTOR}))
        boards = [BoardRow(1, "alice", "bob", Fraction(1, 2), Fraction(3, 2))]
        ids = []
        for request in (
            MotionRequest("correct-result", "Board 1 misread", match_id=m.id, boards=boards),
            MotionRequest("exclude-club", "Left the league", club=USA),
        ):
            motion = await open_motion(store, director, request, DIRECTORS)
            ids.append(motion.id)
            for voter in DIRECTORS:
                await cast_vote(store, voter, motion.id, True)
        dms = await direct_messages(bot.database)
    told = [(to, text.split("\n")[0]) for to, text, _ in dms if to in (201, 202, 211, 212)]
    assert told == [
        (
            202,
            f"Result of your club's match {m.id} (corrected by motion {ids[0]}):"
            " **Team Romania** ½ – 1½ **Team USA - Southwest**.",
        ),
        (
            212,
            f"Your club **Team USA - Southwest** is disqualified by a director decision"
            f" (motion {ids[1]}) (CL-DQ, under CL-23). None of its matches count in anyone's"
            " standings.",
        ),
    ]
