"""`/season calendar` as a read use case.

It lists a season's matches, or one club's if named, in start order with their CL-15 challenge
deadlines, and the next ones not played yet.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from bot.league.matches.listing import match_lines
from bot.league.references import find_club, find_season
from bot.league.store import load_season
from bot.rendering.league.embeds import MatchLine
from core.league.lifecycle import MatchState, states
from storage.guild import GuildStore

VOID = MatchState.VOID
CALENDAR_MATCHES = 60
"""Matches `/season calendar` lists as coming. The .ics file holds them all."""


@dataclass(frozen=True)
class SeasonCalendar:
    """A season's matches by start, the next `CALENDAR_MATCHES` not finished and not void, and the
    void ones' keys.

    By CL-DQ a disqualified club's matches are cancelled.
    """

    season: str
    season_id: int
    matches: tuple[MatchLine, ...]
    coming: tuple[MatchLine, ...]
    void: frozenset[str] = frozenset()


async def season_calendar_of(
    store: GuildStore, season: str, club: str | None, now: dt.datetime
) -> SeasonCalendar:
    """The season's matches, or one club's, with starts and CL-15 deadlines.

    `coming` holds those neither finished nor void that start at or after `now`. `void` holds a
    disqualified club's.
    """
    async with store.read() as view:
        record = await find_season(view.seasons, season)
        only = None if club is None else (await find_club(view.clubs, club)).id
        names = {c.id: c.name for c in await view.clubs.all()}
        divisions = {d.id: d.name for d in await view.seasons.divisions(record.id)}
        matches = [
            m
            for m in await view.matches.of_season(record.id)
            if only is None or only in (m.home_club_id, m.away_club_id)
        ]
        void = frozenset(
            key for key, state in states(await load_season(view, record), now) if state is VOID
        )
    lines = match_lines(record, matches, divisions, names)
    coming = tuple(m for m in lines if not m.finished and m.start >= now and m.key not in void)
    return SeasonCalendar(record.name, record.id, lines, coming[:CALENDAR_MATCHES], void)
