"""The league's downloads and feeds: the images, CSV files, calendars and JSON of a season.

Each is drawn by the renderer its command uses, from the same views: `standings_png`,
`crosstable_png`, `standings_csv` and `season_calendar`. Images are drawn in a worker thread, as
the commands draw them, so the event loop answers other requests meanwhile.
"""

from __future__ import annotations

import functools
import json

from aiohttp import web

from bot.rendering.common.files import drawn, file_name
from bot.rendering.league.calendar_ics import calendar_matches, season_calendar
from bot.rendering.league.crosstable_image import crosstable_png
from bot.rendering.league.standings_csv import season_standings_csv, standings_csv
from bot.rendering.league.standings_image import standings_png
from bot.web.league.feed import season_json
from bot.web.league.pages import division_views, feed_url, site_of
from bot.web.league.reads import season_parts
from bot.web.pages import CSV, ICS, JSON, PNG, Guild, NotFound, Page, number


async def _division_file(guild: Guild, request: web.Request, what: str) -> Page:
    """One division's `standings.png`, `standings.csv` or `crosstable.png`, as at `?as_of=`."""
    parts = await season_parts(guild, request)
    record = parts.division(request)
    found, _ = await division_views(guild, request, parts, record.id)
    [view] = found.divisions
    dated = [] if found.as_of is None else [found.as_of.isoformat()]
    if what == "standings.csv":
        name = file_name("standings", view.season, view.division, *dated, suffix=".csv")
        return Page(standings_csv(view).encode(), CSV, name)
    draw = standings_png if what == "standings.png" else crosstable_png
    stem = what.removesuffix(".png")
    name = file_name(stem, view.season, view.division, *dated, suffix=".png")
    return Page(await drawn(functools.partial(draw, view)), PNG, name)


async def division_standings_png(guild: Guild, request: web.Request) -> Page:
    """`/standings format:image` of one division."""
    return await _division_file(guild, request, "standings.png")


async def division_standings_csv(guild: Guild, request: web.Request) -> Page:
    """`/standings format:csv` of one division."""
    return await _division_file(guild, request, "standings.csv")


async def division_crosstable_png(guild: Guild, request: web.Request) -> Page:
    """`/crosstable` of one division."""
    return await _division_file(guild, request, "crosstable.png")


async def season_standings(guild: Guild, request: web.Request) -> Page:
    """Every division's table as one CSV file, the division first on each row."""
    parts = await season_parts(guild, request)
    found, _ = await division_views(guild, request, parts)
    dated = [] if found.as_of is None else [found.as_of.isoformat()]
    name = file_name("standings", found.season, *dated, suffix=".csv")
    return Page(season_standings_csv(found.divisions).encode(), CSV, name)


async def season_feed(guild: Guild, request: web.Request) -> Page:
    """The season's tables as the JSON of docs/web-league.schema.json, as at `?as_of=`."""
    parts = await season_parts(guild, request)
    found, title = await division_views(guild, request, parts)
    data = season_json(parts, found, title, lambda *p: feed_url(request, guild, *p))
    return Page(json.dumps(data, ensure_ascii=False, indent=1).encode(), JSON)


async def _calendar(guild: Guild, request: web.Request, club: int | None) -> Page:
    """The season's matches as an .ics file, only one club's when `club` is given.

    It is the file `arbiter season calendar` writes: results once known, forfeits and void
    matches in words, and the CL-15 challenge deadline as an alarm.
    """
    parts = await season_parts(guild, request)
    only = None
    if club is not None:
        names = [name for name, id in parts.clubs.items() if id == club]
        if not names:
            raise NotFound(f"no club {club} in season {parts.record.id}")
        only = names
    site = site_of(request)
    now = site.database.clock()
    facts, report = await site.standings.season_report(guild.store, parts.record, now=now)
    entries = calendar_matches(facts, report, now, only)
    what = ["calendar", parts.record.name, *(only or [])]
    name = file_name(*what, suffix=".ics")
    title = " · ".join([parts.record.name, *(only or [])])
    data = season_calendar(
        parts.record.name,
        entries,
        now,
        title,
        guild=guild.store.guild_id,
        season_id=parts.record.id,
    )
    return Page(data, ICS, name)


async def season_calendar_file(guild: Guild, request: web.Request) -> Page:
    """`/g/{slug}/seasons/{season}/calendar.ics`: every match of the season."""
    return await _calendar(guild, request, None)


async def club_calendar_file(guild: Guild, request: web.Request) -> Page:
    """`/g/{slug}/seasons/{season}/clubs/{club}/calendar.ics`: one club's matches."""
    return await _calendar(guild, request, number(request, "club"))
