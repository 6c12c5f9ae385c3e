"""Issue 19, the season life cycle and strict season files through the real command tree
(CL-1, CL-8, CL-17, CL-23): a season all decided is finished and a newer one being set up
does not become the default; the CL-8 proposal comes from the standings as at a passed
cut-off, frees a withdrawn club's place and leaves a tie across a line to the directors;
`as_of` not over yet is as at now; `/season import` refuses a file lowering the CL-23 floor
or holding a typo, and takes the bot's own export of a season whose division has no club."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from storage.guild import GuildStore
from tests.support.cl_seasons import match, season
from tests.support.command_world import (
    DIRECTORS,
    SEASON_FILE,
    CommandWorld,
    copy_world,
    dump,
    league_bot,
    members,
)
from tests.support.discord_harness import DEFAULT_GUILD_ID, Upload
from tests.support.discord_markdown import parse, shown
from tests.support.motion_world import import_test_season


async def test_cl_1_a_decided_season_is_finished_and_a_new_one_is_not_the_default(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-1: a season whose every match is decided shows as finished; the Test season, still
    running, stays the season of club A's commands without `season` — not Spring, which is
    newer but only being set up (`/roster remove` used to land there, "no match left")."""
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _clock):
        done = season(
            [match("1", "A", "B"), match("2", "C", "D", division="Q")],
            {"P": ["A", "B"], "Q": ["C", "D"]},
        )
        await import_test_season(bot.database, {**done, "name": "Done"})
        hq = members(harness)["HQ"]
        shown = await harness.command("season show", user=hq, season="Done")
        assert "finished" in shown.reply.text()
        running = await harness.command("season show", user=hq, season="Test season")
        assert "running" in running.reply.text()
        admin_a = members(harness)["club admin"]
        removed = await harness.command(
            "roster remove", user=admin_a, club="A", player="a2", reason="other"
        )
        assert not removed.reply.ephemeral, removed.reply.text()
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            test_season = await view.seasons.by_name("Test season")
            assert test_season is not None
            assert [r.username for r in await view.rosters.removals(test_season.id)] == ["a2"]
        info = await harness.command("club info", user=admin_a, club="A")
        assert "P (Test season)" in info.replies[-1].text()  # after the defer


TWO_DIVISIONS = season(
    [
        match("T-1", "A", "B", [("a1", "b1", 2)], week=1, division="Top"),
        match("T-2", "A", "C", [("a1", "c1", 2)], week=2, division="Top"),
        match("T-3", "B", "C", [("b1", "c1", 1)], week=3, division="Top"),
        match("L-1", "D", "E", [("d1", "e1", 2)], week=1, division="Low"),
        match("L-2", "D", "F", [("d1", "f1", 2)], week=2, division="Low"),
        # After the cut-off: F beats E, which the proposal must not see.
        match("L-3", "F", "E", [("f1", "e1", 2)], week=20, division="Low"),
    ],
    {"Top": ["A", "B", "C"], "Low": ["D", "E", "F"]},
    rules={"promoted": 1, "divisions_cutoff": "2017-11-30"},
)
"""Top: A wins both, B and C draw (tied on match points, SB and DE: the tie stands). Low: D
wins both by the cut-off; F's win over E comes after it."""


