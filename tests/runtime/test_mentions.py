"""No unintended pings, no injected markdown: every bot message pings nobody unless it names
whom (a CL-15 reminder pings exactly the admins it reminds, also after a restart), and text a
user typed shows as typed. Checked on the payloads Discord receives (the harness records the
HTTP bodies, `allowed_mentions` included) through the real command tree and outbox."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.league.matches.jobs import deadline_of
from bot.rendering.common.user_text import BACKTICK_STANDIN, code_text, inline_code, user_text
from bot.rendering.league.division_view import DivisionView
from bot.rendering.league.standings_table import division_block
from bot.runtime.clock import VirtualClock
from core.league.standings import division_standings
from storage.league.clubs import name_key
from tests.support.automation_world import ANNOUNCEMENTS, CLUBS, ROMANIA_CHANNEL, T0, build_world
from tests.support.chesscom_fake import FakeChessCom
from tests.support.command_world import PENDING, CommandWorld, copy_world, league_bot, members
from tests.support.discord_harness import Post
from tests.support.discord_markdown import constructs, parse, shown

NO_PINGS = {"parse": []}
HOSTILE_REASON = "<@999> **x** @everyone"
BOLD = "**Bold** [x](http://e.com)"
BOLD_SHOWN = user_text(BOLD)
"""`BOLD` neutralised: Discord shows it as typed (no bold, no masked link)."""
NOTICE = 120


def outside_code(text: str) -> str:
    """`text` without its code blocks and inline code (where markdown is not rendered)."""
    return re.sub(r"`[^`]*`", "", re.sub(r"```.*?```", "", text, flags=re.DOTALL))


def embed_text(payload: dict[str, Any]) -> str:
    """Every text of a message's embeds: titles, descriptions, field names and values."""
    parts = []
    for embed in payload.get("embeds") or []:
        parts += [embed.get("title") or "", embed.get("description") or ""]
        for field in embed.get("fields") or []:
            parts += [field["name"], field["value"]]
    return "\n".join(parts)


def _as_typed(markdown: str, typed: str) -> bool:
    """Whether Discord shows `markdown` as exactly `typed` with no construct in it (the
    zero-width space that breaks `@everyone` aside)."""
    nodes = parse(markdown)
    return not constructs(nodes) and shown(nodes).replace("\u200b", "") == typed


def test_user_text_escapes_markdown_links_headings_and_mentions() -> None:
    """Typed text shows as typed: no markdown, masked link, heading, mention or ping."""
    for typed in (
        BOLD,
        "__u__ ~~s~~ ||sp|| `c`",
        "# Heading",
        "a\\b *c*",
        HOSTILE_REASON,
        "<@&123456789012345678>",
    ):
        assert _as_typed(user_text(typed), typed), typed
        assert constructs(parse(typed)), typed  # each is a construct when not escaped
    assert "@everyone" not in user_text(HOSTILE_REASON)


def test_code_text_keeps_everything_but_a_backtick_which_cannot_close_the_code() -> None:
    """Inside code nothing is escaped (a backslash would show); a backtick is a stand-in."""
    assert code_text(BOLD) == BOLD
    assert code_text("a```b") == "a" + BACKTICK_STANDIN * 3 + "b"
    assert len(code_text("x`y")) == 3  # one for one: monospace columns stay aligned
    assert inline_code("k`ey") == f"`k{BACKTICK_STANDIN}ey`"


def test_a_backtick_name_cannot_break_out_of_the_standings_code_block() -> None:
    """A club named with backticks stays inside the table's code block (CL-17 table)."""
    rows = division_standings(["```@everyone **x**```", "Plain"], [])
    view = DivisionView("S", "D", None, tuple(rows), ())
    [block] = division_block(view)
    assert block.count("```") == 2  # the table's own fences only
    table = block.split("```")[1]
    assert "\\" not in table  # no backslash inside code
    assert f"1= {BACKTICK_STANDIN * 3}@every" in table  # shortened, in the table as typed
    legend = block.split("```")[2]
    assert user_text("```@everyone **x**```") in legend and "**x**" not in legend


async def test_a_hostile_reject_reason_pings_nobody_and_shows_as_typed(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """A reason with a user mention, markdown and @everyone: the reply and the announcement
    ping nobody (allowed_mentions parse empty, no users) and show the text escaped."""
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, clock):
        hq = members(harness)["HQ"]
        outcome = await harness.command("club reject", user=hq, club=PENDING, reason=HOSTILE_REASON)
        await clock.advance(dt.timedelta(0))  # the outbox's pass
        reply = outcome.reply
        assert reply.data["allowed_mentions"] == NO_PINGS
        [announced] = [p for p in harness.posts if "rejected" in (p.content or "")]
        assert announced.channel_id == harness.channel("announcements")
        assert announced.payload["allowed_mentions"] == NO_PINGS
        for content in (reply.content or "", announced.content or ""):
            nodes = parse(content)
            assert HOSTILE_REASON in shown(nodes).replace("\u200b", "")
            assert all(n.kind == "strong" for n in constructs(nodes)), constructs(nodes)


