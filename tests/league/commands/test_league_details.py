"""Issue 19's smaller items through the real command tree: `/roster check` counts games (a
board is two, CL-14), the standings embed shows DE when direct encounter decided a place
(CL-17), and the schedule preview names each round's club without a match (CL-12)."""

from __future__ import annotations

from pathlib import Path

from tests.support.cl_seasons import match, season
from tests.support.command_world import SPRING, CommandWorld, copy_world, league_bot, members
from tests.support.motion_world import import_test_season


async def test_cl_14_roster_check_counts_games_not_boards(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-14: a1 played a board (two games) in each of A's two played matches: 4 games."""
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, _clock):
        checked = await harness.command(
            "roster check", user=members(harness)["player"], club="A", season="Test season"
        )
        text = "\n".join(reply.text() for reply in checked.replies)
        assert "a1 · 4 games" in text and "a2 · 2 games" in text, text


RESULTS = {"AB": 2, "AC": 2, "AD": 1, "BC": 1, "BD": 2, "CD": 0}
DE_SEASON = season(
    [
        match(
            p,
            p[0],
            p[1],
            [(f"{p[0].lower()}{b}", f"{p[1].lower()}{b}", pts) for b in range(30)],
            week=i + 1,
            division="Q",
        )
        for i, (p, pts) in enumerate(RESULTS.items())
    ],
    {"Q": ["A", "B", "C", "D"]},
)
"""B and D tie on 1½ match points and SB 1¾; B beat D: direct encounter decides 2nd place.
Thirty boards a match make the game points wide enough that not every column fits a row."""


async def test_cl_17_the_standings_embed_shows_de_when_it_decided_a_place(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _clock):
        await import_test_season(bot.database, {**DE_SEASON, "name": "Ties"})
        shown = await harness.command("standings", user=members(harness)["player"], season="Ties")
        table = shown.reply.embeds[0]["description"]
        header = next(line for line in table.splitlines() if line.startswith("Rk"))
        assert "DE" in header.split(), table


async def test_cl_12_the_schedule_preview_names_the_club_without_a_match(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-12: Spring's division with three clubs: one is idle each round, and the preview
    says which."""
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, _clock):
        hq = members(harness)["HQ"]
        await harness.command(
            "season club-add", user=hq, season=SPRING, division="Premier Division", club="C"
        )
        preview = await harness.command("season schedule", user=hq, season=SPRING)
        text = preview.reply.text()
        assert text.count("no match:") == 3, text
        assert all(f"no match: {club} (CL-12)" in text for club in ("A", "B", "C"))
