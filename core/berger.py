"""Round-robin pairings by the FIDE Berger tables, CORE-1 and FIDE Handbook C.05 Annex 1.

For n players the table of N is used, where N is n rounded up to even. With odd n, whoever meets
pairing number N has a bye that round. Board 1 is always the game of number N. Double round robins
and the drawing of lots for pairing numbers by CCT-8a live here too.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

MIN_PLAYERS = 3
MAX_PLAYERS = 24
"""CORE-1: the sizes the bot pairs. FIDE publishes 3/4 … 15/16 and the rule extends to 24."""

_Entrant = TypeVar("_Entrant", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round: pairing numbers of the White and Black player."""

    white: int
    black: int


@dataclass(frozen=True, slots=True)
class BergerTable:
    """A full single round robin: `rounds[r][b]` is board b+1 of round r+1 and `byes[r]` sits
    out.
    """

    players: int
    rounds: tuple[tuple[Pairing, ...], ...]
    byes: tuple[int | None, ...]


def _even_size(players: int) -> int:
    if players < 2:
        raise ValueError(f"a round robin needs at least 2 players, not {players}")
    return players + (players % 2)


def _coloured(a: int, b: int) -> Pairing:
    """CORE-1 colours between two numbers below N: odd sum → lower is White, else higher."""
    low, high = min(a, b), max(a, b)
    return Pairing(low, high) if (a + b) % 2 else Pairing(high, low)


def berger_round(players: int, round_no: int) -> tuple[Pairing, ...]:
    """CORE-1: the boards of one round of the Berger table for `players`, byes included."""
    size = _even_size(players)
    cycle = size - 1
    if not 1 <= round_no <= cycle:
        raise ValueError(f"round {round_no} is outside 1..{cycle} for {players} players")
    # The number meeting N in round r solves 2i - 2 ≡ r - 1 (mod N - 1).
    pivot = next(i for i in range(1, size) if (2 * i - 2) % cycle == round_no - 1)
    first = Pairing(pivot, size) if round_no % 2 else Pairing(size, pivot)
    boards = [first]
    for step in range(1, size // 2):
        a = (pivot - 1 + step) % cycle + 1
        b = (pivot - 1 - step) % cycle + 1
        boards.append(_coloured(a, b))
    return tuple(boards)


def berger_table(players: int) -> BergerTable:
    """CORE-1: the single round-robin Berger table for 2..N players, with byes for odd n."""
    size = _even_size(players)
    rounds: list[tuple[Pairing, ...]] = []
    byes: list[int | None] = []
    for round_no in range(1, size):
        boards = berger_round(players, round_no)
        if size != players:
            phantom = next(p for p in boards if size in (p.white, p.black))
            byes.append(phantom.black if phantom.white == size else phantom.white)
            boards = tuple(p for p in boards if p is not phantom)
        else:
            byes.append(None)
        rounds.append(boards)
    return BergerTable(players=players, rounds=tuple(rounds), byes=tuple(byes))


def _reversed(boards: tuple[Pairing, ...]) -> tuple[Pairing, ...]:
    return tuple(Pairing(p.black, p.white) for p in boards)


def double_berger_table(players: int, *, swap_last_two: bool = True) -> BergerTable:
    """CORE-1: a double round robin, the first cycle and then the table again with colours reversed.

    With `swap_last_two`, the default that FIDE C.05 Annex 1 recommends, only the last two rounds of
    the first cycle are played in swapped order. The second cycle keeps the table order, as FIDE's
    reference pairing program gacrux plays Berger with two meetings. This avoids three games in a
    row with one colour for every size. Repeating the swap in the second cycle would give no. 4 of 4
    players White in rounds 3, 4 and 5.
    """
    single = berger_table(players)
    order = list(range(len(single.rounds)))
    if swap_last_two and len(order) >= 2:
        order[-2], order[-1] = order[-1], order[-2]
    first = [single.rounds[i] for i in order]
    byes = [single.byes[i] for i in order]
    return BergerTable(
        players=players,
        rounds=tuple(first + [_reversed(boards) for boards in single.rounds]),
        byes=tuple(byes + list(single.byes)),
    )


def pairing_table(players: int, *, double: bool = False, swap_last_two: bool = True) -> BergerTable:
    """CORE-1: the single or double Berger table for the 3 to 24 players the bot runs."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"a round robin here has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )
    if double:
        return double_berger_table(players, swap_last_two=swap_last_two)
    return berger_table(players)


def draw_lots(entrants: Sequence[_Entrant], seed: int | str) -> tuple[_Entrant, ...]:
    """CCT-8a: draws pairing numbers by lot and returns the entrants in pairing-number order.

    Index 0 is no. 1. The draw is a pure function of the entrants' listed order and the recorded
    `seed`, through `random.Random(seed)`, so the same seed replays the same draw and it can be
    audited.
    """
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError(f"a draw seed is an integer or a string, not {seed!r}")
    if len(set(entrants)) != len(entrants):
        raise ValueError("every entrant must appear once in a drawing of lots")
    drawn = list(entrants)
    random.Random(seed).shuffle(drawn)
    return tuple(drawn)
