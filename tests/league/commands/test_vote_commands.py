"""CL-23 through the real command tree and real component clicks: `/vote open`, the persistent
Yes / No buttons, closing early, at the deadline, and after a restart."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness, Post
from tests.support.motion_world import (
    START,
    directors,
    import_test_season,
    league_json,
    league_ready,
    running_bot,
    set_up,
    table,
)


def _message(harness: DiscordHarness, motion_id: int) -> Post:
    """The motion message as Discord holds it now (the latest edit)."""
    found = [
        p
        for p in harness.sent.values()
        if any(f"motion:{motion_id}:yes" in str(row) for row in p.payload.get("components", []))
    ]
    assert len(found) == 1, found
    return found[0]


def _buttons(post: Post) -> list[tuple[str, bool]]:
    return [
        (b["custom_id"], bool(b.get("disabled")))
        for row in post.payload["components"]
        for b in row["components"]
    ]


async def _motion_status(database: Database, motion_id: int) -> tuple[str, dict[int, bool]]:
    async with GuildStore(database, DEFAULT_GUILD_ID).read() as view:
        motion = await view.motions.get(motion_id)
    assert motion is not None
    return motion.status, motion.votes


async def _open(harness: DiscordHarness, user: object, **options: object) -> int:
    reply = await harness.command("vote open", user=user, **options)  # type: ignore[arg-type]
    assert reply.ephemeral and "is open" in (reply.content or ""), reply.content
    return int((reply.content or "").split()[1])


async def test_cl_23_forfeit_with_three_directors_changing_votes_passes_and_changes_standings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        d1, d2, d3 = directors(harness, 3)
        before = table(await league_json(bot.database, tmp_path, capsys, "2026-03-02"))
        motion = await _open(
            harness, d1, kind="forfeit", match=ids["3"], club="A", reason="Removed a1 for no reason"
        )
        post = _message(harness, motion)
        assert post.channel_id == harness.channel("general")
        shown = str(post.payload["embeds"])
        for d in (d1, d2, d3):
            assert f"<@{d.id}>: not voted" in shown
        assert "<t:" in shown and ":R>" in shown  # the deadline with a countdown
        assert _buttons(post) == [(f"motion:{motion}:yes", False), (f"motion:{motion}:no", False)]

        # d1 votes no, changes to yes (no split: nobody else voted yet), then double-clicks.
        await harness.click(f"motion:{motion}:no", user=d1, message_id=post.message_id)
        assert f"<@{d1.id}>: no" in str(_message(harness, motion).payload["embeds"])
        first = await harness.click(f"motion:{motion}:yes", user=d1, message_id=post.message_id)
        again = await harness.click(f"motion:{motion}:yes", user=d1, message_id=post.message_id)
        assert first.ephemeral and "Your vote" in (first.content or "")
        assert again.ephemeral and "already voted yes" in (again.content or "")
        await harness.click(f"motion:{motion}:yes", user=d2, message_id=post.message_id)
        assert await _motion_status(bot.database, motion) == ("open", {d1.id: True, d2.id: True})
        assert "1 not voted" in str(_message(harness, motion).payload["embeds"])

        last = await harness.command("vote cast", user=d3, motion=motion, choice="yes")
        assert "closed: passed" in (last.content or "")
        assert (await _motion_status(bot.database, motion))[0] == "passed"
        closed = _message(harness, motion)
        assert closed.edited and all(disabled for _, disabled in _buttons(closed))
        announced = [
            p.content or "" for p in last.posts if p.channel_id == harness.channel("announcements")
        ]
        assert any(
            "passed" in a and "A forfeits match" in a and "Standings:" in a for a in announced
        )

        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            [decision] = [
                d for s in await view.seasons.all() for d in await view.decisions.of_season(s.id)
            ]
            actions = [e.action for e in await view.audit.recent(50)]
        assert (decision.kind, decision.motion_id, decision.rule) == ("forfeit", motion, "CL-21")
        assert (
            actions.count("motion.vote") == 4
        )  # no, yes, yes, yes: the double click wrote nothing
        after = table(await league_json(bot.database, tmp_path, capsys, "2026-03-02"))
        assert after != before and after["A"][1] < before["A"][1]

        late = await harness.click(f"motion:{motion}:no", user=d1, message_id=post.message_id)
        assert late.ephemeral and "closed" in (late.content or "")
        assert (await _motion_status(bot.database, motion))[1][d1.id] is True


async def test_cl_23_five_directors_a_split_closes_early_with_no_decision(tmp_path: Path) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        five = directors(harness, 5)
        stranger = harness.member(name="player")
        motion = await _open(
            harness, five[0], kind="forfeit", match=ids["4"], club="B", reason="Split"
        )
        post = _message(harness, motion)
        refused = await harness.click(
            f"motion:{motion}:yes", user=stranger, message_id=post.message_id
        )
        assert refused.ephemeral and "Only the directors" in (refused.content or "")
        await harness.click(f"motion:{motion}:yes", user=five[0], message_id=post.message_id)
        await harness.click(f"motion:{motion}:yes", user=five[1], message_id=post.message_id)
        assert (await _motion_status(bot.database, motion))[0] == "open"
        split = await harness.click(f"motion:{motion}:no", user=five[2], message_id=post.message_id)
        assert "no decision" in (split.content or "")
        assert await _motion_status(bot.database, motion) == (
            "no-decision",
            {five[0].id: True, five[1].id: True, five[2].id: False},
        )
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            assert not [
                d for s in await view.seasons.all() for d in await view.decisions.of_season(s.id)
            ]


async def test_cl_23_rejected_motion_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        await league_ready(bot, harness)
        three = directors(harness, 3)
        before = await league_json(bot.database, tmp_path, capsys, "2026-03-02")
        motion = await _open(
            harness,
            three[0],
            kind="disqualify",
            season="Test season",
            club="B",
            rule="CL-18",
            reason="Multi-team players kept",
        )
        post = _message(harness, motion)
        for d in three:
            await harness.click(f"motion:{motion}:no", user=d, message_id=post.message_id)
        assert (await _motion_status(bot.database, motion))[0] == "rejected"
        assert await league_json(bot.database, tmp_path, capsys, "2026-03-02") == before


async def test_cl_23_deadline_closes_with_no_decision_and_nothing_changes(tmp_path: Path) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        _, ids = await league_ready(bot, harness)
        five = directors(harness, 5)
        motion = await _open(harness, five[0], kind="forfeit", match=ids["1"], club="A", reason="x")
        post = _message(harness, motion)
        for d in five[:2]:
            await harness.click(f"motion:{motion}:yes", user=d, message_id=post.message_id)
        await clock.advance(dt.timedelta(hours=71))
        assert (await _motion_status(bot.database, motion))[0] == "open"
        await clock.advance(dt.timedelta(hours=1))
        assert bot.outbox is not None
        await bot.outbox.drained()
        assert (await _motion_status(bot.database, motion))[0] == "no-decision"
        assert all(disabled for _, disabled in _buttons(_message(harness, motion)))


async def test_cl_23_buttons_persist_across_a_restart_and_a_missed_deadline_closes_once(
    tmp_path: Path,
) -> None:
    clock = VirtualClock(START)
    path = tmp_path / "arbiter.db"
    async with running_bot(path, clock) as (bot, first):
        await set_up(first)
        ids = await import_test_season(bot.database)
        three = directors(first, 3)
        motion = await _open(first, three[0], kind="forfeit", match=ids["3"], club="C", reason="x")
        later = await _open(first, three[0], kind="other", reason="Adopt the new logo")
        message = _message(first, motion).message_id
        await first.click(f"motion:{motion}:yes", user=three[0], message_id=message)
    async with running_bot(path, clock, previous=first) as (bot, second):
        directors_again = three
        from tests.support.motion_world import seat

        seat(second, directors_again)
        for d in three[1:]:
            reply = await second.click(f"motion:{motion}:yes", user=d, message_id=message)
            assert "Your vote" in (reply.content or "")
        assert (await _motion_status(bot.database, motion))[0] == "passed"
        second_state = second
    clock_later = VirtualClock(START + dt.timedelta(hours=100))
    async with running_bot(path, clock_later, previous=second_state) as (bot, third):
        assert bot.outbox is not None
        await bot.outbox.drained()
        assert (await _motion_status(bot.database, later))[0] == "no-decision"
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            recent = await view.audit.recent(100)
        # The closing is audited with its job's end (the `vote.close` job's unit of work).
        closes = [e for e in recent if e.action == "job.done" and "outcome" in e.details]
        assert [(e.details["kind"], e.details["motion"]) for e in closes] == [("vote.close", later)]
        assert closes[0].details["outcome"] == "no-decision"
        assert all(disabled for _, disabled in _buttons(_message(third, later)))


async def test_cl_8_promotion_button_opens_the_division_makeup_motion(tmp_path: Path) -> None:
    import discord

    from bot.app.ui.motion_buttons import DivisionMakeupButton

    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        await league_ready(bot, harness)
        three = directors(harness, 3)
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(None, "t", "s") as uow:
            season = await uow.seasons.by_name("Test season")
            assert season is not None  # CL-1: its divisions cut-off is past
            await uow.seasons.set_cutoff(season.id, START.date() - dt.timedelta(days=1))
        view_ = discord.ui.View(timeout=None)
        view_.add_item(DivisionMakeupButton(season.id))
        channel = bot.get_channel(harness.channel("general"))
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("CL-8 proposal", view=view_)
        player = harness.member(name="player")
        refused = await harness.click(f"makeup:{season.id}", user=player, message_id=sent.id)
        assert refused.ephemeral and "director" in (refused.content or "")
        reply = await harness.click(f"makeup:{season.id}", user=three[0], message_id=sent.id)
        assert reply.ephemeral and "is open" in (reply.content or "")
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            [motion] = await view.motions.recent()
        assert (
            motion.kind == "division-makeup"
            and motion.subject["next_season"] == "Test season (next)"
        )
        again = await harness.click(f"makeup:{season.id}", user=three[1], message_id=sent.id)
        assert again.ephemeral and "put to the vote once" in (again.content or "")


async def test_cl_23_without_the_members_intent_opening_is_refused_with_how_to(
    tmp_path: Path,
) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        await league_ready(bot, harness)
        three = directors(harness, 3)
        bot._connection._intents.members = False
        reply = await harness.command("vote open", user=three[0], kind="other", reason="x")
        assert reply.ephemeral and "Server Members intent" in (reply.content or "")
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            assert await view.motions.recent() == []


async def test_vote_autocomplete_offers_the_guilds_motions(tmp_path: Path) -> None:
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        await league_ready(bot, harness)
        three = directors(harness, 3)
        motion = await _open(harness, three[0], kind="other", reason="Adopt the logo")
        choices = await harness.autocomplete(
            "vote cast", user=three[0], focused="motion", motion=motion
        )
        assert [c["value"] for c in choices] == [motion]
        clubs = await harness.autocomplete(
            "vote open", user=three[0], focused="club", kind="forfeit", reason="x", club=""
        )
        assert {c["value"] for c in clubs} == {"A", "B", "C", "D"}


async def test_vote_open_autocompletes_clubs_seasons_and_matches_as_the_other_commands_do(
    tmp_path: Path,
) -> None:
    """`/vote open`'s club, season and match options offer what `/club info`, `/season show`
    and `/match show` offer (one ranking, bot/app/autocomplete/league.py, not a second copy)."""
    clock = VirtualClock(START)
    async with running_bot(tmp_path / "a.db", clock) as (bot, harness):
        await league_ready(bot, harness)
        [director] = directors(harness, 1)
        for option, other, typed in (
            ("club", "club info", ""),
            ("season", "season show", ""),
            ("match", "match show", 1),
        ):
            offered = await harness.autocomplete(
                "vote open",
                user=director,
                focused=option,
                kind="other",
                reason="x",
                **{option: typed},
            )
            expected = await harness.autocomplete(
                other, user=director, focused=option, **{option: typed}
            )
            assert offered and offered == expected, option