async def test_cl_8_the_proposal_is_as_at_the_cutoff_frees_withdrawn_places_and_leaves_ties(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-1, CL-8, CL-17: `/season promotion` proposes from the standings as at the cut-off;
    HQ's `/season withdraw` of E frees its place; B and C, tied on the relegation line, are
    marked "tie stands — the directors decide" (not ordered by name), and the make-up motion
    needs the directors' order (`tie_order`) before it opens."""
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _clock):
        await import_test_season(bot.database, {**TWO_DIVISIONS, "name": "Two"})
        hq = members(harness)["HQ"]
        withdrawn = await harness.command("season withdraw", user=hq, season="Two", club="E")
        assert "will not continue" in (withdrawn.reply.content or "")
        twice = await harness.command("season withdraw", user=hq, season="Two", club="E")
        assert twice.reply.ephemeral and "withdrawn already" in (twice.reply.content or "")
        shown = await harness.command(
            "season promotion", user=members(harness)["player"], season="Two"
        )
        text = shown.reply.text()
        assert "as at the cut-off, 2017-11-30" in text
        assert "B, C share rank 2 of Top across the line" in text
        assert "tie stands — the directors decide" in text
        assert "Withdrawn: E" in text
        first = harness.member("Director", user_id=DIRECTORS[0])
        options: dict[str, Any] = {"kind": "division-makeup", "reason": "CL-8", "season": "Two"}
        refused = await harness.command("vote open", user=first, **options)
        assert refused.reply.ephemeral and "tie_order" in (refused.reply.content or "")
        opened = await harness.command("vote open", user=first, **options, tie_order="C, B")
        assert "is open" in (opened.reply.content or ""), opened.reply.content
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            [motion] = await view.motions.recent("open", 1)
        divisions = {name: clubs for name, clubs, _ in motion.subject["divisions"]}
    # C ranked above B by the directors: B goes down; D comes up; E's place is freed.
    assert divisions == {"Top": ["A", "C", "D"], "Low": ["B", "F"]}


