"""`/match list` as a read use case: a season's matches in start order, narrowed to one
club, one round or the caller's clubs, each with its score and CL-15 deadline."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot.league.matches.jobs import deadline_of
from bot.league.references import find_club, find_season
from bot.rendering.league.embeds import MatchLine
from storage.guild import GuildStore
from storage.league.matches import BoardRecord, MatchRecord
from storage.league.seasons import SeasonRecord


@dataclass(frozen=True)
class MatchList:
    """The season and its matches asked for, in start order."""

    season: SeasonRecord
    matches: tuple[MatchLine, ...]


async def season_matches(
    store: GuildStore,
    season: str,
    club: str | None = None,
    round: int | None = None,
    admin: int | None = None,
) -> MatchList:
    """The matches of the season of this guild.

    When given, `club`, `round` and `admin` keep only that club's matches, that round's, and those
    of the clubs that user administers.
    """
    async with store.read() as view:
        record = await find_season(view.seasons, season)
        only = None if club is None else (await find_club(view.clubs, club)).id
        clubs = {c.id: c.name for c in await view.clubs.all()}
        divisions = {d.id: d.name for d in await view.seasons.divisions(record.id)}
        boards = await view.matches.boards_of_season(record.id)
        yours = set() if admin is None else await view.club_admins.club_ids_of(admin)
        found = [
            m
            for m in await view.matches.of_season(record.id)
            if (only is None or only in (m.home_club_id, m.away_club_id))
            and (round is None or m.round == round)
            and (admin is None or yours & {m.home_club_id, m.away_club_id})
        ]
    return MatchList(record, match_lines(record, found, divisions, clubs, boards))


def match_lines(
    season: SeasonRecord,
    matches: Iterable[MatchRecord],
    divisions: Mapping[int, str],
    clubs: Mapping[int, str],
    boards: Mapping[int, Sequence[BoardRecord]] | None = None,
) -> tuple[MatchLine, ...]:
    """The matches as list lines in start order, each with its CL-15 challenge deadline.

    When `boards` are given each line has its score, which is None before any board is stored.
    """
    notice = season.rules.challenge_deadline_hours
    lines = []
    for m in sorted(matches, key=lambda m: (m.start, m.key)):
        played = (boards or {}).get(m.id)
        score = (
            (sum(b.home_half for b in played), sum(b.away_half for b in played)) if played else None
        )
        lines.append(
            MatchLine(
                m.id,
                season.name,
                divisions[m.division_id],
                m.key,
                m.round,
                clubs[m.home_club_id],
                clubs[m.away_club_id],
                m.start,
                deadline_of(m.start, notice, m.deadline_at),
                m.finished_at is not None,
                score,
                "",
            )
        )
    return tuple(lines)
