"""Individual standings by CORE-3 and CCT-8b.

Players are ordered by points and an ordered tie-break list, with shared ranks such as 1, 2, 2, 4
when a tie remains. By CORE-5 the order of the input games never matters. Every value is a sum over
the games, and tied players are listed in the order of the `players` sequence, which is their start
numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.berger import draw_lots
from core.crosstable import Encounter, direct_encounter
from core.ranks import shared_ranks
from core.results import STANDARD, Scoring
from core.tiebreaks import (
    CCT_8B,
    Bye,
    Criterion,
    DeReading,
    Game,
    PlayerValues,
    player_values,
)


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    """CORE-3: one row of the standings.

    `de` is None where direct encounter was not applied, because there was no tie or not every tied
    pair has met. `tied` marks a shared rank. `by_lot` marks a rank that a drawing of lots decided
    after every criterion left the tie.
    """

    rank: int
    player: Hashable
    points: Fraction
    de: Fraction | None
    wins: int
    sb: Fraction
    sb_c1: Fraction
    ks: Fraction
    tied: bool
    by_lot: bool = False


Group = list[Hashable]


def _split(group: Group, value: Mapping[Hashable, object]) -> list[Group]:
    """Splits a tied group by a value, highest first, keeping the input order inside each part."""
    levels = sorted({value[p] for p in group}, reverse=True)  # type: ignore[type-var]  # one criterion: Fractions
    return [[p for p in group if value[p] == level] for level in levels]


def _split_by_de(
    group: Group,
    encounters: Sequence[Encounter],
    reading: DeReading,
    shown: dict[Hashable, Fraction],
) -> list[Group]:
    """CORE-3 DE on one tied group, re-applied to each smaller tied part under `fide2024`.

    `shown` keeps each player's DE score from the first and widest group it was computed in.
    """
    scores = direct_encounter(group, encounters)
    if scores is None:
        return [group]
    for player, score in scores.items():
        shown.setdefault(player, score)
    parts = _split(group, scores)
    if reading is DeReading.CCT:
        return parts
    result: list[Group] = []
    for part in parts:
        if 1 < len(part) < len(group):
            result.extend(_split_by_de(part, encounters, reading, shown))
        else:
            result.append(part)
    return result


def rank_groups(
    players: Sequence[Hashable],
    values: PlayerValues,
    criteria: Sequence[Criterion] = CCT_8B,
    reading: DeReading = DeReading.CCT,
) -> tuple[list[Group], dict[Hashable, Fraction]]:
    """CORE-3 / CCT-8b: the players in groups of equal rank, best first, and the DE shown."""
    if not criteria or criteria[0] is not Criterion.PTS:
        raise ValueError("a standings order starts with PTS")
    if len(set(criteria)) != len(criteria):
        raise ValueError("a criterion appears twice in the tie-break list")
    by_value: dict[Criterion, Mapping[Hashable, object]] = {
        Criterion.PTS: values.points,
        Criterion.WIN: values.wins,
        Criterion.SB: values.sb,
        Criterion.SB_C1: values.sb_c1,
        Criterion.KS: values.ks,
    }
    shown: dict[Hashable, Fraction] = {}
    groups: list[Group] = [list(players)] if players else []
    for criterion in criteria:
        refined: list[Group] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
            elif criterion is Criterion.DE:
                refined.extend(_split_by_de(group, values.encounters, reading, shown))
            else:
                refined.extend(_split(group, by_value[criterion]))
        groups = refined
    return groups, shown


def standings(
    players: Sequence[Hashable],
    games: Iterable[Game],
    byes: Iterable[Bye] = (),
    *,
    scoring: Scoring = STANDARD,
    criteria: Sequence[Criterion] = CCT_8B,
    reading: DeReading = DeReading.CCT,
    max_score: Fraction | None = None,
    lots_seed: int | str | None = None,
    adjustments: Mapping[Hashable, Fraction] | None = None,
) -> tuple[PlayerStanding, ...]:
    """CORE-3 and CCT-8b: the standings in rank order.

    Players still tied share a rank, unless the event orders a drawing of lots by `lots_seed`, which
    then orders each remaining tie.

    `players` lists every player once, in start-number order, which is the order tied players are
    shown in. `criteria` starts with PTS. The CCT-8b default is PTS, DE, WIN, SB, KS. The draw is
    `core.berger.draw_lots` over a tied group in that order, so a recorded seed replays it.
    `adjustments` add a bonus or penalty to a player's points, as a TRF-2026 record 299 does.
    """
    values = player_values(
        players, games, byes, scoring=scoring, max_score=max_score, adjustments=adjustments
    )
    groups, shown = rank_groups(players, values, criteria, reading)
    ranked: list[Group] = []
    by_lot: set[Hashable] = set()
    for tie in groups:
        if lots_seed is not None and len(tie) > 1:
            ranked.extend([player] for player in draw_lots(tie, lots_seed))
            by_lot.update(tie)
        else:
            ranked.append(tie)
    return tuple(
        PlayerStanding(
            rank=rank,
            player=player,
            points=values.points[player],
            de=shown.get(player),
            wins=values.wins[player],
            sb=values.sb[player],
            sb_c1=values.sb_c1[player],
            ks=values.ks[player],
            tied=len(group) > 1,
            by_lot=player in by_lot,
        )
        for rank, group in shared_ranks(ranked)
        for player in group
    )