def _rename(path: Path, old: str, new: str) -> None:
    connection = sqlite3.connect(path)
    try:
        with connection:
            changed = connection.execute(
                "UPDATE clubs SET name = ?, name_key = ? WHERE name = ?", (new, name_key(new), old)
            )
            assert changed.rowcount == 1
    finally:
        connection.close()


async def test_a_markdown_club_name_shows_literally_in_info_standings_and_announcements(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """A club named `**Bold** [x](http://e.com)`: /club info, the /standings embed and the
    reschedule announcement show the name escaped, never as bold or a masked link; our own
    bold around it stays."""
    path = copy_world(world_file, tmp_path)
    _rename(path, "A", BOLD)
    async with league_bot(path) as (_, harness, clock):
        cast = members(harness)
        info = (await harness.command("club info", user=cast["player"], club=BOLD)).replies[-1]
        info_text = embed_text(info.data)
        assert info.embeds[0]["title"] == BOLD_SHOWN
        standings = await harness.command("standings", user=cast["player"], season="Test season")
        table = embed_text(standings.reply.data)
        assert BOLD_SHOWN in outside_code(table)  # the legend
        code = table.split("```")[1]
        assert " 1 **Bold** [" in code and "\\" not in code  # in the table: as typed, shortened
        moved = await harness.command(
            "match reschedule",
            user=cast["director"],
            match=world_file[1].open_match,
            start="2026-04-08 18:00",
        )
        await clock.advance(dt.timedelta(0))
        assert "now starts" in (moved.reply.content or ""), moved.reply.content
        [announced] = [p for p in harness.posts if "now starts" in (p.content or "")]
        assert f"**{BOLD_SHOWN}** vs **D**" in (announced.content or "")
        for text in (info_text, outside_code(table), announced.content or ""):
            assert BOLD not in text
        for payload in (info.data, standings.reply.data, announced.payload):
            assert payload["allowed_mentions"] == NO_PINGS


def _reminders(posts: list[Post]) -> list[Post]:
    """The channel reminders, which open with their admins' mentions (their direct messages,
    issue 36, mention nobody)."""
    return [
        p
        for p in posts
        if "must be" in (p.content or "")
        and "CL-15" in (p.content or "")
        and (p.content or "").startswith("<@")
    ]


def _users(post: Post) -> list[int]:
    mentions = post.payload["allowed_mentions"]
    assert mentions["parse"] == []  # no @everyone, no roles, no users by text
    return [int(user) for user in mentions.get("users", [])]


async def test_cl15_reminders_ping_exactly_their_admins_also_after_a_restart(
    tmp_path: Path, fake: FakeChessCom
) -> None:
    """CL-15: each reminder pings exactly the admins of the club it reminds; a reminder still
    pending in the outbox when the bot stops (Discord answered 503) pings exactly them when
    the restarted bot sends it. Other posts ping nobody."""
    world = await build_world(tmp_path / "arbiter.db", fake)
    clock = VirtualClock(T0)
    async with world.bot(clock) as bot:
        await clock.advance(dt.timedelta(0))  # start-up sends (the season announcement)
        assert world.harness is not None
        first = min(m.start for m in await world.matches(bot.database))
        world.harness.answer_next("POST", 503, channel_id=ROMANIA_CHANNEL)  # retried in 2 s
        await clock.advance_to(deadline_of(first, NOTICE) - dt.timedelta(hours=48))
    before = _reminders(world.posts)
    async with world.bot(clock) as bot:
        await clock.advance(dt.timedelta(minutes=1))  # the retries fall due
    after = _reminders(world.posts)[len(before) :]
    assert len(before) == 3 and len(after) == 1  # Team Romania's waited for the restart
    admins = {name: sorted(ids) for name, (_, ids) in CLUBS.items()}
    for post in before + after:
        club = re.search(r"challenge of \*\*(.+?)\*\* vs", post.content or "")
        assert club is not None
        assert _users(post) == admins[club.group(1)]
        assert " ".join(f"<@{a}>" for a in admins[club.group(1)]) in (post.content or "")
    assert [p.channel_id for p in after] == [ROMANIA_CHANNEL]
    assert {p.channel_id for p in before} == {ANNOUNCEMENTS}
    others = [p for p in world.posts if p not in before + after]
    assert others and all(p.payload["allowed_mentions"] == NO_PINGS for p in others)


@pytest.mark.parametrize("users", [(), (5, 6)])
def test_pinging_allows_exactly_the_named_users(users: tuple[int, ...]) -> None:
    """A message pings whom it names and nobody else; no names: nobody."""
    from bot.kernel.mentions import pinging

    data = pinging(users).to_dict()
    assert data["parse"] == [] and data.get("users", []) == list(users)
