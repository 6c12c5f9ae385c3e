"""The records a league address names, read in the guild's own data, or the 404 page.

A path names a season, a division, a club or a match by its id. Another guild's id, or a division
or club not of the season named, is not found, as in the commands' `bot.league.references`.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web

from bot.web.pages import Guild, NotFound, number
from storage.league.matches import MatchRecord
from storage.league.seasons import DivisionRecord, SeasonRecord


@dataclass(frozen=True)
class SeasonParts:
    """A season with its divisions in CL-7 order, and its clubs' ids by name."""

    record: SeasonRecord
    divisions: tuple[DivisionRecord, ...]
    clubs: dict[str, int]

    def division(self, request: web.Request) -> DivisionRecord:
        """The division the path names, which must be one of this season's."""
        wanted = number(request, "division")
        found = next((d for d in self.divisions if d.id == wanted), None)
        if found is None:
            raise NotFound(f"no division {wanted} in season {self.record.id}")
        return found

    def division_id(self, name: str) -> int:
        """The id of the division named `name`."""
        return next(d.id for d in self.divisions if d.name == name)


async def season_parts(guild: Guild, request: web.Request) -> SeasonParts:
    """The season the path names, with its divisions and clubs."""
    wanted = number(request, "season")
    async with guild.store.read() as view:
        record = await view.seasons.get(wanted)
        if record is None:
            raise NotFound(f"no season {wanted}")
        divisions = sorted(await view.seasons.divisions(record.id), key=lambda d: d.position)
        members = {m.club_id for m in await view.seasons.members(record.id)}
        clubs = {c.name: c.id for c in await view.clubs.all() if c.id in members}
    return SeasonParts(record, tuple(divisions), clubs)


async def match_record(guild: Guild, request: web.Request) -> MatchRecord:
    """The match the path names."""
    wanted = number(request, "match")
    async with guild.store.read() as view:
        record = await view.matches.get(wanted)
    if record is None:
        raise NotFound(f"no match {wanted}")
    return record
