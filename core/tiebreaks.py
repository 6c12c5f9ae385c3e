"""Individual tie-break values from a list of games, by CORE-2, CORE-3 and CCT-8b.

Games carry a `Result`, forfeits included, and byes carry the `Outcome` they are worth. Points
follow a `Scoring`. SB, SB-C1, Koya and DE come from `core.crosstable`, the one shared
implementation. By CORE-2 it is fed with every game, forfeits and double forfeits included.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.crosstable import Encounter, koya, sonneborn_berger, sonneborn_berger_cut, totals
from core.results import STANDARD, Outcome, Result, Scoring


class Criterion(enum.StrEnum):
    """CORE-3: the criteria a standings order can be built from, in order after PTS."""

    PTS = "PTS"
    DE = "DE"
    WIN = "WIN"
    SB = "SB"
    SB_C1 = "SB-C1"
    KS = "KS"


class DeReading(enum.StrEnum):
    """CCT-8b: how direct encounter is applied to a tied group.

    With `cct`, the default, it is applied once over the group tied on the preceding criteria. With
    `fide2024` it is then re-applied to every smaller sub-group still tied, by FIDE C.07 art. 6.2.
    """

    CCT = "cct"
    FIDE2024 = "fide2024"


CCT_8B: tuple[Criterion, ...] = (
    Criterion.PTS,
    Criterion.DE,
    Criterion.WIN,
    Criterion.SB,
    Criterion.KS,
)
"""CCT-8b: points, then direct encounter, number of wins, Sonneborn-Berger, Koya."""


@dataclass(frozen=True, slots=True)
class Game:
    """CORE-2: one game of the event between two player ids, with its round if known."""

    white: Hashable
    black: Hashable
    result: Result
    round: int | None = None


@dataclass(frozen=True, slots=True)
class Bye:
    """A round without a game that is still scored, such as a half-point bye, TRF `H`.

    `points`, when given, is what this kind of bye is worth in the event, as TRF-2026 `162` sets it,
    instead of the points of its outcome.
    """

    player: Hashable
    outcome: Outcome
    round: int | None = None
    points: Fraction | None = None


@dataclass(frozen=True, slots=True)
class PlayerValues:
    """Every player's points and order-independent tie-break values. DE depends on groups."""

    points: dict[Hashable, Fraction]
    wins: dict[Hashable, int]
    sb: dict[Hashable, Fraction]
    sb_c1: dict[Hashable, Fraction]
    ks: dict[Hashable, Fraction]
    encounters: tuple[Encounter, ...]


def game_encounters(games: Iterable[Game], scoring: Scoring = STANDARD) -> tuple[Encounter, ...]:
    """CORE-2: games as crosstable encounters. Forfeits count as played games by C.07 15.2."""
    return tuple(
        Encounter(
            g.white,
            g.black,
            scoring.game_points(g.result, white=True),
            scoring.game_points(g.result, white=False),
        )
        for g in games
    )


def check_games(players: Sequence[Hashable], games: Iterable[Game], byes: Iterable[Bye]) -> None:
    """Reject games or byes naming an unknown player, or a player paired with themselves."""
    known = set(players)
    if len(known) != len(players):
        raise ValueError("every player must be listed once")
    for g in games:
        for who in (g.white, g.black):
            if who not in known:
                raise ValueError(f"a game names {who!r}, who is not a player of the event")
        if g.white == g.black:
            raise ValueError(f"{g.white!r} cannot play themselves")
    for b in byes:
        if b.player not in known:
            raise ValueError(f"a bye names {b.player!r}, who is not a player of the event")


def player_values(
    players: Sequence[Hashable],
    games: Iterable[Game],
    byes: Iterable[Bye] = (),
    *,
    scoring: Scoring = STANDARD,
    max_score: Fraction | None = None,
    adjustments: Mapping[Hashable, Fraction] | None = None,
) -> PlayerValues:
    """CORE-3: points, WIN, SB, SB-C1 and KS of every player.

    WIN counts games won, forfeit wins included. Byes are not games. KS counts points against
    players with at least half of `max_score`. By default that is a win for every game or scored bye
    of the player with the most, which in a complete round robin is n-1 games per cycle.
    `adjustments` add a bonus or penalty per player and change the points only. SB and KS weigh
    opponents by what they scored in the event, as FIDE's reference program gacrux does.
    """
    games = tuple(games)
    byes = tuple(byes)
    check_games(players, games, byes)
    encounters = game_encounters(games, scoring)
    points = totals(encounters, players)
    for b in byes:
        points[b.player] += scoring.points(b.outcome) if b.points is None else b.points
    wins = dict.fromkeys(players, 0)
    rounds = dict.fromkeys(players, 0)
    for g in games:
        rounds[g.white] += 1
        rounds[g.black] += 1
        for who, white in ((g.white, True), (g.black, False)):
            if g.result.outcome(white=white) is Outcome.WIN:
                wins[who] += 1
    for b in byes:
        if b.outcome is not Outcome.LOSS:
            rounds[b.player] += 1
    if max_score is None:
        max_score = scoring.win * max(rounds.values(), default=0)
    final = dict(points)
    for player, change in (adjustments or {}).items():
        if player not in final:
            raise ValueError(f"an adjustment names {player!r}, who is not a player of the event")
        final[player] += change
    return PlayerValues(
        points=final,
        wins=wins,
        sb=sonneborn_berger(encounters, points),
        sb_c1=sonneborn_berger_cut(encounters, points, 1),
        ks=koya(encounters, points, max_score / 2),
        encounters=encounters,
    )
