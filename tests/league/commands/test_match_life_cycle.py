"""Issue 19, the match life cycle through the real command tree (CL-13, CL-14, CL-15,
CL-FF, CL-DQ): whoever types the command, a recorded challenge is not replaced, a late one is
recorded as late without changing the judgement, no result comes before the start, a
director alone cannot move a match past its deadline (a `reschedule` motion can, keeping the
judgement), and a void match gets no reminder, no director forfeit, a cancelled calendar
event and says "void (CL-DQ)" wherever it is shown, its result's reply and announcement too."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from bot.app.arbiter import ArbiterBot
from bot.cli import main
from bot.league.matches.jobs import schedule_jobs
from storage.guild import GuildStore
from tests.support.cl_seasons import match, season
from tests.support.command_world import (
    ADMINS,
    DIRECTORS,
    CommandWorld,
    copy_world,
    dump,
    league_bot,
    members,
)
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Upload
from tests.support.motion_world import import_test_season

OPEN_START = dt.datetime(2026, 4, 1, 18, tzinfo=dt.UTC)
"""A - D (the world's match still to play, no challenge): its start; deadline 120 h before."""
OPEN_DEADLINE = OPEN_START - dt.timedelta(hours=120)
TO_ACCEPT_START = dt.datetime(2026, 3, 10, 18, tzinfo=dt.UTC)
"""E - A (E issued, A has not accepted): its start; deadline 2026-03-05 18:00 UTC."""


async def _schedule(bot: ArbiterBot) -> None:
    """The jobs of the imported season's matches still to play, as scheduling stores them."""
    store = GuildStore(bot.database, DEFAULT_GUILD_ID)
    async with store.change(None, "test.jobs", "season") as uow:
        record = await uow.seasons.by_name("Test season")
        assert record is not None
        for match in await uow.matches.of_season(record.id):
            if match.finished_at is None:
                await schedule_jobs(uow, match.id, match.start, record.rules)


async def _league(bot: ArbiterBot, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Any:
    """`arbiter league --json --as-of TODAY` on the Test season as `/season export` gives it
    (today: the bot's clock's day)."""
    exported = await _export(bot)
    path = tmp_path / "exported.json"
    path.write_bytes(exported)
    capsys.readouterr()
    today = bot.database.clock().date().isoformat()
    assert main(["league", str(path), "--json", "--as-of", today]) == 0
    return json.loads(capsys.readouterr().out)


async def _export(bot: ArbiterBot, season: str = "Test season") -> bytes:
    from bot.league.seasons.files import export_season_file

    _, data = await export_season_file(GuildStore(bot.database, DEFAULT_GUILD_ID), season)
    return data


def _posts(harness: DiscordHarness) -> list[str]:
    """The text of every message the bot posted (announcements, reminders), oldest first."""
    return [p.content or "" for p in harness.sent.values()]


async def test_cl_15_a_recorded_challenge_is_not_replaced_by_either_club(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-15: E issued the challenge of E - A; E re-declaring it (or A declaring its own) an
    hour before the deadline would have made the club that issued in time forfeit: refused,
    one private line, nothing written."""
    world = world_file[1]
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, _clock):
        admin_e = harness.member(user_id=ADMINS["E"][0])
        admin_a = members(harness)["club admin"]
        before = dump(path)
        for admin in (admin_e, admin_a):
            again = await harness.command(
                "match challenge", user=admin, match=world.to_accept, chesscom_match="777"
            )
            assert again.reply.ephemeral and "not replaced" in (again.reply.content or "")
        assert dump(path) == before


async def test_cl_15_an_arbiter_corrects_a_recorded_challenge_and_its_times_stand(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-15 (issue 19): a recorded challenge is corrected only by an arbiter, audited and
    announced — its chess.com match and, named, the club that issued it; when it was issued
    and accepted stays as recorded, so the deadline's judgement made with them stands. A club
    admin may not, nor may anyone correct a challenge never recorded."""
    world = world_file[1]
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (bot, harness, clock):
        cast = members(harness)
        store = GuildStore(bot.database, DEFAULT_GUILD_ID)
        async with store.read() as view:
            before = await view.matches.get(world.to_accept)
        assert before is not None and before.challenge is not None
        untouched = dump(path)
        admin = await harness.command(
            "match correct-challenge",
            user=cast["club admin"],
            match=str(world.to_accept),
            chesscom_match="778",
        )
        assert admin.reply.ephemeral and "**arbiter** role" in (admin.reply.content or "")
        never = await harness.command(
            "match correct-challenge",
            user=cast["arbiter"],
            match=str(world.open_match),
            chesscom_match="778",
        )
        assert never.reply.ephemeral and "no challenge recorded" in (never.reply.content or "")
        assert dump(path) == untouched
        fixed = await harness.command(
            "match correct-challenge",
            user=cast["arbiter"],
            match=str(world.to_accept),
            chesscom_match="https://www.chess.com/club/matches/778",
            issued_by="A",
        )
        text = fixed.reply.content or ""
        assert not fixed.reply.ephemeral and "corrected: chess.com match 778" in text, text
        assert "Its times stand, and so does the CL-15 judgement" in text
        await clock.advance(dt.timedelta(0))  # the outbox sends
        [post] = [p for p in _posts(harness) if p.startswith("An arbiter corrected the challenge")]
        assert "chess.com match 778, issued by **A**" in post, post
        async with store.read() as view:
            after = await view.matches.get(world.to_accept)
            [audit] = [a for a in await view.audit.recent(5) if a.action.endswith("correct")]
        assert after is not None and after.challenge is not None
        assert after.chesscom_match_id == 778
        assert after.challenge.issued_by != before.challenge.issued_by  # A, not E
        assert after.challenge.issued_at == before.challenge.issued_at
        assert after.challenge.accepted_at == before.challenge.accepted_at
        assert audit.action == "match.challenge.correct"


async def test_cl_15_a_challenge_after_the_deadline_is_late_and_the_forfeit_stands(
    world_file: tuple[Path, CommandWorld],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CL-15, CL-FF: A - D passes its deadline with no challenge (both forfeit); a challenge
    declared a day later is recorded as late, the reply says it does not change the CL-15
    judgement, and `arbiter league` on the export still has both forfeits."""
    world = world_file[1]
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, clock):
        await clock.advance_to(OPEN_DEADLINE + dt.timedelta(days=1))
        admin_a = members(harness)["club admin"]
        late = await harness.command(
            "match challenge", user=admin_a, match=world.open_match, chesscom_match="12803"
        )
        text = late.reply.content or ""
        assert not late.reply.ephemeral and "does not change the CL-15 judgement" in text, text
        report = await _league(bot, tmp_path, capsys)
    assert {(f["match"], f["club"], f["rule"]) for f in report["forfeits"]} >= {
        ("5", "A", "CL-15"),
        ("5", "D", "CL-15"),
    }


async def test_cl_14_no_result_is_recorded_before_the_start(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-14: an arbiter's boards four weeks before A - D starts are refused (they would count
    at once and make the export fail `arbiter league`: finished before its start)."""
    world = world_file[1]
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, _clock):
        before = dump(path)
        early = await harness.command(
            "match result",
            user=members(harness)["arbiter"],
            match=world.open_match,
            file=Upload("boards.csv", b"1,a1,d1,2,0\n"),
        )
        assert early.reply.ephemeral and "no result before its start" in (early.reply.content or "")
        assert dump(path) == before


async def test_cl_13_a_director_alone_moves_a_match_only_before_its_deadline_and_notice(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-13, CL-15: a director alone may not move A - D to a start less than 120 h away
    (both clubs would forfeit at once), nor move E - A, accepted in time, once its deadline
    passed: each refused naming the `reschedule` motion, nothing written."""
    world = world_file[1]
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, clock):
        director = members(harness)["director"]
        before = dump(path)
        soon = await harness.command(
            "match reschedule", user=director, match=world.open_match, start="2026-03-04 11:00"
        )
        assert soon.reply.ephemeral and "kind:reschedule" in (soon.reply.content or "")
        assert dump(path) == before
        accepted = await harness.command(
            "match accept", user=members(harness)["club admin"], match=world.to_accept
        )
        assert not accepted.reply.ephemeral, accepted.reply.content
        await clock.advance_to(TO_ACCEPT_START - dt.timedelta(hours=100))  # past its deadline
        later = await harness.command(
            "match reschedule", user=director, match=world.to_accept, start="2026-03-20 11:00"
        )
        assert later.reply.ephemeral and "past its challenge deadline" in (
            later.reply.content or ""
        )


async def _pass_motion(harness: DiscordHarness, options: dict[str, Any]) -> tuple[int, str]:
    """Open a motion with `options` as the first director; the three directors vote yes; the
    motion's number and the last voter's reply."""
    first = harness.member("Director", user_id=DIRECTORS[0])
    opened = await harness.command("vote open", user=first, **options)
    assert "is open" in (opened.reply.content or ""), opened.reply.content
    motion = int((opened.reply.content or "").split()[1])
    last = ""
    for user in DIRECTORS:
        cast = await harness.command(
            "vote cast", user=harness.member("Director", user_id=user), motion=motion, choice="yes"
        )
        last = cast.reply.content or ""
    return motion, last


async def test_cl_13_a_reschedule_motion_moves_a_judged_match_and_the_judgement_stands(
    world_file: tuple[Path, CommandWorld],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """CL-13, CL-15, CL-23: E - A, forfeited by A at its deadline (E issued, A never
    accepted): a reschedule motion is refused (it cannot undo the judgement). A - D, still
    before its deadline, moved by a passed motion to a start 2 days away: the challenge must
    then be issued and accepted before the new start — no forfeit falls at once, none is
    announced as "judged at start-up"."""
    world = world_file[1]
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, clock):
        await _schedule(bot)
        await clock.advance_to(TO_ACCEPT_START - dt.timedelta(hours=100))
        first = harness.member("Director", user_id=DIRECTORS[0])
        undo = await harness.command(
            "vote open",
            user=first,
            kind="reschedule",
            reason="Postpone",
            match=str(world.to_accept),
            start="2026-03-25 11:00",
        )
        assert undo.reply.ephemeral and "cannot undo that judgement" in (undo.reply.content or "")
        _, closing = await _pass_motion(
            harness,
            {
                "kind": "reschedule",
                "reason": "Both clubs asked to play earlier",
                "match": str(world.open_match),
                "start": "2026-03-08 11:00",
            },
        )
        assert "passed" in closing
        await clock.advance(dt.timedelta(hours=1))
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            moved = await view.matches.get(world.open_match)
        assert moved is not None and moved.start == dt.datetime(2026, 3, 8, 18, tzinfo=dt.UTC)
        assert moved.deadline_at == moved.start  # the notice no longer fits: until the start
        report = await _league(bot, tmp_path, capsys)
    assert not [f for f in report["forfeits"] if f["match"] == "5"]
    assert not [p for p in _posts(harness) if "judged at start-up" in p]


async def _disqualify(harness: DiscordHarness, club: str) -> None:
    """D disqualified from the Test season by a passed motion (CL-23)."""
    _, closing = await _pass_motion(
        harness,
        {
            "kind": "disqualify",
            "reason": "Kept fielding multi-team players",
            "season": "Test season",
            "club": club,
            "rule": "CL-18",
        },
    )
    assert "passed" in closing


async def test_cl_dq_a_void_match_gets_no_reminder_forfeit_or_calendar_event(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-DQ: once D is disqualified, A - D is void: its CL-15 reminders do not come (no club
    is threatened with a forfeit), a challenge is recorded but says it is void, a director
    forfeit motion on it is refused (it would count towards A's CL-21 counter), `/match
    show` says "void (CL-DQ)", the calendar cancels it (STATUS:CANCELLED), and an arbiter's
    result at its start is stored, its reply and announcement saying it counts for nobody."""
    world = world_file[1]
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, clock):
        await _schedule(bot)
        await _disqualify(harness, "D")
        await clock.advance_to(OPEN_DEADLINE - dt.timedelta(hours=1))  # both reminders due
        assert not [p for p in _posts(harness) if "must be issued and accepted" in p]
        admin_a = members(harness)["club admin"]
        challenge = await harness.command(
            "match challenge", user=admin_a, match=world.open_match, chesscom_match="12803"
        )
        assert "void (cl-dq)" in (challenge.reply.content or "").lower()
        first = harness.member("Director", user_id=DIRECTORS[0])
        forfeit = await harness.command(
            "vote open",
            user=first,
            kind="forfeit",
            reason="Removed a player",
            match=str(world.open_match),
            club="A",
        )
        assert forfeit.reply.ephemeral and "void (CL-DQ)" in (forfeit.reply.content or "")
        shown = await harness.command("match show", user=admin_a, match=world.open_match)
        assert "void (CL-DQ)" in shown.reply.text()
        calendar = await harness.command("season calendar", user=admin_a, season="Test season")
        ics = calendar.reply.uploads["calendar.ics"].decode("utf-8").replace("\r\n ", "")
        events = ics.split("BEGIN:VEVENT")[1:]
        open_event = next(e for e in events if "(match 5)" in e)
        assert "STATUS:CANCELLED" in open_event and "BEGIN:VALARM" not in open_event
        assert all("STATUS:CANCELLED" not in e for e in events if "(match 1)" in e)
        coming = calendar.reply.text()
        assert "A – D" not in coming
        await clock.advance_to(OPEN_START + dt.timedelta(hours=2))
        result = await harness.command(
            "match result",
            user=members(harness)["arbiter"],
            match=world.open_match,
            file=Upload("boards.csv", b"1,a1,d1,2,0\n"),
        )
        assert "void (CL-DQ): D disqualified" in result.reply.text(), result.reply.text()
        await clock.advance(dt.timedelta(0))
        [post] = [p for p in _posts(harness) if p.startswith("Result (entered by an arbiter)")]
        assert "2 – 0 **D** on the boards; void (CL-DQ)" in post, post


async def test_cl_15_the_match_option_takes_the_key_as_well_as_the_number(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """Issue 19 item 7: `/match show match:DO-1-1` (the key `/match list` shows) is the same
    match as its number; a key no season has is refused; a key two seasons share asks for
    the number or the season."""
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _clock):
        keyed = season(
            [match("DO-1-1", "A", "B", [("a1", "b1", 2)], division="Division One")],
            {"Division One": ["A", "B"]},
        )
        ids = await import_test_season(bot.database, {**keyed, "name": "Keyed"})
        player = members(harness)["player"]
        by_key = await harness.command("match show", user=player, match="do-1-1")
        by_number = await harness.command("match show", user=player, match=f"#{ids['DO-1-1']}")
        assert "DO-1-1" in by_key.reply.text()
        assert by_key.reply.text() == by_number.reply.text()
        unknown = await harness.command("match show", user=player, match="ZZ-9-9")
        assert unknown.reply.ephemeral and "No match 'ZZ-9-9'" in (unknown.reply.content or "")
        await import_test_season(bot.database, {**keyed, "name": "Keyed again"})
        shared = await harness.command("match show", user=player, match="DO-1-1")
        assert shared.reply.ephemeral and "2 seasons" in (shared.reply.content or "")
        scoped = await harness.command(
            "match show", user=player, match="DO-1-1", season="Keyed again"
        )
        assert "Keyed again" in scoped.reply.text()
