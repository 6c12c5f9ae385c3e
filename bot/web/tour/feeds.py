"""The tour's feeds: the JSON of a tour and of an event, and the calendars of an event and of a
player.

The JSON holds what the pages show, documented in docs/web-tour.md and
docs/web-tour.schema.json, with every score as an exact decimal string. The calendars are the
`/event calendar` file, and for a player the days they play with their games and results.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from aiohttp import web

from bot.rendering.common.crosstable_grid import CellKind
from bot.rendering.tour.bracket import SCORE_COLUMNS, BracketView, SeriesView
from bot.rendering.tour.calendar_ics import event_calendar_ics, tour_calendar_ics
from bot.rendering.tour.cards import result_text
from bot.rendering.tour.report_json import detail, why
from bot.rendering.tour.views import FinalsView, PreliminaryView, TourStandingsView
from bot.tour import event_reads, views
from bot.tour.game_names import ROUND_NAMES
from bot.tour.game_targets import finals_states, knockout_ties
from bot.tour.schedule import day_start, round_count, round_day
from bot.tour.store import LoadedEvent
from bot.tour.tours import reads as tour_reads
from bot.web.pages import ICS, JSON, Guild, NotFound, Page, number
from bot.web.tour import reads
from bot.web.tour.pages import calendar_url, finals_state
from core.points import decimal_text
from core.tour.calendar import knockout_day
from core.tour.ranking import EventType
from core.tour.rules import TourRules
from storage.tour.events import TourEventRecord
from storage.tour.tours import TourPlayer

SCHEMA = "https://arbiter.invalid/docs/web-tour.schema.json"
"""The `$schema`-like tag each document carries, naming its schema file in docs/."""


def _points(value: Fraction | int) -> str:
    """A score as JSON gives it: an exact decimal string."""
    return decimal_text(value)


def _json(document: dict[str, Any], name: str) -> Page:
    text = json.dumps(document, ensure_ascii=False, indent=1, sort_keys=False)
    return Page(text.encode(), JSON, name)


def _url(guild: Guild, request: web.Request, *parts: object) -> str:
    """A page's address in a document: full from the site's `base_url` when it is set, as the
    league's JSON gives it, else the path from `/g/`."""
    return calendar_url(guild, request, *parts)


def _event_ref(guild: Guild, request: web.Request, record: TourEventRecord) -> dict[str, Any]:
    """An event as a document names it; its address is full when the site's `base_url` is set."""
    url = _url(guild, request, "events", record.id)
    return {"id": record.id, "name": record.name, "url": url}


async def tour_json(guild: Guild, request: web.Request) -> Page:
    """The tour's document: its events, players, standings, qualification and prizes."""
    found = await reads.tour_page(guild, request)
    loaded = found.loaded
    record = loaded.record
    events = []
    for event, line in zip(loaded.events, found.card.events, strict=True):
        events.append(
            {
                **_event_ref(guild, request, event.record),
                "type": line.type,
                "size": line.size,
                "start": line.start,
                "status": line.status,
                "players": line.players,
                "winner": line.winner,
                "tied_for_first": list(line.tied_for_first),
            }
        )
    players = [
        {
            "id": p.id,
            "name": p.name,
            "chesscom": p.chesscom,
            "lichess": p.lichess,
            "ambassador": p.ambassador,
            "calendar": calendar_url(guild, request, "tours", record.id, "players", p.id)
            + "/calendar.ics",
        }
        for p in loaded.players
    ]
    qualification = [
        {
            "event": _event_ref(guild, request, q.event),
            **_qualification(q),
        }
        for q in found.qualification
    ]
    prize_events, pool = found.prizes
    document = {
        "schema": SCHEMA,
        "kind": "tour",
        "tour": {
            "id": record.id,
            "name": record.name,
            "url": _url(guild, request, "tours", record.id),
        },
        "after": None if found.after is None else _event_ref(guild, request, found.after.record),
        "events": events,
        "players": players,
        "standings": _tour_standings(found.standings),
        "qualification": qualification,
        "prizes": {
            "events": [
                {
                    "event": p.event,
                    "table": p.table.label,
                    "fund": _points(p.table.fund),
                    "prizes": [
                        {
                            "player": str(prize.player),
                            "amount": _points(prize.amount),
                            "withheld": prize.withheld,
                        }
                        for prize in p.distribution.prizes
                        if prize.amount
                    ],
                    "paid": _points(p.distribution.paid),
                    "withheld": _points(p.distribution.withheld),
                }
                for p in prize_events
            ],
            "ambassador_pool": None
            if pool is None
            else {
                "pool": _points(pool.pool),
                "shares": [
                    {"player": str(player), "share": _points(share), "withheld": share == 0}
                    for player, share in pool.shares.items()
                ],
            },
        },
    }
    return _json(document, f"tour-{record.id}.json")


