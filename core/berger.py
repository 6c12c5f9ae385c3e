"""Round-robin pairings by the FIDE Berger tables (CORE-1, FIDE Handbook C.05 Annex 1).

For n players the table of N = n rounded up to even is used; with odd n, whoever meets
pairing number N has no game that round (a bye). Board 1 is always the game of number N.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pairing:
    """One game of a round: pairing numbers of the White and Black player."""

    white: int
    black: int


@dataclass(frozen=True, slots=True)
class BergerTable:
    """A full single round robin: `rounds[r][b]` is board b+1 of round r+1; `byes[r]` sits out."""

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
    """CORE-1: the boards of one round of the Berger table for `players` (byes included)."""
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
