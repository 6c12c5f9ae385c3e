"""`arbiter demo --tour`: plays the tour of a seed through the real bot and reads back what it left.

It generates the tour, writes its replay script and plays it through `bot.offline.replay` with
progress on stderr. It then reads the database it left: the exported tour file, the preliminary
standings, brackets, Finals and tour standings as PNGs, the tour's .ics calendar, and the summary.
The summary prints the report exactly as `arbiter tour` prints it for the tour file written, then
what the staged moments did.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from bot.offline.demo.progress import DATABASE, TRANSCRIPT, browse_line, replay_demo, slug
from bot.offline.demo.tour_script import GUILD, WEB_SLUG, TourScript, tour_script
from bot.offline.demo.tour_world import TOUR, TourWorld, generate
from bot.offline.discord_messages import stable_id
from bot.offline.transcript import StepRecord
from bot.rendering.tour.bracket_image import bracket_png
from bot.rendering.tour.calendar_ics import tour_calendar_ics
from bot.rendering.tour.report_text import tour_text
from bot.rendering.tour.standings_image import finals_png, preliminary_png, tour_standings_png
from bot.tour import views
from bot.tour.event_reads import event_calendar
from bot.tour.files import export_tour_file
from bot.tour.game_targets import knockout_ties
from bot.tour.tours.reads import loaded_tour, report_of
from core.tour.event_facts import finals_table, preliminary_standings
from core.tour.ranking import EventType
from core.tour.report import TourReport
from storage.engine.database import Database
from storage.guild import GuildStore

SCRIPT = "tour.jsonl"
TOUR_FILE = "tour.json"
CALENDAR = "tour.ics"


@dataclass
class TourDemoResult:
    """What the demo played, what the bot computed and where it was written."""

    world: TourWorld
    script: TourScript
    report: TourReport
    out: Path
    counts: dict[str, int] = field(default_factory=dict)
    images: list[str] = field(default_factory=list)


async def _read(
    db_path: Path, out: Path, stamp: dt.datetime
) -> tuple[TourReport, dict[str, int], list[str]]:
    """The tour from the replay's database: its report, the outputs written and the summary's
    counts.

    The counts give games by who settled them and what the bot did on its own.
    """
    database = await Database.open(db_path)
    try:
        store = GuildStore(database, stable_id("guild", GUILD))
        _, data = await export_tour_file(store, TOUR)
        (out / TOUR_FILE).write_bytes(data)
        loaded = await loaded_tour(store, TOUR)
        report = report_of(loaded)
        images = []
        for event in loaded.events:
            record = event.record
            if record.type is EventType.FINALS:
                bonus = loaded.finals_bonus(event)
                table = finals_table(event.facts, bonus)
                (out / "finals.png").write_bytes(finals_png(views.finals(record.name, table)))
                images.append("finals.png")
                continue
            rows = preliminary_standings(event.facts)
            standings = f"standings-{slug(record.name)}.png"
            (out / standings).write_bytes(preliminary_png(views.preliminary(event, rows)))
            bracket = f"bracket-{slug(record.name)}.png"
            (out / bracket).write_bytes(bracket_png(views.bracket(event, knockout_ties(event))))
            images += [standings, bracket]
        (out / "tour-standings.png").write_bytes(tour_standings_png(views.tour_standings(report)))
        images.append("tour-standings.png")
        calendars = []
        for event in loaded.events:
            _, days = await event_calendar(store, event.record.id)
            calendars.append((event.record.id, event.record.name, days))
        ics = tour_calendar_ics(TOUR, calendars, stamp, guild=store.guild_id)
        (out / CALENDAR).write_bytes(ics)
        counts = await _counts(store, [event.record.id for event in loaded.events])
        return report, counts, images
    finally:
        await database.close()


async def _counts(store: GuildStore, events: list[int]) -> dict[str, int]:
    """The tour's games by source, what the bot did on its own from the audit, and the disputes,
    incidents and appeals.
    """
    counts: dict[str, int] = {}
    async with store.read() as view:
        for event_id in events:
            for game in await view.tour_games.of_event(event_id):
                key = f"games {game.source or 'open'}"
                counts[key] = counts.get(key, 0) + 1
            counts["appeals"] = counts.get("appeals", 0) + len(
                await view.tour_rulings.appeals(event_id)
            )
            counts["incidents"] = counts.get("incidents", 0) + len(
                await view.tour_rulings.incidents(event_id)
            )
        audit = await view.audit.recent(limit=1_000_000)
    for entry in audit:
        kind = entry.details.get("kind") if entry.action == "job.done" else None
        if kind == "cct.confirm" and "confirmed" in entry.details:
            counts["auto-confirmed"] = counts.get("auto-confirmed", 0) + 1
        elif kind == "cct.wrapup" and "wrapped_up" in entry.details:
            counts["wrap-ups"] = counts.get("wrap-ups", 0) + 1
        elif kind is not None and kind.startswith("cct.round.") and "pinged" in entry.details:
            counts["reminders"] = counts.get("reminders", 0) + 1
        elif kind is not None and kind.startswith("cct.appeals.") and "appeals" in entry.details:
            counts["appeal closes"] = counts.get("appeal closes", 0) + 1
        elif entry.action == "game.dispute":
            counts["disputes"] = counts.get("disputes", 0) + 1
    return counts


def play_tour(
    seed: int,
    out: Path,
    *,
    progress: TextIO | None = None,
    transcript: Callable[[StepRecord], None] | None = None,
) -> TourDemoResult:
    """Generates, writes, replays and reads back the tour of `seed` into the new or empty folder
    `out`.

    Raises ReplayFailure if a step of the script fails.
    """
    world = generate(seed)
    script = tour_script(world)
    sizes = ", ".join(f"{e.name} ({len(e.entrants)})" for e in world.events)
    headline = f"arbiter demo --tour: seed {seed}, {sizes}, {script.steps} steps"
    end = replay_demo(script, out, SCRIPT, headline, progress, transcript, every_step=True)
    db_path = out / DATABASE
    report, counts, images = asyncio.run(_read(db_path, out, end))
    return TourDemoResult(world, script, report, out, counts, images)


def summary(result: TourDemoResult) -> str:
    """The tour report as `arbiter tour` prints it for the written tour file, then what the
    bot did: games by who entered them, what it did on its own, the staged moments."""
    counts = result.counts
    games = sum(v for k, v in counts.items() if k.startswith("games "))
    by = {k.removeprefix("games "): v for k, v in counts.items() if k.startswith("games ")}
    lines = [
        tour_text(result.report),
        "",
        "Summary:",
        f"  games: {games} — by the arbiter {by.get('arbiter', 0)}, reported by players"
        f" {by.get('player', 0)}, found by the bot on chess.com / lichess.org {by.get('bot', 0)},"
        f" ruled on a disconnection {by.get('incident', 0)}",
        f"  on its own: {counts.get('reminders', 0)} round reminders,"
        f" {counts.get('auto-confirmed', 0)} report(s) confirmed after 12 h,"
        f" {counts.get('appeal closes', 0)} appeal closes, {counts.get('wrap-ups', 0)} wrap-ups",
        f"  disputes: {counts.get('disputes', 0)},"
        f" appeals lodged in time: {counts.get('appeals', 0)},"
        f" disconnection rulings: {counts.get('incidents', 0)}",
        *(f"  staged: {moment}" for moment in result.script.staged),
        f"  written to {result.out}: {TOUR_FILE}, {SCRIPT}, {TRANSCRIPT}, {CALENDAR},"
        f" {', '.join(result.images)}",
        f"  the bot's database: {result.out / DATABASE} (guild {stable_id('guild', GUILD)})",
        "",
        browse_line(result.out, WEB_SLUG),
    ]
    return "\n".join(lines)
