"""Tour events built from core/tour values, for the tour rendering tests and
`benchmarks/tour_render.py`: a generated 16-player Regular preliminary (Berger pairings, a
tie for a place that goes on, a forfeit), the real 12-player Airthings Masters 2020
preliminary with a knock-out whose series need blitz and an Armageddon, and the 10-player
Finals and tour standings of `tests/data/tour_*.json` read by `bot/formats/tour_file`."""

from __future__ import annotations

import csv
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import chess

from bot.formats.tour_file import load_tour
from bot.rendering.tour.views import PreliminaryView, preliminary_view
from core.berger import berger_table
from core.results import Result
from core.standings import PlayerStanding, standings
from core.tiebreaks import DeReading, Game
from core.tour.knockout import (
    Bracket,
    ContestStatus,
    PlayedGame,
    SeriesChoices,
    Tie,
    series_status,
)
from core.tour.report import TourReport, tour_report
from tests.support.paths import FIXTURES

DATA = Path(__file__).parents[1] / "data"
AIRTHINGS = FIXTURES / "tiebreaks" / "airthings_masters_2020_prelim"

REGULAR_PLAYERS = (
    "Magnus Carlsen",
    "Wesley So",
    "Hikaru Nakamura",
    "Ian Nepomniachtchi",
    "Teimour Radjabov",
    "Levon Aronian",
    "Maxime Vachier-Lagrave",
    "Daniil Dubov",
    "Pentala Harikrishna",
    "Alexander Grischuk",
    "Anish Giri",
    "David Antón Guijarro",
    "Jan-Krzysztof Duda",
    "Alireza Firouzja",
    "Ding Liren",
    "Vladislav Artemiev",
)
HOSTILE = (
    "**Bold** _under_ ~~gone~~",
    "@everyone <@123456789012345678>",
    "مرحبا بالعالم",
    "`tick` ||spoiler|| [link](https://evil.example)",
)
"""Names a player could be entered with: markdown, mentions, right-to-left letters."""
TWINS = (6, 7)
"""Indices of the two Regular players given the same results: still tied after CCT-8b."""


@dataclass(frozen=True)
class Preliminary:
    """A preliminary: its players in pairing-number order, decided games and standings."""

    name: str
    players: tuple[str, ...]
    games: tuple[Game, ...]
    rows: tuple[PlayerStanding, ...]
    reading: DeReading = DeReading.CCT


def view_of(event: Preliminary) -> PreliminaryView:
    """The rendering view of a preliminary (its standings, games and reading)."""
    return preliminary_view(event.name, event.rows, event.games, reading=event.reading)


def _result(white: str, black: str, winner: str | None) -> Result:
    """The result from White's side of a game `winner` won (None: drawn)."""
    if winner is None:
        return Result.DRAW
    return Result.WHITE_WIN if winner == white else Result.BLACK_WIN


def regular_games(
    players: Sequence[str] = REGULAR_PLAYERS, seed: int = 25, rounds: int | None = None
) -> tuple[Game, ...]:
    """CORE-1/CCT-8a: the Berger pairings of `players` (pairing numbers in order) with
    results where the better pairing number mostly wins; the `TWINS` draw each other and
    score alike against everyone else; the last two players' game is a forfeit. `rounds`
    limits the games to the first rounds (None: all)."""
    rnd = random.Random(seed)
    n = len(players)
    outcome: dict[tuple[int, int], int | None] = {}  # (low, high) -> index of winner / None
    for k in range(n):
        if k in TWINS:
            continue
        pick = rnd.random()
        for twin in TWINS:
            low, high = sorted((twin, k))
            twin_wins = pick < 0.3 if k < twin else pick < 0.5
            drawn = 0.3 <= pick < 0.6 if k < twin else 0.5 <= pick < 0.8
            outcome[(low, high)] = None if drawn else twin if twin_wins else k
    outcome[TWINS] = None
    for a in range(n):
        for b in range(a + 1, n):
            if (a, b) in outcome:
                continue
            pick = rnd.random()
            outcome[(a, b)] = a if pick < 0.55 else None if pick < 0.85 else b
    games = []
    table = berger_table(n)
    for number, boards in enumerate(table.rounds[:rounds], start=1):
        for pairing in boards:
            white, black = pairing.white - 1, pairing.black - 1
            winner = outcome[tuple(sorted((white, black)))]  # type: ignore[index]
            if {white, black} == {n - 2, n - 1}:
                result = Result.WHITE_FORFEIT_WIN
            else:
                name = None if winner is None else players[winner]
                result = _result(players[white], players[black], name)
            games.append(Game(players[white], players[black], result, number))
    return tuple(games)


