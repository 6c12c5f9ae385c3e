"""User text through the real command tree (issue 20, items 1 and 2): clubs, a season and a
division named with Discord's syntax, and hostile reasons and CSV values, in replies, embeds,
announcements and refusals — Discord shows them as typed and finds no link, mention,
timestamp, command or formatting that is not the bot's own; and the one name gate refuses
invisible characters and look-alikes at every door (commands, season files, boards CSVs).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from core.names import name_key
from tests.support.cl_seasons import season
from tests.support.command_world import (
    DIRECTORS,
    PENDING,
    SPRING,
    CommandWorld,
    copy_world,
    dump,
    league_bot,
    members,
)
from tests.support.discord_harness import DEFAULT_GUILD_ID, Upload
from tests.support.discord_markdown import Node, constructs, parse, shown

CLUBS = {
    "A": "[Gunners](https://chess.com) **Official** [Free Nitro](https://evil.example) Fans",
    "B": "<t:0:R> <#1> </vote open:1> @everyone",
    "C": "# Heading _x_ ~~s~~ ||sp|| `c`",
    "D": "> quote <@999> <:e:1> https://evil.example/b",
}
SEASON = "**S** [l](http://x.example) <@&1>"
DIVISION = "-# sub __u__"
REASON = "[click](https://evil.example) <t:0:R> @here"
FOREIGN = {"link", "url", "timestamp", "user", "role", "channel", "command", "emoji", "guild"}
JUMP_LINK = re.compile(rf"https://discord\.com/channels/{DEFAULT_GUILD_ID}/[0-9]+")
"""The link to a channel of the guild that a direct message ends with (issue 36): the bot's."""


def _rename(path: Path) -> None:
    connection = sqlite3.connect(path)
    try:
        with connection:
            for old, new in CLUBS.items():
                connection.execute(
                    "UPDATE clubs SET name = ?, name_key = ? WHERE name = ?",
                    (new, name_key(new), old),
                )
            connection.execute(
                "UPDATE seasons SET name = ?, name_key = ? WHERE name = 'Test season'",
                (SEASON, name_key(SEASON)),
            )
            connection.execute("UPDATE divisions SET name = ? WHERE name = 'P'", (DIVISION,))
    finally:
        connection.close()


def _texts(payload: dict[str, Any]) -> list[str]:
    texts = [payload.get("content") or ""]
    for embed in payload.get("embeds") or []:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [f["name"] for f in embed.get("fields") or []]
        texts += [f["value"] for f in embed.get("fields") or []]
    return [t for t in texts if t]


def _foreign(node: Node) -> bool:
    """A construct the bot did not make: the hostile names' links, ids and pings."""
    if node.kind in ("everyone", "here", "heading", "subtext", "quote", "spoiler", "strike"):
        return True
    if node.kind in ("link", "url"):  # a club's page, or a direct message's jump link
        return "chess.com/club/" not in node.value and not JUMP_LINK.fullmatch(node.value)
    if node.kind == "timestamp":
        return node.value in ("0", "-1")
    if node.kind in ("user", "role", "channel"):
        return node.value in ("1", "999")
    return node.kind in FOREIGN - {"link", "url", "timestamp", "user", "role", "channel"}


