"""The league's HTML pages, from the same services and views as `/standings`, `/crosstable`,
`/match list`, `/match show` and `/season calendar`.

A page only lays out what those give: the division views of `standings_views`, the matches of
`calendar_matches` with their forfeit and void sentences, and the card of `match_card`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from aiohttp import web

from bot.league.matches.card import match_card
from bot.league.standings.views import SeasonViews, standings_views
from bot.rendering.common.crosstable_grid import CellKind, CrosstableCell, cell_text
from bot.rendering.common.text import halves, halves_text
from bot.rendering.league.calendar_ics import calendar_matches
from bot.rendering.league.division_view import DivisionView, rank_text
from bot.rendering.league.standings_image import CHAMPION_NOTE, DQ_NOTE, TIED_NOTE
from bot.web.league.reads import SeasonParts, match_record, season_parts
from bot.web.pages import Guild, Page, as_of, html
from bot.web.site import SITE, Site
from bot.web.templates import isolated

LEGEND = (
    "P played · W won · D drawn · L lost · MP match points · GP game points · SB"
    " Sonneborn-Berger · DE direct encounter (CL-17)"
)
"""The table's columns in the page's order, which is the CSV's: the image has GP last."""
ZONES_NOTE = (
    "up / down: the clubs the CL-8 proposal moves up or down a division if the season ended as"
    " the table stands"
)
FINAL_ZONES_NOTE = "up / down: the clubs the CL-8 proposal moves, for a director vote"
CROSSTABLE_NOTE = (
    "Each cell: the row club's game points against the column club. The column club's are in"
    " the mirrored cell"
)
FORFEIT_MARKS = "F+ / F− forfeit won / lost (CL-FF)"
PENDING_MARK = "a dot: not played yet"
COLUMNS_NOTE = "MP match points · Rk rank"
VOID_NOTE = (
    "(…) in brackets: void, since a club of the match is disqualified (CL-DQ), so it counts for"
    " no one"
)
ADJUSTED_NOTE = (
    "An adjusted board (CL-ADJ): the adjusted player scores 0 and the opponent all the board's"
    " points. When both are adjusted, the board is split equally. Match scores and standings"
    " use the adjusted boards."
)


"""Unicode's first-strong isolate and its end: text between them keeps its direction to itself."""


def sentence(text: str, *names: str) -> str:
    """A service's sentence as a page shows it: capitalised, with a full stop, and each of
    `names` in it isolated, so a right-to-left name cannot reorder the rest of the sentence.

    A sentence that starts with a name keeps the name as typed.
    """
    if not any(text.startswith(name) for name in names if name):
        text = text[:1].upper() + text[1:]
    wanted = sorted({name for name in names if name}, key=len, reverse=True)
    if wanted:
        pattern = "|".join(re.escape(name) for name in wanted)
        text = re.sub(pattern, lambda found: isolated(found.group(0)), text)
    return text + "."


def site_of(request: web.Request) -> Site:
    """The site a request came to."""
    return request.app[SITE]


def feed_url(request: web.Request, guild: Guild, *parts: object) -> str:
    """A feed's address to subscribe to: absolute from the site's base URL when it is set."""
    return site_of(request).base_url + guild.url(*parts)


def standings_title(found: SeasonViews, asked: dt.date | None) -> str:
    """The heading `/standings` gives, such as `Spring: standings as of 2024-03-01`.

    By CL-1 a day asked for that is not over yet is shown as at now, and the heading says so.
    """
    season = isolated(found.season)
    if found.as_of is not None:
        return f"{season}: standings as of {found.as_of.isoformat()}"
    if asked is not None:
        return f"{season}: standings as at now ({asked.isoformat()} is not over yet)"
    return f"{season}: standings"


def as_of_query(found: SeasonViews) -> str:
    """The query that keeps a page's date on the links it gives: `?as_of=…` or nothing."""
    return "" if found.as_of is None else f"?as_of={found.as_of.isoformat()}"


def zone_of(view: DivisionView, club: str) -> str:
    """CL-8: `up`, `down` or nothing, in words, for the table's zone column."""
    return "up" if club in view.up else "down" if club in view.down else ""


def table_notes(views: Sequence[DivisionView]) -> list[str]:
    """The legend under the tables: the columns, then the marks that appear."""
    notes = [LEGEND]
    if any(v.up or v.down for v in views):
        final = all(v.progress is not None and v.progress.final for v in views)
        notes.append(FINAL_ZONES_NOTE if final else ZONES_NOTE)
    if any(v.champion is not None for v in views):
        notes.append(CHAMPION_NOTE)
    if any(row.tied for v in views for row in v.rows):
        notes.append(TIED_NOTE)
    if any(row.disqualified for v in views for row in v.rows):
        notes.append(DQ_NOTE)
    return notes


async def division_views(
    guild: Guild, request: web.Request, parts: SeasonParts, division: int | None = None
) -> tuple[SeasonViews, str]:
    """`/standings`'s views of the season, or of one division, and its heading, as at `?as_of=`."""
    asked = as_of(request)
    found = await standings_views(
        guild.store, site_of(request).standings, parts.record.id, division, as_of=asked
    )
    return found, standings_title(found, asked)


def _table(guild: Guild, parts: SeasonParts, found: SeasonViews) -> dict[str, object]:
    """What the standings table template needs besides the views."""
    return {
        "guild": guild,
        "parts": parts,
        "found": found,
        "query": as_of_query(found),
        "rank": rank_text,
        "points": halves_text,
        "zone": zone_of,
        "notes": table_notes(found.divisions),
    }


