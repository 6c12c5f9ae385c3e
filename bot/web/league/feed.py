"""A season's tables as JSON for other tools, documented by docs/web-league.schema.json.

It holds what the standings page shows, from the same division views: each division's state, CL-8
zones, CL-16 champion and CL-17 table. Points are exact decimal strings such as `2.5`, never floats.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.league.standings.views import SeasonViews
from bot.rendering.league.division_view import DivisionView, rank_text
from bot.web.league.pages import zone_of
from bot.web.league.reads import SeasonParts
from core.league.standings import ClubStanding
from core.points import decimal_text

SCHEMA = "web-league.schema.json"
"""The schema's file name in docs/, named by each document's `schema` field."""


def _row(
    row: ClubStanding, view: DivisionView, club: int | None, calendar: str | None
) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "rank_text": rank_text(row),
        "tied": row.tied,
        "disqualified": row.disqualified,
        "club": row.club,
        "club_id": club,
        "calendar": calendar,
        "played": row.played,
        "won": row.won,
        "drawn": row.drawn,
        "lost": row.lost,
        "match_points": decimal_text(row.match_points),
        "game_points": decimal_text(row.game_points),
        "sb": decimal_text(row.sb),
        "de": None if row.de is None else decimal_text(row.de),
        "zone": zone_of(view, row.club) or None,
    }


def season_json(
    parts: SeasonParts, found: SeasonViews, title: str, url: Callable[..., str]
) -> dict[str, Any]:
    """The season's divisions and tables as JSON values. `url(*parts)` makes a page's address."""
    season = parts.record.id
    query = "" if found.as_of is None else f"?as_of={found.as_of.isoformat()}"

    def club_calendar(club: str) -> str | None:
        id = parts.clubs.get(club)
        return None if id is None else url("seasons", season, "clubs", id, "calendar.ics")

    divisions = []
    for view in found.divisions:
        division = parts.division_id(view.division)
        base = ("seasons", season, "divisions", division)
        progress = view.progress
        divisions.append(
            {
                "id": division,
                "name": view.division,
                "caption": view.caption("Standings"),
                "on": None if view.on is None else view.on.isoformat(),
                "progress": None
                if progress is None
                else {
                    "rounds_done": progress.rounds_done,
                    "rounds": progress.rounds,
                    "final": progress.final,
                },
                "champion": view.champion,
                "standings": [
                    _row(row, view, parts.clubs.get(row.club), club_calendar(row.club))
                    for row in view.rows
                ],
                "links": {
                    "page": url(*base) + query,
                    "standings_png": url(*base, "standings.png") + query,
                    "standings_csv": url(*base, "standings.csv") + query,
                    "crosstable": url(*base, "crosstable") + query,
                    "crosstable_png": url(*base, "crosstable.png") + query,
                    "rounds": url(*base, "rounds"),
                },
            }
        )
    return {
        "schema": SCHEMA,
        "season": {
            "id": season,
            "name": found.season,
            "title": title,
            "as_of": None if found.as_of is None else found.as_of.isoformat(),
            "page": url("seasons", season) + query,
            "calendar": url("seasons", season, "calendar.ics"),
        },
        "divisions": divisions,
    }