def regular_preliminary(
    rounds: int | None = None,
    reading: DeReading = DeReading.CCT,
    players: Sequence[str] = REGULAR_PLAYERS,
) -> Preliminary:
    """The 16-player Regular's preliminary after `rounds` rounds (None: all 15)."""
    games = regular_games(players, rounds=rounds)
    rows = standings(tuple(players), games, reading=reading)
    return Preliminary("Skilling Open", tuple(players), games, rows, reading)


def airthings_preliminary() -> Preliminary:
    """CCT-8b: the real Airthings Masters 2020 preliminary (12 players, 66 games), players
    by the organiser's Berger numbers."""
    expected = json.loads(AIRTHINGS.with_suffix(".expected.json").read_text(encoding="utf-8"))
    by_number = expected["values_by_start_number"]
    players = tuple(by_number[str(n)]["name"] for n in range(1, len(by_number) + 1))
    path = AIRTHINGS.parent / f"{AIRTHINGS.name}_games.csv"
    with path.open(encoding="utf-8", newline="") as file:
        games = tuple(
            Game(row["white"], row["black"], Result(row["result"]), int(row["round"]))
            for row in csv.DictReader(file)
        )
    return Preliminary("Airthings Masters", players, games, standings(players, games))


def play_series(
    higher: str,
    lower: str,
    outcomes: str,
    *,
    white_first: bool = True,
    blitz_white: bool | None = None,
    armageddon_white: bool | None = None,
) -> ContestStatus:
    """CCT-8d/8e: a series played game by game as the core orders it; `outcomes` is one
    letter a game from the higher-ranked player's side (`w` won, `d` drawn, `l` lost), and
    the colour flags are the higher-ranked player's choices (True: White)."""

    def colour(white: bool | None) -> chess.Color | None:
        return None if white is None else chess.WHITE if white else chess.BLACK

    choices = SeriesChoices(
        chess.WHITE if white_first else chess.BLACK, colour(blitz_white), colour(armageddon_white)
    )
    games: list[PlayedGame] = []
    status = series_status(higher, lower, choices, games)
    for letter in outcomes:
        slot = status.next_game
        assert slot is not None, f"{higher} v {lower}: no game left for {letter!r}"
        winner = {"w": higher, "l": lower, "d": None}[letter]
        games.append(slot.played(_result(slot.white, slot.black, winner)))
        status = series_status(higher, lower, choices, games)
    return status


def major_bracket(finished: bool = False) -> tuple[Bracket, dict[Tie, ContestStatus]]:
    """CCT-8c/8d: the Airthings Masters' top 8 in a knock-out whose series show every way
    to end: QF1 won in the rapid matches, QF2 in the blitz play-off, QF3 by a drawn
    Armageddon (Black wins), QF4 won by the lower seed; SF1 in progress, SF2 waiting for the
    first blitz colour. `finished`: SF1 and SF2 decided (SF2 by an Armageddon), the 3rd-place
    match decided and the Final on its Armageddon."""
    rows = airthings_preliminary().rows
    bracket = Bracket(tuple(str(row.player) for row in rows[:8]))
    p = bracket.places  # Carlsen, So, Nakamura, Nepo, Radjabov, Aronian, MVL, Dubov
    statuses = {
        Tie.QF1: play_series(p[0], p[7], "wdw" + "dddd"),
        Tie.QF2: play_series(p[1], p[6], "ldl" + "wwd" + "wd", blitz_white=True, white_first=False),
        Tie.QF3: play_series(
            p[2], p[5], "dddd" + "dddd" + "wl" + "d", blitz_white=False, armageddon_white=False
        ),
        Tie.QF4: play_series(p[3], p[4], "lld" + "dll"),
    }
    # SF1: Carlsen v Radjabov; SF2: So v Nakamura.
    if not finished:
        statuses[Tie.SF1] = play_series(p[0], p[4], "wdlw" + "d")
        statuses[Tie.SF2] = play_series(p[1], p[2], "dddd" + "wlwl")
        return bracket, statuses
    statuses[Tie.SF1] = play_series(p[0], p[4], "wdlw" + "ddd" + "d")
    statuses[Tie.SF2] = play_series(
        p[1], p[2], "dddd" + "wlwl" + "dd" + "l", blitz_white=True, armageddon_white=True
    )
    # Final: Carlsen v Nakamura, waiting for its Armageddon; 3rd place: So v Radjabov.
    statuses[Tie.FINAL] = play_series(
        p[0], p[2], "wlwl" + "lwlw" + "wl", blitz_white=True, armageddon_white=False
    )
    statuses[Tie.THIRD_PLACE] = play_series(p[1], p[4], "www" + "dddd")
    return bracket, statuses


def tour_file_report(name: str = "tour_three_events") -> TourReport:
    """The report of `tests/data/{name}.json` (events, ranking, qualification, Finals)."""
    tour, tables = load_tour(DATA / f"{name}.json")
    return tour_report(tour, tables=tables)
