"""Bad options through the real tree: an unknown club, a match of another season, a date in
the past, a boards CSV with a wrong board, another guild's ids, empty / huge / control-character
text — each gives exactly one ephemeral line and the database file's dump is unchanged."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.command_world import (
    PENDING,
    SPRING,
    CommandWorld,
    dump,
    invoke,
    league_bot,
    members,
)
from tests.support.discord_harness import OTHER_GUILD_ID, DiscordHarness, Upload

Case = tuple[str, str, Callable[[CommandWorld, DiscordHarness], dict[str, Any]], str]
"""(command, role, options, a word the line must hold)."""

HEADER = "board,home_player,away_player,home_points,away_points\n"
CASES: dict[str, Case] = {
    "unknown club to a division": (
        "season club-add",
        "HQ",
        lambda w, h: {"season": SPRING, "division": "Premier Division", "club": "Nowhere FC"},
        "Nowhere FC",
    ),
    "unknown club to approve": ("club approve", "HQ", lambda w, h: {"club": "Nowhere"}, "Nowhere"),
    "unknown season": (
        "season schedule",
        "HQ",
        lambda w, h: {"season": "Winter 1999"},
        "Winter 1999",
    ),
    "a match of another season": (
        "match show",
        "player",
        lambda w, h: {"match": w.open_match, "season": SPRING},
        "season",
    ),
    "an unknown match": ("match accept", "club admin", lambda w, h: {"match": 99_999}, "99999"),
    "a season start in the past": (
        "season create",
        "HQ",
        lambda w, h: {"name": "Old", "first_round": "2001-01-01"},
        "in the past",
    ),
    "a reschedule into the past": (
        "match reschedule",
        "director",
        lambda w, h: {"match": w.open_match, "start": "2026-01-01 18:00"},
        "in the past",
    ),
    "not a date": (
        "season create",
        "HQ",
        lambda w, h: {"name": "Odd", "first_round": "next tuesday"},
        "YYYY-MM-DD",
    ),
    "a CSV with a board of no number": (
        "match result",
        "arbiter",
        lambda w, h: {
            "match": w.open_match,
            "file": Upload("boards.csv", (HEADER + "1,a1,d1,1,1\nx,a2,d2,2,0\n").encode()),
        },
        "line 3",
    ),
    "a CSV with a board twice": (
        "match result",
        "arbiter",
        lambda w, h: {
            "match": w.open_match,
            "file": Upload("boards.csv", (HEADER + "1,a1,d1,1,1\n1,a2,d2,2,0\n").encode()),
        },
        "line 3",
    ),
    "a CSV with points that are not halves": (
        "match result",
        "arbiter",
        lambda w, h: {
            "match": w.open_match,
            "file": Upload("boards.csv", (HEADER + "1,a1,d1,0.3,1.7\n").encode()),
        },
        "line 2",
    ),
    "a boards file that is not CSV": (
        "match result",
        "arbiter",
        lambda w, h: {"match": w.open_match, "file": Upload("boards.png", b"\x89PNG")},
        ".csv",
    ),
    "a season file that is not JSON": (
        "season import",
        "HQ",
        lambda w, h: {"file": Upload("season.json", b"{not json"), "name": "Broken"},
        "season",
    ),
    "an empty name": (
        "season create",
        "HQ",
        lambda w, h: {"name": "", "first_round": "2026-09-01"},
        "name",
    ),
    "a huge name": (
        "season create",
        "HQ",
        lambda w, h: {"name": "S" * 5000, "first_round": "2026-09-01"},
        "name",
    ),
    "a name with control characters": (
        "season create",
        "HQ",
        lambda w, h: {"name": "Spring\x00\x1b[2J", "first_round": "2026-09-01"},
        "name",
    ),
    "a reason with control characters": (
        "club reject",
        "HQ",
        lambda w, h: {"club": PENDING, "reason": "no\x07\x00"},
        "reason",
    ),
    "a huge reason": (
        "club reject",
        "HQ",
        lambda w, h: {"club": PENDING, "reason": "r" * 10_000},
        "reason",
    ),
    "a division name of control characters": (
        "season division-add",
        "HQ",
        lambda w, h: {"season": SPRING, "name": "\x1b\x1b", "min_players": 3},
        "name",
    ),
    "not a chess.com match": (
        "match challenge",
        "club admin",
        lambda w, h: {"match": w.open_match, "chesscom_match": "twelve"},
        "chess.com",
    ),
}


async def _one_line(
    source: Path, world: CommandWorld, tmp_path: Path, case: Case, guild_id: int | None = None
) -> str:
    command, role, options, word = case
    path = tmp_path / "league.db"
    shutil.copy(source, path)
    async with league_bot(path) as (_, harness, _clock):
        user = members(harness)[role]
        if guild_id is not None:
            user = harness.member(user_id=user.id, guild_id=guild_id)
        before = dump(path)
        outcome = await invoke(harness, command, user, options(world, harness))
        after = dump(path)
    assert len(outcome.replies) == 1, outcome.replies
    text = outcome.reply.content or ""
    assert outcome.reply.ephemeral and text and "\n" not in text.strip(), text
    assert len(text) <= 300, text
    assert "\x00" not in text and "\x1b" not in text and "\x07" not in text, repr(text)
    assert "Traceback" not in text
    assert word.lower() in text.lower(), f"{text!r} does not say {word!r}"
    assert not outcome.posts
    assert after == before
    return text


@pytest.mark.parametrize("name", sorted(CASES))
async def test_a_bad_option_is_one_ephemeral_line_and_writes_nothing(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, name: str
) -> None:
    source, world = world_file
    await _one_line(source, world, tmp_path, CASES[name])


@pytest.mark.parametrize(
    "case",
    [
        ("match show", "player", lambda w, h: {"match": w.open_match}, "match"),
        ("match accept", "club admin", lambda w, h: {"match": w.to_accept}, "match"),
        ("vote cast", "player", lambda w, h: {"motion": w.motion, "choice": "yes"}, "motion"),
        ("season show", "player", lambda w, h: {"season": "Test season"}, "season"),
        ("club info", "player", lambda w, h: {"club": "A"}, "club"),
    ],
    ids=["match show", "match accept", "vote cast", "season show", "club info"],
)
async def test_another_guilds_ids_are_unknown_here(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, case: Case
) -> None:
    """The same ids and names from the other guild find nothing (and write nothing)."""
    source, world = world_file
    await _one_line(source, world, tmp_path, case, guild_id=OTHER_GUILD_ID)