async def season(guild: Guild, request: web.Request) -> Page:
    """CL-17: every division's table of a season as at `?as_of=` or now, and the season's links."""
    parts = await season_parts(guild, request)
    found, title = await division_views(guild, request, parts)
    season_path = ("seasons", parts.record.id)
    return html(
        "league/season.html",
        title=title,
        calendar=feed_url(request, guild, "seasons", parts.record.id, "calendar.ics"),
        club_calendars=[
            (club, feed_url(request, guild, *season_path, "clubs", id, "calendar.ics"))
            for club, id in sorted(parts.clubs.items(), key=lambda item: item[0].casefold())
        ],
        **_table(guild, parts, found),
    )


async def division(guild: Guild, request: web.Request) -> Page:
    """CL-17: one division's table, its state, and links to its image, CSV and crosstable."""
    parts = await season_parts(guild, request)
    record = parts.division(request)
    found, title = await division_views(guild, request, parts, record.id)
    return html("league/division.html", title=title, division=record, **_table(guild, parts, found))


@dataclass(frozen=True)
class Shown:
    """A crosstable cell as the page shows it: its text, and its class for the tint."""

    text: str
    kind: str
    void: bool


def shown_cell(cell: CrosstableCell) -> Shown:
    """The cell's text as the PNG writes it, in brackets when void (CL-DQ)."""
    text = cell_text(cell)
    if cell.kind is CellKind.PLAYED:
        kind = "won" if cell.mine > cell.theirs else "lost" if cell.mine < cell.theirs else "drawn"
    elif cell.kind is CellKind.FORFEIT:
        kind = "won" if cell.mine > cell.theirs else "lost"
    else:
        kind = cell.kind.value
    if cell.void and cell.kind is not CellKind.SELF:
        return Shown(f"({text})", kind, True)
    return Shown(text, kind, False)


async def crosstable(guild: Guild, request: web.Request) -> Page:
    """A division's crosstable from the view's cells, forfeits and void matches marked."""
    parts = await season_parts(guild, request)
    record = parts.division(request)
    found, _ = await division_views(guild, request, parts, record.id)
    [view] = found.divisions
    grid = [[shown_cell(cell) for cell in row] for row in view.cells]
    kinds = {cell.kind for row in view.cells for cell in row}
    marks = [FORFEIT_MARKS] if CellKind.FORFEIT in kinds else []
    marks += [PENDING_MARK] if CellKind.PENDING in kinds else []
    notes = [CROSSTABLE_NOTE, " · ".join([*marks, COLUMNS_NOTE])]
    if any(cell.void for row in grid for cell in row):
        notes.append(VOID_NOTE)
    if any(row.disqualified for row in view.rows):
        notes.append(DQ_NOTE)
    if any(row.tied for row in view.rows):
        notes.append(TIED_NOTE)
    return html(
        "league/crosstable.html",
        guild=guild,
        parts=parts,
        division=record,
        view=view,
        rows=list(zip(view.rows, grid, strict=True)),
        query=as_of_query(found),
        rank=rank_text,
        points=halves_text,
        notes=notes,
    )


@dataclass(frozen=True)
class RoundMatch:
    """A match on the rounds page: its id, clubs, start, result and what happened, in words."""

    id: int
    key: str
    division: str
    home: str
    away: str
    start: dt.datetime
    result: str | None
    outcome: str | None
    void: bool


async def rounds(guild: Guild, request: web.Request) -> Page:
    """The fixtures and results of a season, or of one division, by round.

    A forfeit says who won and which rule the other broke, and a void match which club was
    disqualified (CL-DQ), as the calendar does.
    """
    parts = await season_parts(guild, request)
    only = parts.division(request) if "division" in request.match_info else None
    site = site_of(request)
    now = site.database.clock()
    facts, report = await site.standings.season_report(guild.store, parts.record, now=now)
    async with guild.store.read() as view:
        ids = {m.key: m.id for m in await view.matches.of_season(parts.record.id)}
    by_round: dict[int, list[RoundMatch]] = {}
    for m in calendar_matches(facts, report, now):
        if only is not None and m.division != only.name:
            continue
        by_round.setdefault(m.round, []).append(
            RoundMatch(
                ids[m.id],
                m.id,
                m.division,
                m.home,
                m.away,
                m.start,
                m.result,
                m.outcome,
                m.cancelled,
            )
        )
    order = {d.name: d.position for d in parts.divisions}
    return html(
        "league/rounds.html",
        guild=guild,
        parts=parts,
        division=only,
        rounds=[
            (number, sorted(found, key=lambda m: (order.get(m.division, 0), m.start, m.key)))
            for number, found in sorted(by_round.items())
        ],
        utc=utc_text,
        sentence=sentence,
    )


def utc_text(instant: dt.datetime) -> str:
    """An instant as `2024-03-01 18:00 UTC`."""
    return f"{instant.astimezone(dt.UTC):%Y-%m-%d %H:%M} UTC"


async def match(guild: Guild, request: web.Request) -> Page:
    """A match: its clubs, round, state, score, what it counts as and why, and its boards.

    Boards adjusted by CL-18 or CL-19 say why, and the forfeits recorded against it name the rule.
    """
    record = await match_record(guild, request)
    card = await match_card(guild.store, site_of(request).standings, record.id)
    return html(
        "league/match.html",
        guild=guild,
        record=record,
        card=card,
        halves=halves,
        utc=utc_text,
        adjusted_note=ADJUSTED_NOTE,
        sentence=sentence,
    )