async def test_hostile_names_show_as_typed_in_replies_embeds_posts_and_refusals(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """Every message of a dozen commands that show the names (and refusals that quote them):
    no foreign construct anywhere; each name shows, as typed, somewhere."""
    path = copy_world(world_file, tmp_path)
    _rename(path)
    world = world_file[1]
    async with league_bot(path) as (_, harness, clock):
        cast = members(harness)
        player, hq, director = cast["player"], cast["HQ"], cast["director"]
        outcomes = [
            await harness.command("club list", user=player),
            await harness.command("club info", user=player, club=CLUBS["A"]),
            await harness.command("standings", user=player, season=SEASON),
            await harness.command("match show", user=player, match=world.open_match),
            await harness.command("match list", user=player, season=SEASON),
            await harness.command("season show", user=player, season=SEASON),
            await harness.command("season calendar", user=player, season=SEASON),
            await harness.command("season promotion", user=player, season=SEASON),
            await harness.command("season create", user=hq, name=SEASON, first_round="2026-09-05"),
            await harness.command("club reject", user=hq, club=PENDING, reason=REASON),
            await harness.command(
                "season club-add", user=hq, season=SPRING, division="Premier Division",
                club=CLUBS["B"],
            ),
            await harness.command(
                "match reschedule", user=director, match=world.open_match,
                start="2026-04-08 18:00",
            ),
            await harness.command(
                "match result",
                user=cast["arbiter"],
                match=world.open_match,
                file=Upload("boards.csv", b"1,@everyone,[x](https://evil.example),1,1\n"),
            ),
        ]  # fmt: skip
        await clock.advance(dt.timedelta(0))  # the outbox sends the announcements
        payloads = [reply.data for outcome in outcomes for reply in outcome.replies]
        payloads += [post.payload for post in harness.posts]
    seen_text = []
    for payload in payloads:
        for text in _texts(payload):
            nodes = parse(text)
            foreign = [node for node in constructs(nodes) if _foreign(node)]
            assert not foreign, (text, foreign)
            seen_text.append(shown(nodes).replace("\u200b", ""))
    assert len(payloads) >= 15 and len(seen_text) >= 30, (len(payloads), len(seen_text))
    everything = "\n".join(seen_text)
    for name in [*CLUBS.values(), SEASON, DIVISION, REASON]:
        assert name in everything, name
    assert "'@everyone'" in everything  # the CSV refusal quotes the value, as typed


async def test_the_name_gate_refuses_invisibles_at_every_door(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """Issue 20: U+202E, U+2060 and U+FEFF passed the commands' checks and /season import
    skipped them (a 6000-character name, an RTL override, an invisible `B\\u2060` that looks
    exactly like club `B`). Each door now refuses them privately and stores nothing;
    look-alikes by compatibility are one name (a full-width `Ｓｐｒｉｎｇ` is Spring)."""
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, _clock):
        hq = members(harness)["HQ"]
        before = dump(path)
        refused = []
        for name in ("\ufeffCL 2017", "CL\u20602017", "A\u202eB", "x" * 6000):
            refused.append(
                await harness.command("season create", user=hq, name=name, first_round="2026-09-05")
            )
        refused.append(
            await harness.command(
                "season create", user=hq, name="Ｓｐｒｉｎｇ", first_round="2026-09-05"
            )
        )
        for clubs in (["B\u2060", "Q"], ["A\u202eB", "Q"], ["x" * 6000, "Q"]):
            data = season([], {"P": clubs})
            data["name"] = "Imported"
            refused.append(
                await harness.command(
                    "season import", user=hq, file=Upload("s.json", json.dumps(data).encode())
                )
            )
        long_name = season([], {"P": ["Q", "R"]})
        long_name["name"] = "S" * 6000
        refused.append(
            await harness.command(
                "season import", user=hq, file=Upload("s.json", json.dumps(long_name).encode())
            )
        )
        after = dump(path)
    for outcome in refused:
        assert len(outcome.replies) == 1 and outcome.reply.ephemeral, outcome.replies
        text = outcome.reply.text()
        assert "error id" not in text and len(text) <= 400, text
    assert "exists already" in refused[4].reply.text()  # Ｓｐｒｉｎｇ is Spring
    assert after == before


TWO_LINKS = "[Gunners](https://chess.com) **Official** [Free Nitro](https://evil.example) <t:0:R>"
"""Issue 20's leak: discord.py's escaping freed the second of two masked links."""


async def test_notes_reasons_and_titles_show_two_masked_links_as_typed(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """Issue 20: the second masked link of a roster note (`/roster removals`), a motion's
    reason and title (its post, `/vote show`, `/vote list`) showed clickable. Through the tree
    now: no link, timestamp or bold that is not the bot's own, and the text as typed."""
    path = copy_world(world_file, tmp_path)
    world = world_file[1]
    async with league_bot(path) as (_, harness, clock):
        cast = members(harness)
        removed = await harness.command(
            "roster remove", user=cast["club admin"], club="A", player="a1", reason="other",
            note=TWO_LINKS,
        )  # fmt: skip
        assert "Motion #" in removed.replies[-1].text(), removed.replies
        first = harness.member("Director", user_id=DIRECTORS[0])
        opened = await harness.command(
            "vote open", user=first, kind="forfeit", match=str(world.open_match), club="A",
            reason=TWO_LINKS,
        )  # fmt: skip
        assert "is open" in opened.reply.text(), opened.reply.text()
        motion = int(opened.reply.text().split()[1])
        await clock.advance(dt.timedelta(0))  # the outbox posts the motions
        outcomes = [
            removed,
            opened,
            await harness.command("roster removals", user=cast["player"], club="A"),
            await harness.command("vote show", user=first, motion=motion),
            await harness.command("vote list", user=first),
        ]
        groups = [[reply.data for reply in outcome.replies] for outcome in outcomes]
        groups.append([post.payload for post in harness.posts])
    shown_by = []
    for payloads in groups:
        seen_text = []
        for text in (text for payload in payloads for text in _texts(payload)):
            nodes = parse(text)
            foreign = [node for node in constructs(nodes) if _foreign(node)]
            assert not foreign, (text, foreign)
            seen_text.append(shown(nodes).replace("\u200b", ""))
        shown_by.append("\n".join(seen_text))
    listed, show, posts = shown_by[2], shown_by[3], shown_by[5]
    assert TWO_LINKS in listed and TWO_LINKS in show, (listed, show)  # the note, the reason
    assert TWO_LINKS in posts, posts  # the motions' posts in the directors' channel


async def test_a_correct_result_motion_with_a_board_past_any_number_never_opens(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """Issue 20: a correct-result motion carrying board 10³⁰ opened, passed and announced
    "Not applied: the action failed (OverflowError …)". Its boards are read when it opens:
    one private line, no motion; so are look-alike usernames and one player on two boards."""
    path = copy_world(world_file, tmp_path)
    world = world_file[1]
    files = {
        "1" + "0" * 30 + ",a1,d1,1,1\n": "board",
        "1,\u04301,d1,1,1\n": "not a chess.com username",  # Cyrillic а
        "1,ａ1,d1,1,1\n": "not a chess.com username",  # full-width ａ
        "1,a1,d1,1,1\n2,A1,d2,1,1\n": "a player plays one board",
    }
    async with league_bot(path) as (_, harness, _clock):
        first = harness.member("Director", user_id=DIRECTORS[0])
        before = dump(path)
        for csv_text, words in files.items():
            opened = await harness.command(
                "vote open", user=first, kind="correct-result", match=str(world.played_match),
                reason="Wrong way round", boards=Upload("boards.csv", csv_text.encode()),
            )  # fmt: skip
            assert len(opened.replies) == 1 and opened.reply.ephemeral, opened.replies
            text = opened.reply.text()
            assert words in text and "error id" not in text and "\n" not in text, text
            assert not opened.posts
        assert dump(path) == before


async def test_a_season_file_with_a_number_past_any_column_is_one_private_line(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """Issue 20, item 3 at the `/season import` door: a whole number of the file beyond 2⁵³
    (a division's minimum of players 10³⁰, a club's members at start, a rule's hours, a
    forged 2⁶³) ended in SQLite's OverflowError and an error id. One private line naming
    the key; nothing stored."""
    path = copy_world(world_file, tmp_path)
    huge: list[dict[str, Any]] = []
    for value in (10**30, 2**63, 2**53 + 1, 1e30):
        data = season([], {"P": ["Q", "R"]})
        data["divisions"][0]["min_players"] = value
        huge.append(data)
    at_start = season([], {"P": ["Q", "R"]})
    at_start["matches"] = [
        {"id": "1", "division": "P", "round": 1, "home": "Q", "away": "R",
         "start": "2026-04-01T18:00:00Z", "at_start": {"Q": {"members": 10**30}}}
    ]  # fmt: skip
    rules = season([], {"P": ["Q", "R"]})
    rules["rules"] = {"challenge_deadline_hours": 10**30}
    huge += [at_start, rules]
    async with league_bot(path) as (_, harness, _clock):
        hq = members(harness)["HQ"]
        before = dump(path)
        for number, data in enumerate(huge):
            data["name"] = f"Imported {number}"
            outcome = await harness.command(
                "season import", user=hq, file=Upload("s.json", json.dumps(data).encode())
            )
            assert len(outcome.replies) == 1 and outcome.reply.ephemeral, outcome.replies
            text = outcome.reply.text()
            assert "error id" not in text and "\n" not in text, text
            assert "not valid" in text, text
        assert dump(path) == before