def _qualification(q: reads.EventQualification) -> dict[str, Any]:
    """CCT-3: one event's list as the tour document gives it."""
    listed = q.listed
    if listed is None:
        return {"problem": q.problem, "places": q.event.size, "qualified": []}
    entry: dict[str, Any] = {
        "problem": None,
        "places": listed.size,
        "qualified": [
            {"player": str(e.player), "why": why(e), "detail": detail(e)} for e in listed.qualified
        ],
        "places_left": listed.places_left,
        "organiser_places": listed.organiser_places,
        "playoffs_required": [[str(p) for p in group] for group in listed.playoffs_required],
    }
    field = q.field
    if field is not None:
        entry["declined"] = [
            {"player": str(d.player), "replaced_by": [str(p) for p in d.replaced_by]}
            for d in field.declines
        ]
        entry["wildcards"] = [str(p) for p in field.wildcards]
        entry["places_open"] = field.open_places
    return entry


def _tour_standings(view: TourStandingsView) -> list[dict[str, Any]]:
    """CCT-6: the ranking with its marks."""
    return [
        {
            "rank": row.rank,
            "shown_rank": view.rank_text(index),
            "shared": row.tied,
            "playoff_required": row.player in view.playoff,
            "player": name,
            "points": _points(row.record.points),
            "wins": row.record.wins,
            "events": row.record.events,
            "finals": row.record.finals,
            "semi_finals": row.record.semi_finals,
            "quarter_finals": row.record.quarter_finals,
        }
        for index, (row, name) in enumerate(zip(view.rows, view.names, strict=True))
    ]


async def event_json(guild: Guild, request: web.Request) -> Page:
    """The event's document: the preliminary, the bracket and the Finals, as known."""
    found = await reads.event_page(guild, request)
    record = found.record
    document = {
        "schema": SCHEMA,
        "kind": "event",
        "event": {
            **_event_ref(guild, request, record),
            "type": record.type.value,
            "size": record.size,
            "start": record.start.isoformat(),
            "status": found.read.state.status,
            "winner": found.read.state.winner,
            "tied_for_first": list(found.read.state.tied_for_first),
            "third_place_match": record.third_place_match,
            "tiebreaks": record.reading.value,
        },
        "tour": {
            "id": record.tour_id,
            "name": found.read.tour,
            "url": _url(guild, request, "tours", record.tour_id),
        },
        "preliminary": None if found.preliminary is None else _preliminary(found.preliminary),
        "knockout": None if found.bracket is None else _bracket(found.bracket, found),
        "finals": None if found.finals is None else _finals(found.finals, found),
    }
    return _json(document, f"event-{record.id}.json")


def _preliminary(view: PreliminaryView) -> dict[str, Any]:
    """CCT-8b: the standings with their marks, and the crosstable in standings order."""
    crosstable = []
    for name, cells in zip(view.names, view.cells, strict=True):
        results: list[dict[str, Any] | None] = []
        for cell in cells:
            if cell.kind in (CellKind.SELF, CellKind.PENDING):
                results.append(None)
            else:
                results.append(
                    {
                        "points": _points(cell.mine),
                        "opponent_points": _points(cell.theirs),
                        "forfeit": cell.kind is CellKind.FORFEIT,
                    }
                )
        crosstable.append({"player": name, "results": results})
    return {
        "games_played": view.played,
        "games": view.games,
        "places_going_on": view.places_going_on,
        "tiebreaks": view.reading.value,
        "standings": [
            {
                "rank": row.rank,
                "shown_rank": view.rank_text(index),
                "shared": row.tied,
                "by_lot": row.by_lot,
                "playoff_required": row.player in view.playoff,
                "player": name,
                "points": _points(row.points),
                "de": None if row.de is None else _points(row.de),
                "wins": row.wins,
                "sb": _points(row.sb),
                "ks": _points(row.ks),
            }
            for index, (row, name) in enumerate(zip(view.rows, view.names, strict=True))
        ],
        "crosstable": crosstable,
    }


def _bracket(view: BracketView, found: reads.EventPage) -> dict[str, Any]:
    """CCT-8c to CCT-8e: every series with its players, scores and state."""
    series = []
    for s in view.series:
        record = found.ties[s.tie].record if s.tie in found.ties else None
        series.append(
            {
                "round": ROUND_NAMES[s.tie],
                "title": s.title,
                "players": [_side(s, True), _side(s, False)],
                "winner": None if s.winner is None else s.name(s.winner),
                "walkover": s.walkover,
                "walkover_reason": s.walkover_reason,
                "walkover_note": None if record is None else record.note,
                "decided_by": None
                if s.status is None or s.status.decided_by is None
                else s.status.decided_by.value,
                "state": " ".join(line for line in s.footer() if line),
            }
        )
    return {"series": series}


def _side(series: SeriesView, first: bool) -> dict[str, Any]:
    """One player of a series, or the slot that waits for them."""
    index = 0 if first else 1
    player: Hashable | None = series.higher if first else series.lower
    return {
        "player": None if player is None else series.names[index],
        "waits_for": series.names[index] if player is None else None,
        "seed": series.seeds[index],
        "scores": dict(zip(SCORE_COLUMNS, series.score_cells(first), strict=True)),
    }


