"""A match as the `/match` replies show it: its season, division, clubs, start, CL-15
deadline, score and challenge status, read in one go."""

from __future__ import annotations

from bot.rendering.league_embeds import MatchLine, when
from bot.services.match_jobs import deadline_of
from bot.services.references import find_season
from storage.guild import GuildStore
from storage.matches import MatchRecord


async def match_line(store: GuildStore, match: MatchRecord) -> MatchLine:
    """The match's line (score None until boards are stored)."""
    async with store.read() as view:
        season = await find_season(view.seasons, match.season_id)
        division = next(
            d for d in await view.seasons.divisions(season.id) if d.id == match.division_id
        )
        home, away = (
            await view.clubs.get(match.home_club_id),
            await view.clubs.get(match.away_club_id),
        )
        boards = await view.matches.boards(match.id)
    assert home is not None and away is not None
    score = (sum(b.home_half for b in boards), sum(b.away_half for b in boards)) if boards else None
    names = {home.id: home.name, away.id: away.name}
    c = match.challenge
    if c is None:
        challenge = "not issued yet"
    else:
        challenge = f"issued by {names[c.issued_by]} {when(c.issued_at)} ({c.issued_source})"
        if c.accepted_at is not None:
            challenge += f"; accepted {when(c.accepted_at)}"
    return MatchLine(
        match.id,
        season.name,
        division.name,
        match.key,
        match.round,
        home.name,
        away.name,
        match.start,
        deadline_of(match.start, season.rules.challenge_deadline_hours),
        match.finished_at is not None,
        score,
        challenge,
    )
