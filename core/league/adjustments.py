"""Multi-team players by CL-18, closed accounts by CL-19 and the board adjustment by CL-ADJ.

Appearances are the boards of finished matches across every division, including matches later voided
by a disqualification. Usernames are compared case-insensitively.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from core.league.facts import CompiledMatch


@dataclass(frozen=True, slots=True)
class MultiTeamPlayer:
    """CL-18: a player with two or more matches for clubs other than their home club."""

    player: str
    home_club: str
    other_matches: int


def finished_by(
    matches: Iterable[CompiledMatch], cutoff: dt.datetime | None
) -> list[CompiledMatch]:
    """CL-1: the matches finished on or before `cutoff`, or every finished one without it."""
    return [
        m for m in matches if m.finished is not None and (cutoff is None or m.finished <= cutoff)
    ]


def multi_team_players(finished: Sequence[CompiledMatch]) -> list[MultiTeamPlayer]:
    """CL-18: finds each player's home club and the multi-team players.

    The home club is the club a player played most matches for. Ties go to the earliest first match,
    then the club name. One match elsewhere is tolerated, two or more make a multi-team player.
    `finished` must be in chronological order, as compiled.
    """
    # player -> club -> [matches, first match start, last match index counted]. The tie is
    # on the first match's start instant: two first matches starting at the same instant
    # are equally early, so the club name decides (not the match id).
    seen: dict[str, dict[str, list[Any]]] = {}
    for match in finished:
        index, start = match.order, match.start
        home, away = match.home, match.away
        for home_player, away_player, _ in match.boards:
            for player, club in ((home_player, home), (away_player, away)):
                clubs = seen.get(player)
                if clubs is None:
                    seen[player] = {club: [1, start, index]}
                    continue
                record = clubs.get(club)
                if record is None:
                    clubs[club] = [1, start, index]
                elif record[2] != index:
                    record[0] += 1
                    record[2] = index
    found = []
    for player, clubs in seen.items():
        if len(clubs) < 2:
            continue
        home_club = min(clubs, key=lambda c: (-clubs[c][0], clubs[c][1], c))
        others = sum(r[0] for c, r in clubs.items() if c != home_club)
        if others >= 2:
            found.append(MultiTeamPlayer(player, home_club, others))
    return sorted(found, key=lambda p: p.player)


def adjusted_home_half(match: CompiledMatch, adjusted: frozenset[str], games: int) -> int:
    """CL-ADJ and CL-19: the home club's half-points after adjusting the boards of `adjusted`
    players.

    An adjusted player scores 0 and the opponent gets all `games`. When both are adjusted the points
    are split.
    """
    if match.players.isdisjoint(adjusted):
        return match.home_half
    full = 2 * games
    total = 0
    for home_player, away_player, home_half in match.boards:
        home_out = home_player in adjusted
        away_out = away_player in adjusted
        if home_out and away_out:
            total += games
        elif home_out:
            pass
        elif away_out:
            total += full
        else:
            total += home_half
    return total