def _finals(view: FinalsView, found: reads.EventPage) -> dict[str, Any]:
    """CCT-8f: the table with bonus points, and every match's state."""
    card = found.finals_card
    matches = []
    if card is not None:
        for match in card.matches:
            p = match.pairing
            matches.append(
                {
                    "round": p.round,
                    "board": p.board,
                    "white": str(p.white),
                    "black": str(p.black),
                    "winner": None if match.winner is None else str(match.winner),
                    "walkover": match.record is not None and match.record.walkover,
                    "state": finals_state(match),
                }
            )
    return {
        "standings": [
            {
                "rank": row.rank,
                "shown_rank": view.rank_text(index),
                "tied_for_first": row.player in view.tied_for_first,
                "player": name,
                "match_points": _points(row.match_points),
                "bonus": _points(row.bonus),
                "total": _points(row.total),
            }
            for index, (row, name) in enumerate(zip(view.rows, view.names, strict=True))
        ],
        "matches": matches,
    }


async def event_calendar(guild: Guild, request: web.Request) -> Page:
    """`/event calendar`'s .ics file: every session day of the event."""
    read, days = await event_reads.event_calendar(guild.store, number(request, "event"))
    stamp = guild.store.database.clock()
    record = read.loaded.record
    guild_id = guild.store.guild_id
    data = event_calendar_ics(
        read.tour, record.name, days, stamp, guild=guild_id, event_id=record.id
    )
    return Page(data, ICS, f"event-{read.loaded.record.id}.ics")


@dataclass(frozen=True)
class PlayerDay:
    """One day a player plays in an event: its number, session start and their games."""

    day: int
    start: dt.datetime
    what: str


async def player_calendar(guild: Guild, request: web.Request) -> Page:
    """A tour player's calendar: each day they play, with their games and results once known."""
    loaded = await tour_reads.loaded_tour(guild.store, number(request, "tour"))
    wanted = number(request, "player")
    player = next((p for p in loaded.players if p.id == wanted), None)
    if player is None:
        raise NotFound(f"no player {wanted} in the tour")
    stamp = guild.store.database.clock()
    calendars = [
        (event.record.id, event.record.name, player_days(event, loaded.rules, player))
        for event in loaded.events
        if player.id in event.names and event.record.drawn_at is not None
    ]
    data = tour_calendar_ics(
        loaded.record.name,
        calendars,
        stamp,
        guild=guild.store.guild_id,
        name=f"{loaded.record.name}: {player.name}",
        tag=f"player{player.id}",
    )
    return Page(data, ICS, f"tour-{loaded.record.id}-player-{player.id}.ics")


def player_days(event: LoadedEvent, rules: TourRules, player: TourPlayer) -> list[PlayerDay]:
    """The days `player` plays in `event`: preliminary or Finals rounds and knock-out series."""
    name = event.names[player.id]
    if event.record.type is EventType.FINALS:
        return _finals_days(event, rules, name)
    return _preliminary_days(event, rules, name) + _knockout_days(event, rules, name)


def _preliminary_days(event: LoadedEvent, rules: TourRules, name: str) -> list[PlayerDay]:
    """CCT-8a: the player's preliminary games, grouped by the day they are played."""
    rounds = round_count(event)
    stored = {(g.round, g.board): g for g in event.games if g.stage == "preliminary"}
    by_day: dict[int, list[str]] = {}
    for pairing in event.round_robin:
        if name not in (pairing.white, pairing.black):
            continue
        game = stored.get((pairing.round, pairing.board))
        result = "to play"
        if game is not None and game.status.settled:
            result = result_text(game.result)
        day = round_day(event.record, pairing.round, rounds)
        by_day.setdefault(day, []).append(
            f"R{pairing.round} {pairing.white} v {pairing.black}: {result}"
        )
    return [
        PlayerDay(day, day_start(event.record, rules, day), "preliminary; " + "; ".join(games))
        for day, games in sorted(by_day.items())
    ]


def _knockout_days(event: LoadedEvent, rules: TourRules, name: str) -> list[PlayerDay]:
    """CCT-8c, CCT-8d: the player's knock-out series, each on its round's two days."""
    ties = knockout_ties(event)
    if not ties:
        return []
    bracket = views.bracket(event, ties)
    days = []
    for series in bracket.series:
        if name not in (series.higher, series.lower):
            continue
        label = f"{ROUND_NAMES[series.tie]} {series.names[0]} v {series.names[1]}"
        state = series.footer()[0]
        for match, part in ((1, "match 1"), (None, "match 2 and play-off")):
            day = knockout_day(series.tie, match)
            what = f"{label}, {part}; {state}"
            days.append(PlayerDay(day, day_start(event.record, rules, day), what))
    return days


def _finals_days(event: LoadedEvent, rules: TourRules, name: str) -> list[PlayerDay]:
    """CCT-8f: the player's Finals match of each round, one round a day."""
    rounds = round_count(event)
    days = []
    for match in finals_states(event):
        p = match.pairing
        if name not in (p.white, p.black):
            continue
        what = f"R{p.round} {p.white} v {p.black}: {finals_state(match)}"
        day = round_day(event.record, p.round, rounds)
        days.append(PlayerDay(day, day_start(event.record, rules, day), what))
    return days
