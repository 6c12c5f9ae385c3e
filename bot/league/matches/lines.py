"""A match as the `/match` replies show it: its season, division, clubs, start, CL-15
deadline, score and challenge status, read in one go."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from bot.league.matches.jobs import deadline_of
from bot.league.references import find_season
from bot.rendering.common.user_text import user_text
from bot.rendering.league.embeds import BoardLine, MatchLine, when
from storage.guild import GuildStore, GuildView
from storage.league.matches import BoardRecord, MatchRecord, Source
from storage.league.seasons import SeasonRecord


def _learned(at: dt.datetime, source: Source | None) -> str:
    """When and how a challenge step became known.

    A step first seen by polling chess.com happened by then at the latest, an upper bound, and says
    so.
    """
    if source == "chesscom":
        return f"by {when(at)} (seen on chess.com then; an upper bound)"
    return when(at) if source is None else f"{when(at)} ({source})"


async def match_line(store: GuildStore, match: MatchRecord) -> MatchLine:
    """The match's line. The score is None until boards are stored."""
    async with store.read() as view:
        season = await find_season(view.seasons, match.season_id)
        return await read_line(view, match, season, await view.matches.boards(match.id))


async def read_line(
    view: GuildView, match: MatchRecord, season: SeasonRecord, boards: Sequence[BoardRecord]
) -> MatchLine:
    """`match_line` inside a read the caller holds, given the season and boards it already read."""
    division = next(d for d in await view.seasons.divisions(season.id) if d.id == match.division_id)
    home, away = await view.clubs.pair(match.home_club_id, match.away_club_id)
    assert home is not None and away is not None
    score = (sum(b.home_half for b in boards), sum(b.away_half for b in boards)) if boards else None
    names = {home.id: home.name, away.id: away.name}
    c = match.challenge
    if c is None:
        challenge = "not issued yet"
    else:
        issuer = user_text(names[c.issued_by])
        challenge = f"issued by {issuer} {_learned(c.issued_at, c.issued_source)}"
        if c.accepted_at is not None:
            challenge += f"; accepted {_learned(c.accepted_at, c.accepted_source)}"
    return MatchLine(
        match.id,
        season.name,
        division.name,
        match.key,
        match.round,
        home.name,
        away.name,
        match.start,
        deadline_of(match.start, season.rules.challenge_deadline_hours, match.deadline_at),
        match.finished_at is not None,
        score,
        challenge,
    )


ADJUSTED_WHY = {"CL-18": "multi-team player (CL-18)", "CL-19": "closed account (CL-19)"}
"""Why a board was adjusted by CL-ADJ, by the rule of the adjusted player."""


def board_lines(
    boards: Sequence[BoardRecord], adjusted_players: Sequence[tuple[str, str]]
) -> list[BoardLine]:
    """The match's boards as shown, each one adjusted by CL-18 or CL-19 with why.

    `adjusted_players` holds the league report's (lower-case username, rule) pairs.
    """
    rule_of = dict(adjusted_players)

    def why(board: BoardRecord) -> str | None:
        rule = rule_of.get(board.home_player.lower()) or rule_of.get(board.away_player.lower())
        return None if rule is None else ADJUSTED_WHY.get(rule, rule)

    return [
        BoardLine(b.board, b.home_player, b.away_player, b.home_half, b.away_half, why(b))
        for b in boards
    ]
