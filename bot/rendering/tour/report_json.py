"""A tour report as the JSON of docs/tour-file.md, for `arbiter tour --json`."""

from __future__ import annotations

from typing import Any

from bot.formats.tour_models import STAGE_KEYS
from core.points import json_number
from core.tour.qualification import Qualified, Reason
from core.tour.report import EventReport, TourReport

WHY: dict[Reason, str] = {
    Reason.MAJOR_WINNER: "Major winner",
    Reason.REGULAR_WINNER: "Regular winner",
    Reason.TOUR_STANDINGS: "tour standings",
    Reason.REPLACEMENT: "replacement from the tour standings",
    Reason.AMBASSADOR: "Ambassador",
}
"""CCT-3: the short label of each qualification reason."""


def why(qualified: Qualified) -> str:
    """CCT-3: every reason a player is qualified, in short, such as `Major winner` or `tour
    standings`.
    """
    return "; ".join(dict.fromkeys(WHY[q.reason] for q in qualified.reasons))


def detail(qualified: Qualified) -> str:
    """CCT-3: what backs each reason, such as `won Opera Euro Rapid` or `tour rank 3`."""
    return "; ".join(q.detail for q in qualified.reasons)


def _event(report: EventReport) -> dict[str, Any]:
    event = report.event
    return {
        "name": event.name,
        "type": event.type.value,
        "players": event.size,
        "third_place_match": event.third_place_match,
        "placings": [{"place": place, "player": player} for place, player in report.placings],
        "tour_points": [
            {
                "player": p.player,
                "points": p.points,
                "preliminary_place": p.preliminary_place,
                "knockout": STAGE_KEYS.get(p.stage),
            }
            for p in report.points
        ],
    }


def tour_json(report: TourReport) -> dict[str, Any]:
    """The document: events, standings with tie and play-off flags, and the Finals qualification.

    It adds the Finals table when the Finals are in the file and no --after is given.
    """
    playoff = {p for group in report.qualification.playoffs_required for p in group}
    document: dict[str, Any] = {
        "name": report.name,
        "after": report.after,
        "events": [_event(e) for e in report.events],
        "standings": [
            {
                "rank": r.rank,
                "player": r.player,
                "points": r.record.points,
                "events": r.record.events,
                "wins": r.record.wins,
                "finals": r.record.finals,
                "semi_finals": r.record.semi_finals,
                "quarter_finals": r.record.quarter_finals,
                "tied": r.tied,
                "playoff_required": r.player in playoff,
            }
            for r in report.ranking
        ],
        "qualification": {
            "finals": [
                {"player": q.player, "why": why(q), "detail": detail(q)}
                for q in report.qualification.qualified
            ],
            "places_left": report.qualification.places_left,
            "playoffs_required": [list(g) for g in report.qualification.playoffs_required],
        },
        "finals": None,
    }
    field = report.field
    if field is not None:
        document["qualification"]["declined"] = [
            {"player": d.player, "replaced_by": list(d.replaced_by)} for d in field.declines
        ]
        document["qualification"]["wildcards"] = list(field.wildcards)
        document["qualification"]["places_open"] = field.open_places
    if report.finals is not None:
        document["finals"] = {
            "standings": [
                {
                    "rank": row.rank,
                    "player": row.player,
                    "match_points": row.match_points,
                    "bonus": json_number(row.bonus),
                    "total": json_number(row.total),
                }
                for row in report.finals.rows
            ],
            "tied_for_first": list(report.finals.tied_for_first),
        }
    return document
