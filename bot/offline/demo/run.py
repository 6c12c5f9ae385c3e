"""`arbiter demo`: plays the season of a seed through the real bot and reads back what it left.

It generates the season, writes its replay script and plays it through `bot.offline.replay` with
progress on stderr. It then reads the database it left: the exported season file, standings and
crosstable PNGs, the .ics calendar, the standings and results as CSV, and the summary, printed and
kept in `summary.txt`.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from discord import app_commands

from bot.app.arbiter import offline_bot
from bot.formats.season_file import dump_season
from bot.league.store import load_season
from bot.offline.demo.progress import DATABASE, TRANSCRIPT, browse_line, replay_demo, slug
from bot.offline.demo.season_script import GUILD, WEB_SLUG, season_script
from bot.offline.demo.world import generate
from bot.offline.discord_messages import stable_id
from bot.offline.transcript import StepRecord
from bot.rendering.league.calendar_ics import calendar_matches, season_calendar
from bot.rendering.league.crosstable_image import crosstable_png
from bot.rendering.league.division_view import Fixture, SeasonContext, division_view
from bot.rendering.league.report_text import proposal_text, report_text
from bot.rendering.league.results_csv import results_csv
from bot.rendering.league.standings_csv import season_standings_csv
from bot.rendering.league.standings_image import standings_png
from core.league import league_report, promotion_proposal
from core.league.report import LeagueReport
from core.league.season import Season
from storage.engine.database import Database
from storage.guild import GuildStore

SCRIPT = "season.jsonl"
SEASON_FILE = "season.json"
SUMMARY = "summary.txt"
STANDINGS_CSV = "standings.csv"
RESULTS_CSV = "results.csv"


@dataclass(frozen=True)
class DemoResult:
    """What the demo played and where it wrote it."""

    season: Season
    report: LeagueReport
    out: Path
    steps: int
    waiting: tuple[str, ...] = ()


async def slash_commands() -> frozenset[str]:
    """The slash commands of the bot's tree (built offline, as `arbiter commands` does)."""
    from bot.kernel.config import Config

    bot = await offline_bot(Config())
    async with bot:
        await bot.setup_hook()
        return frozenset(
            c.qualified_name
            for c in bot.tree.walk_commands()
            if isinstance(c, app_commands.Command)
        )


async def _read(db_path: Path, season_name: str) -> tuple[Season, dict[str, Any], int]:
    """The season the replay left, its season file and its id."""
    database = await Database.open(db_path)
    try:
        store = GuildStore(database, stable_id("guild", GUILD))
        async with store.read() as view:
            record = await view.seasons.by_name(season_name)
            if record is None:
                raise RuntimeError(f"the replay left no season {season_name!r}")
            season = await load_season(view, record)
        return season, dump_season(season), record.id
    finally:
        await database.close()


def season_context(season: Season, on: dt.date | None) -> SeasonContext:
    """The context of the season's tables from its facts: state, zones and champion."""
    fixtures = tuple(Fixture(m.id, m.home, m.away, m.round) for m in season.matches)
    return SeasonContext(fixtures, season.rules.promotion_places, season.withdrawn, on)


def write_outputs(
    out: Path, season: Season, report: LeagueReport, stamp: dt.datetime, season_id: int
) -> None:
    """The standings and crosstable PNGs of every division, the season's calendar, and the
    standings and results as CSV. `season_id` is the stored season's, for the calendar's UIDs."""
    context = season_context(season, stamp.date())
    views = [division_view(report, name, context) for name, _ in report.divisions]
    for view in views:
        (out / f"standings-{slug(view.division)}.png").write_bytes(standings_png(view))
        (out / f"crosstable-{slug(view.division)}.png").write_bytes(crosstable_png(view))
    (out / STANDINGS_CSV).write_text(season_standings_csv(views), encoding="utf-8", newline="")
    (out / RESULTS_CSV).write_text(results_csv(season, report), encoding="utf-8", newline="")
    (out / "season.ics").write_bytes(
        season_calendar(
            season.name,
            calendar_matches(season, report, stamp),
            stamp,
            guild=stable_id("guild", GUILD),
            season_id=season_id,
        )
    )


def play(
    seed: int,
    out: Path,
    *,
    clubs: int = 13,
    progress: TextIO | None = None,
    transcript: Callable[[StepRecord], None] | None = None,
) -> DemoResult:
    """Generates, writes, replays and reads back the season of `seed` into the new or empty folder
    `out`.

    Raises ReplayFailure if a step of the script fails.
    """
    import asyncio

    world = generate(seed, clubs)
    script = season_script(world, clubs, asyncio.run(slash_commands()))
    headline = (
        f"arbiter demo: seed {seed}, {len(world.clubs)} clubs in 3 divisions,"
        f" {len(script.fixtures)} matches, {script.steps} steps"
    )
    end = replay_demo(script, out, SCRIPT, headline, progress, transcript, every_step=False)
    db_path = out / DATABASE
    season, data, season_id = asyncio.run(_read(db_path, world.season))
    (out / SEASON_FILE).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    report = league_report(season, as_of=None, now=end)
    write_outputs(out, season, report, end, season_id)
    result = DemoResult(season, report, out, script.steps, tuple(script.waiting))
    (out / SUMMARY).write_text(summary(result) + "\n", encoding="utf-8")
    return result


def _rule_order(rule: str) -> tuple[str, int, str]:
    """Rule ids in the regulation's order, by number rather than as text, so CL-5 comes before
    CL-15.
    """
    prefix, _, rest = rule.partition("-")
    digits = "".join(ch for ch in rest if ch.isdigit())
    return prefix, int(digits) if digits else 0, rest


def summary(result: DemoResult) -> str:
    """The standings, the champion, the promotion proposal and what the rules did.

    The standings are as `arbiter league` prints them for the season file.
    """
    season, report = result.season, result.report
    # CL-8: as `arbiter league --promotion` makes it, on the standings at the cut-off date
    at_cutoff = league_report(season, as_of=season.rules.divisions_cutoff)
    proposal = promotion_proposal(
        at_cutoff.divisions, season.rules.promotion_places, list(season.withdrawn)
    )
    parts = [report_text(report), "", proposal_text(at_cutoff, proposal)]
    rules: dict[str, int] = {}
    for breach in report.forfeits:
        rules[breach.rule] = rules.get(breach.rule, 0) + 1
    in_order = sorted(rules.items(), key=lambda item: _rule_order(item[0]))
    forfeits = ", ".join(f"{count} {rule}" for rule, count in in_order) or "none"
    lines = [
        *parts,
        "",
        "Summary:",
        f"  matches: {len(season.matches)}, forfeits: {forfeits}",
        "  disqualified: "
        + (", ".join(f"{q.club} ({q.rule})" for q in report.disqualified) or "none"),
        f"  director motions passed: {len(season.director_forfeits)} forfeit(s),"
        f" {len(season.director_disqualifications)} disqualification(s)",
        *(f"  waiting for {note}" for note in result.waiting),
        f"  written to {result.out}: {SUMMARY} (this summary), {SEASON_FILE}, {SCRIPT},"
        f" {TRANSCRIPT}, {STANDINGS_CSV}, {RESULTS_CSV}, season.ics, standings-*.png,"
        " crosstable-*.png",
        f"  {TRANSCRIPT} is what `arbiter replay {SCRIPT}` prints (add --verbose for the"
        " chess.com stand-in's steps)",
        f"  the bot's database: {result.out / DATABASE} (guild {stable_id('guild', GUILD)})",
        "",
        browse_line(result.out, WEB_SLUG),
    ]
    return "\n".join(lines)
