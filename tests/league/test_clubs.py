"""Club services (CL-2..4) on a real SQLite file and the 127.0.0.1 fake chess.com: who may
do what, what a refusal leaves (nothing), and what a valid call writes (one audit row)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.chesscom.client import ChessComClient
from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.league.clubs import service as clubs
from bot.league.clubs.card import club_card
from bot.league.clubs.service import club_url_id
from bot.league.motions.lifecycle import MotionRequest, cast_vote, open_motion
from bot.league.store import StandingsCache
from core.league.season import SeasonRules
from storage.engine.database import Database
from storage.guild import GuildStore
from storage.shared.guild_settings import GuildSettings
from tests.support.chesscom_fake import FakeChessCom
from tests.support.motion_world import stored_motion
from tests.support.services_world import (
    ADMIN_A,
    DIRECTOR,
    DIRECTOR_USER,
    HQ,
    HQ_USER,
    audited,
    dump,
    refused,
)

CLUB = "chess-com-developer-community"
GUILD = 10
OTHER_GUILD = 20
ADMIN = Actor(ADMIN_A[0])
ELECTORATE = (DIRECTOR_USER, 106, 107)


async def _registered(database: Database, client: ChessComClient) -> int:
    store = GuildStore(database, GUILD)
    event = await clubs.register_club(store, client, ADMIN, CLUB, [ADMIN_A[1]])
    return event.club.id


def test_a_club_is_named_by_url_id_or_chesscom_url() -> None:
    """CL-2: a url-id or any chess.com club URL gives the url-id; anything else is refused."""
    assert club_url_id("Team-Romania") == "team-romania"
    assert club_url_id("https://www.chess.com/club/team-romania") == "team-romania"
    assert club_url_id("chess.com/club/team-romania/") == "team-romania"
    assert club_url_id("https://api.chess.com/pub/club/team-romania") == "team-romania"
    for bad in ("", "   ", "https://www.chess.com/member/erik", "a b", "x" * 300, "te\x1bam"):
        with pytest.raises(UserError):
            club_url_id(bad)


async def test_register_reads_the_profile_and_is_pending_with_two_admins(
    database: Database, client: ChessComClient, fake: FakeChessCom
) -> None:
    """CL-2..4: the chess.com profile is read, the club is pending, caller + admin2 linked;
    the registration is announced through the outbox in the same unit of work."""
    store = GuildStore(database, GUILD)
    async with store.change(1, "setup", "guild") as uow:
        await uow.settings.update(announcements_channel_id=555)
    event = await audited(
        database,
        clubs.register_club(store, client, ADMIN, f"https://www.chess.com/club/{CLUB}", [202]),
        ADMIN_A[0],
        "club.register",
    )
    assert event.club.status == "pending"
    assert event.club.name == "Chess.com Developer Community"
    assert event.admins == ADMIN_A
    assert fake.seen(f"club/{CLUB}")
    async with store.read() as view:
        assert await view.club_admins.admins_of(event.club.id) == list(ADMIN_A)
        (message,) = await view.outbox.pending()
    assert message.channel_id == 555 and "Developer Community" in (message.content or "")


async def test_register_refusals_write_nothing(
    database: Database, client: ChessComClient, fake: FakeChessCom
) -> None:
    """CL-2..4: no such club (a player's name 404s on /club/), a payload that is not a club,
    fewer than 2 distinct admins, a second registration of one chess.com club, the system as
    caller, hostile text: refused, nothing written."""
    store = GuildStore(database, GUILD)
    await refused(
        database,
        clubs.register_club(store, client, ADMIN, "farzyplayschess", [202]),
        "no such chess.com club",
    )
    fake.serve("club/not-a-club", {"username": "not-a-club", "player_id": 5})
    await refused(
        database,
        clubs.register_club(store, client, ADMIN, "not-a-club", [202]),
        "not a chess.com club",
    )
    await refused(database, clubs.register_club(store, client, ADMIN, CLUB, []), "2")
    await refused(
        database, clubs.register_club(store, client, ADMIN, CLUB, [ADMIN_A[0]]), "different"
    )
    await refused(
        database, clubs.register_club(store, client, ADMIN, CLUB, [202, 203, 204]), "at most"
    )
    await refused(database, clubs.register_club(store, client, Actor.system(), CLUB, [202]))
    await refused(database, clubs.register_club(store, client, ADMIN, "", [202]), "empty")
    await refused(database, clubs.register_club(store, client, ADMIN, "x" * 100_000, [202]))
    await refused(database, clubs.register_club(store, client, ADMIN, "a\x00b", [202]))
    await refused(database, clubs.register_club(store, client, ADMIN, CLUB, [-5]), "positive")
    await _registered(database, client)
    await refused(
        database, clubs.register_club(store, client, Actor(301), CLUB, [302]), "already registered"
    )
    # The same chess.com club may be registered in another guild.
    other = GuildStore(database, OTHER_GUILD)
    await clubs.register_club(other, client, Actor(301), CLUB, [302])


async def test_chesscom_unavailable_is_one_line_and_writes_nothing(
    database: Database, client: ChessComClient, fake: FakeChessCom
) -> None:
    """A chess.com failure (5xx after every retry) is a refusal asking to try again."""
    store = GuildStore(database, GUILD)
    fake.fail(f"club/{CLUB}", 503)
    await refused(database, clubs.register_club(store, client, ADMIN, CLUB, [202]), "try again")


async def test_only_hq_approves_or_rejects_and_only_pending_clubs(
    database: Database, client: ChessComClient
) -> None:
    """CL-3: approval and rejection need league HQ (a director is not HQ); a decided club
    cannot be decided again; a rejection needs a reason."""
    store = GuildStore(database, GUILD)
    club_id = await _registered(database, client)
    for actor in (ADMIN, DIRECTOR, Actor(HQ_USER)):
        await refused(database, clubs.approve_club(store, actor, club_id), "league HQ")
    await refused(database, clubs.reject_club(store, HQ, club_id, "  "), "empty")
    await refused(database, clubs.approve_club(store, HQ, 99_999), "no club")
    event = await audited(database, clubs.approve_club(store, HQ, CLUB), HQ_USER, "club.approve")
    assert event.club.status == "approved" and event.club.decided_by == HQ_USER
    await refused(database, clubs.approve_club(store, HQ, club_id), "approved")
    await refused(database, clubs.reject_club(store, HQ, club_id, "late"), "approved")


async def test_reject_records_the_reason(database: Database, client: ChessComClient) -> None:
    """CL-2..4: a rejection keeps who, when and why."""
    store = GuildStore(database, GUILD)
    club_id = await _registered(database, client)
    event = await audited(
        database, clubs.reject_club(store, HQ, club_id, "not a fan club"), HQ_USER, "club.reject"
    )
    assert (event.club.status, event.club.reason) == ("rejected", "not a fan club")


async def test_cl_4_exclusion_needs_a_passed_exclude_club_motion(
    database: Database, client: ChessComClient
) -> None:
    """CL-4, CL-23: exclusion is applied only by a passed exclude-club motion: HQ cannot open
    one, an open, rejected or undecided motion leaves the club as it is (no role bypasses a
    vote), and the passed one excludes it, audited as the last vote that closed it."""
    store = GuildStore(database, GUILD)
    club_id = await _registered(database, client)
    async with store.change(1, "setup.set", "s") as uow:
        await uow.settings.update(directors_channel_id=77)
    request = MotionRequest("exclude-club", "profile unclear", club=club_id)
    await refused(database, open_motion(store, HQ, request, ELECTORATE), "director")

    async def status() -> str:
        async with store.read() as view:
            club = await view.clubs.get(club_id)
        assert club is not None
        return club.status

    rejected = await open_motion(store, DIRECTOR, request, ELECTORATE)
    split = await open_motion(store, DIRECTOR, request, ELECTORATE)
    waiting = await open_motion(store, DIRECTOR, request, ELECTORATE)
    for director in ELECTORATE:
        await cast_vote(store, director, rejected.id, False)
    await cast_vote(store, ELECTORATE[0], split.id, True)
    await cast_vote(store, ELECTORATE[1], split.id, False)  # split: no decision at once
    await cast_vote(store, ELECTORATE[0], waiting.id, True)
    assert await status() == "pending"
    passed = await open_motion(store, DIRECTOR, request, ELECTORATE)
    await cast_vote(store, ELECTORATE[0], passed.id, True)
    await cast_vote(store, ELECTORATE[1], passed.id, True)
    await audited(
        database, cast_vote(store, ELECTORATE[2], passed.id, True), ELECTORATE[2], "motion.vote"
    )
    assert await status() == "excluded"


async def test_exclusion_records_the_exclusion_and_the_cl_23_disqualification(
    database: Database, client: ChessComClient
) -> None:
    """CL-4, CL-23: the one exclusion use case (the motion path runs it too) records, in each
    season the club plays that is not finished, the exclusion and the disqualification that
    takes its matches out, both with the motion's id; a finished season is left alone."""
    store = GuildStore(database, GUILD)
    club_id = await _registered(database, client)
    async with store.change(None, "test.seasons", "seasons") as uow:
        ids = []
        for name in ("Old", "Now"):
            season = await uow.seasons.create(name, SeasonRules(), created_by=None)
            division = await uow.seasons.add_division(season.id, "P", 1)
            await uow.seasons.add_club(season.id, division.id, club_id)
            ids.append(season.id)
        await uow.seasons.set_status(ids[0], "finished")
    motion = await stored_motion(store, "exclude-club", club_id=club_id)
    async with store.change(DIRECTOR_USER, "test.exclude", f"club:{club_id}") as uow:
        event = await clubs.exclude_club_in(uow, club_id, motion, "profile unclear", None)
    assert [s.season.name for s in event.seasons] == ["Now"]
    assert [d.club for d in event.seasons[0].after.disqualified] == [event.club.name]
    async with store.read() as view:
        old, now = [await view.decisions.of_season(i) for i in ids]
    assert old == []
    assert [(d.kind, d.rule, d.motion_id) for d in now] == [
        ("exclusion", "CL-4", motion),
        ("disqualification", "CL-23", motion),
    ]


async def test_admins_change_only_by_the_clubs_own_admins_and_stay_two(
    database: Database, client: ChessComClient
) -> None:
    """CL-3: a club admin adds and removes admins of their own club only (not HQ, not another
    club's admin); a club keeps at least 2."""
    store = GuildStore(database, GUILD)
    club_id = await _registered(database, client)
    for actor in (HQ, Actor(999)):
        await refused(database, clubs.add_admin(store, actor, club_id, 203), "club admin")
    await refused(database, clubs.remove_admin(store, ADMIN, club_id, ADMIN_A[1]), "at least 2")
    added = await audited(
        database, clubs.add_admin(store, ADMIN, club_id, 203), ADMIN_A[0], "club.admin_add"
    )
    assert added.admins == (201, 202, 203)
    await refused(database, clubs.add_admin(store, ADMIN, club_id, 203), "already")
    removed = await audited(
        database, clubs.remove_admin(store, ADMIN, club_id, 201), ADMIN_A[0], "club.admin_remove"
    )
    assert removed.admins == (202, 203)
    await refused(database, clubs.remove_admin(store, ADMIN, club_id, 202), "club admin")
    await refused(database, clubs.remove_admin(store, Actor(202), club_id, 999), "not an admin")


async def test_reminder_channel_and_another_guilds_club(
    database: Database, client: ChessComClient
) -> None:
    """A club admin sets the reminder channel; another guild cannot see the club by id."""
    store = GuildStore(database, GUILD)
    club_id = await _registered(database, client)
    event = await audited(
        database, clubs.set_reminder_channel(store, ADMIN, club_id, 777), ADMIN_A[0], "club.channel"
    )
    assert event.channel_id == 777
    other = GuildStore(database, OTHER_GUILD)
    before = await dump(database)
    with pytest.raises(UserError, match="No club"):
        await clubs.set_reminder_channel(other, ADMIN, club_id, 1)
    with pytest.raises(UserError, match="No club"):
        await clubs.approve_club(other, HQ, club_id)
    assert await dump(database) == before


def test_a_member_holds_the_configured_roles_only() -> None:
    """docs/league-in-discord.md: roles come from the guild's settings; holding HQ does not
    make a director."""
    settings = GuildSettings(GUILD, hq_role_id=1, director_role_id=2, arbiter_role_id=3)
    assert Actor.member(5, settings, [1, 9]).roles == frozenset({Role.HQ})
    assert Actor.member(5, settings, [2, 3]).roles == frozenset({Role.DIRECTOR, Role.ARBITER})
    assert Actor.member(5, GuildSettings(GUILD), [1, 2]).roles == frozenset()
    assert Actor.system().has(Role.DIRECTOR) and Actor.system().user_id is None


async def test_the_club_card_is_read_by_one_use_case(
    database: Database, client: ChessComClient, fake: FakeChessCom
) -> None:
    """`/club info`'s use case: the card holds the admins, the division of the season the club
    plays now (not a finished one) and chess.com's figures read after `ready`; an unknown
    club is refused before `ready` (so the refusal stays private)."""
    store = GuildStore(database, GUILD)
    club_id = await _registered(database, client)
    async with store.change(None, "test.seasons", "seasons") as uow:
        for name in ("Old", "Now"):
            season = await uow.seasons.create(name, SeasonRules(), created_by=None)
            division = await uow.seasons.add_division(season.id, f"{name} P", 1)
            await uow.seasons.add_club(season.id, division.id, club_id)
            if name == "Old":
                await uow.seasons.set_status(season.id, "finished")
    calls: list[str] = []

    async def ready() -> None:
        calls.append("ready")

    with pytest.raises(UserError):
        await club_card(store, StandingsCache(), client, "No Such Club", ready)
    assert calls == []
    card = await club_card(store, StandingsCache(), client, "chess.com developer community", ready)
    profile = await client.club(CLUB)
    assert calls == ["ready"]
    assert (card.name, card.admins, card.division) == (
        "Chess.com Developer Community",
        ADMIN_A,
        "Now P (Now)",
    )
    assert (card.members, card.forfeits) == (profile.members_count, {})


async def test_cl_2_4_a_rejected_club_may_register_again(
    database: Database, client: ChessComClient
) -> None:
    """CL-2..4 (issue 19): HQ's rejection is not for ever — the same chess.com club registers
    again, pending once more with the admins of the new registration; an approved or pending
    one still cannot be registered twice."""
    store = GuildStore(database, GUILD)
    club_id = await _registered(database, client)
    await refused(database, clubs.register_club(store, client, ADMIN, CLUB, [202]), "already")
    await clubs.reject_club(store, HQ, club_id, "Profile unclear")
    again = await clubs.register_club(store, client, Actor(ADMIN_A[1]), CLUB, [209])
    assert again.club.id == club_id and again.club.status == "pending"
    async with store.read() as view:
        assert await view.club_admins.admins_of(club_id) == [ADMIN_A[1], 209]


async def test_cl_2_two_chesscom_clubs_of_one_display_name_both_register(
    database: Database, client: ChessComClient, fake: FakeChessCom, fixtures_dir: Path
) -> None:
    """CL-2 (issue 19): chess.com display names are not unique; the second club of a name
    registers, told apart by its url-id."""
    profile = json.loads(
        (fixtures_dir / "chesscom" / f"club_profile_{CLUB}.json").read_text(encoding="utf-8")
    )
    other = "dev-community-fans"
    fake.serve(
        f"club/{other}",
        {**profile, "@id": f"https://api.chess.com/pub/club/{other}", "club_id": 99},
    )
    store = GuildStore(database, GUILD)
    await _registered(database, client)
    second = await clubs.register_club(store, client, Actor(ADMIN_A[1]), other, [209])
    assert second.club.name == f"Chess.com Developer Community ({other})"