async def test_cl_1_standings_as_of_a_day_not_over_are_as_at_now(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-1: `/standings as_of:9999-12-31` used to judge every deadline not yet due as
    missed (every club DQ); a day not over is shown as at now, and says so (a day past the
    window of dates, as 9999-12-31, is now refused: issue 20)."""
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, clock):
        player = members(harness)["player"]
        now = await harness.command("standings", user=player, season="Test season")
        ahead = (clock() + dt.timedelta(days=400)).date().isoformat()
        later = await harness.command("standings", user=player, season="Test season", as_of=ahead)
        assert f"as at now ({ahead} is not over yet)" in later.reply.text()
        assert "DQ" not in later.reply.text()
        assert later.reply.embeds[0]["description"] == now.reply.embeds[0]["description"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.setdefault("rules", {}).update(vote_quorum=1), "rules.vote_quorum: 1 is"),
        (lambda d: d["matches"][4].update(board=[]), "matches[4].board: unknown key"),
        (
            lambda d: d["matches"][4].update(start="9999-12-31T18:00:00Z"),
            "its start 9999-12-31 is outside the dates a season may hold (2000-01-01 to",
        ),
        (
            lambda d: d["divisions"][0]["clubs"].append("X\u200bY"),
            "divisions[0].clubs[5]: contains the invisible character U+200B",
        ),
        (lambda d: d.update(name="x" * 6000), "name: must have at most 100 characters"),
        (lambda d: d.update(name=3), "name: must be text (in quotes)"),
        (
            lambda d: d.update(divisons=d.pop("divisions")),
            "divisons: unknown key — did you mean",
        ),
    ],
    ids=[
        "a lowered CL-23 floor",
        "a typo",
        "a start in 9999",
        "a name the commands refuse",
        "a too-long name",
        "a wrong type",
        "a typo'd required key",
    ],
)
async def test_cl_23_season_import_refuses_a_floor_lowered_a_typo_or_a_bad_name(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, change: Any, expected: str
) -> None:
    """CL-23 (a file's `rules.vote_quorum: 1` would let one director disqualify a club), a
    typo'd key (`board`: a silent double CL-20 forfeit), a name `/club register` refuses: one
    private line naming where, nothing written."""
    data = json.loads(SEASON_FILE)
    change(data)
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, _clock):
        before = dump(path)
        outcome = await harness.command(
            "season import",
            user=members(harness)["HQ"],
            file=Upload("season.json", json.dumps(data).encode()),
            name="Copy",
        )
        seen = shown(parse(outcome.reply.content or ""))  # as Discord shows it
        assert outcome.reply.ephemeral and expected in seen, seen
        assert dump(path) == before


async def test_cl_12_the_bots_export_of_a_season_with_an_empty_division_imports_again(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """CL-7, CL-12: Spring's configured divisions have no clubs but its first: its export is
    accepted by `arbiter league` (an empty table) and by `/season import`."""
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, _clock):
        hq = members(harness)["HQ"]
        exported = await harness.command("season export", user=hq, season="Spring")
        ((name, data),) = exported.reply.uploads.items()
        assert any(not d["clubs"] for d in json.loads(data)["divisions"])
        file = tmp_path / name
        file.write_bytes(data)
        capsys.readouterr()
        assert main(["league", str(file), "--json"]) == 0
        capsys.readouterr()
        imported = await harness.command(
            "season import", user=hq, file=Upload(name, data), name="Spring copy"
        )
        assert "imported" in (imported.reply.content or ""), imported.reply.content


async def test_cl_1_create_takes_a_cutoff_and_hq_sets_it(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-1: `/season create cutoff:` freezes the divisions cut-off into the season's rules;
    `/season cutoff` changes it (a date before the first round is refused at creation)."""
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _clock):
        hq = members(harness)["HQ"]
        created = await harness.command(
            "season create", user=hq, name="Autumn", first_round="2026-09-01", cutoff="2027-03-01"
        )
        assert "cut-off 2027-03-01" in (created.reply.content or ""), created.reply.content
        early = await harness.command(
            "season create", user=hq, name="Winter", first_round="2026-09-01", cutoff="2026-08-01"
        )
        assert early.reply.ephemeral
        moved = await harness.command("season cutoff", user=hq, season="Autumn", date="2027-04-01")
        assert "2027-04-01" in (moved.reply.content or "")
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            autumn = await view.seasons.by_name("Autumn")
        assert autumn is not None and str(autumn.rules.divisions_cutoff) == "2027-04-01"


async def test_cl_1_a_cutoff_before_the_first_round_is_refused_naming_that_round(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """CL-1, CL-8: a cut-off before a season's first round leaves standings with no match, so
    the make-up motion could open at once on an empty table: `/season cutoff` refused it on
    no ground (HQ could set 2016-01-01 on the running Test season, first played 2017) and
    `/season create` said "in the past" of a future date. Both say the first round; nothing
    is written, and the make-up motion stays refused."""
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, _clock):
        hq = members(harness)["HQ"]
        before = dump(path)
        early = await harness.command(
            "season create", user=hq, name="Winter", first_round="2026-09-01", cutoff="2026-08-01"
        )
        text = early.reply.content or ""
        assert early.reply.ephemeral and "before the season's first round, 2026-09-01" in text
        assert "in the past" not in text
        cut = await harness.command(
            "season cutoff", user=hq, season="Test season", date="2016-01-01"
        )
        text = cut.reply.content or ""
        assert cut.reply.ephemeral and "before the season's first round, 2017-" in text, text
        assert dump(path) == before
        first = harness.member("Director", user_id=DIRECTORS[0])
        makeup = await harness.command(
            "vote open", user=first, kind="division-makeup", reason="CL-8", season="Test season"
        )
        assert makeup.reply.ephemeral and "is running" in (makeup.reply.content or "")
        later = await harness.command("season cutoff", user=hq, season="Spring", date="2026-05-01")
        assert later.reply.ephemeral and "first round, 2026-06-01" in (later.reply.content or "")


async def test_cl_12_season_import_names_each_problem_with_its_path(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """Issue 20: a file with several problems is refused naming the first three with their
    paths, in plain words, and counting the rest — privately, nothing written."""
    data = json.loads(SEASON_FILE)
    for index in range(4):
        data["matches"][index]["bord"] = []
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_, harness, _clock):
        before = dump(path)
        outcome = await harness.command(
            "season import",
            user=members(harness)["HQ"],
            file=Upload("season.json", json.dumps(data).encode()),
            name="Copy",
        )
        seen = shown(parse(outcome.reply.content or ""))
        assert outcome.reply.ephemeral, seen
        for index in range(3):
            assert f"matches[{index}].bord: unknown key" in seen, seen
        assert "(and 1 more)" in seen and "matches[3]" not in seen
        assert dump(path) == before
