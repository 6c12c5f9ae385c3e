"""What the TRF-2026 records of a parsed TRF mean for the scores, by CORE-2 and CORE-5.

FIDE's TRF-2026 adds records to TRF-16. Two change what a player scores, and are applied.

- `162` gives points per result kind. `W` is a win, forfeit win and full-point bye. `D` is
  a draw and half-point bye. `L` is a loss. `A` is an absence, a zero-point bye and a
  forfeit loss. `P` is the pairing-allocated bye. `X` is an unknown result, which no `001`
  code carries.
- `299` gives abnormal assignment points: column 5 the type, 14-17 the points, 20-22 the
  round, then start numbers from 24. A blank type is a bonus or penalty for the players
  named. A typed record without round or players is the value of that result kind for
  everyone.

Record `240` lists byes: column 5 is `F` full, `H` half or `Z` zero point, 7-9 the round, and start
numbers follow from 11. It gives those players that bye in that round where their `001` cell is
empty, and must agree with a filled one, as gacrux reads it. Descriptive records are read and
written back. Every other record is read, written back and reported as ignored.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from core.results import STANDARD, Scoring
from core.standings import PlayerStanding, standings
from core.tiebreaks import DeReading
from core.trf import (
    COMMENT,
    TrfError,
    TrfRound,
    TrfTournament,
    ascii_digits,
    cell_text,
    games_and_byes,
)

APPLIED = frozenset({"001", "012", "162", "240", "299", COMMENT})
"""Records whose content decides the standings. Record 012 only titles them."""

DESCRIPTIVE = frozenset(
    {"022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122", "132"}
    | {"142", "152", "172", "182", "222", "XXR"}
)
"""Records that describe the event and cannot change a score.

They hold the place, dates, arbiters, time control and rounds. They are read and written back
without a note.
"""

MAX_GAME_POINTS = Fraction(100)
"""The most a result may be worth in record 162 or `--points`.

Beyond it is a typo, and the 4-column TRF points field could not hold a score made of it.
"""

TEAM_RECORDS = frozenset({"013", "310"})
"""A file with these is a team event: its `240` and `299` records then concern teams."""

TEAM_APPLIED = frozenset({"240", "299"})
"""Records applied to players, but to teams in a team event, where they are ignored."""

_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_PAIRS = re.compile(rf"\s*(?:[A-Za-z]\s*{_NUMBER}\s*)+")
_PAIR = re.compile(rf"([A-Za-z])\s*({_NUMBER})")

_SYMBOLS_162 = {
    "W": ("win", "forfeit_win", "full_bye"),
    "D": ("draw", "half_bye"),
    "L": ("loss",),
    "A": ("zero_bye", "forfeit_loss"),
    "P": ("pab",),
    "X": (),
}
"""TRF-2026 record 162: which result kinds each symbol prices. `X` has no `001` code."""

_DEFAULTS_162 = {"W": Fraction(1), "D": Fraction(1, 2), "L": Fraction(0), "A": Fraction(0)}

_TYPES_299 = {
    "W": "win",
    "D": "draw",
    "L": "loss",
    "F": "full_bye",
    "H": "half_bye",
    "Z": "zero_bye",
    "+": "forfeit_win",
    "-": "forfeit_loss",
}
"""Record 299 types in column 5, and the result kind a tournament-wide record prices."""

_BYE_KINDS = {
    "F": "full_bye",
    "+": "full_bye",
    "H": "half_bye",
    "U": "pab",
    "Z": "zero_bye",
    "-": "zero_bye",
    " ": "zero_bye",
}
"""The result code of a round without an opponent, and the kind of bye it is."""

_BYES_240 = {
    "F": ("full-point", {"F", "+"}),
    "H": ("half-point", {"H"}),
    "Z": ("zero-point", {"Z", "-"}),
}
"""Record 240's bye types: the name, and the `001` bye codes that agree with it."""


@dataclass(frozen=True, slots=True)
class TrfScores:
    """How a TRF scores its results.

    It holds the scoring of games, the points of each bye code that the file prices, each player's
    bonus or penalty by start number, and the line of the first record that set the scoring, 0 when
    the file sets none. It also holds the byes of record 240 that fill empty cells.
    """

    scoring: Scoring
    bye_points: Mapping[str, Fraction] = field(default_factory=dict)
    adjustments: Mapping[Hashable, Fraction] = field(default_factory=dict)
    scoring_line: int = 0
    byes: Mapping[tuple[int, int], str] = field(default_factory=dict)
    """Record 240's byes for empty `001` cells, mapping (start number, round) to a bye code."""


def _points(text: str, line: int, where: str) -> Fraction:
    """CORE-5: a points field such as `11.5` or `-1.0` as an exact multiple of ½."""
    if not re.fullmatch(_NUMBER, text):
        raise TrfError(line, f"{where}: {text!r} is not a number of points")
    value = Fraction(text)
    if value.denominator > 2:
        raise TrfError(line, f"{where}: {text} is not a multiple of ½")
    return value


def _read_162(value: str, line: int) -> dict[str, Fraction]:
    """Record 162: the points of each symbol it names, in upper case."""
    if not _PAIRS.fullmatch(value):
        raise TrfError(
            line, f"record 162: {value.strip()!r} is not result codes with points, e.g. W  1.0"
        )
    given: dict[str, Fraction] = {}
    for symbol, text in _PAIR.findall(value):
        symbol = symbol.upper()
        if symbol not in _SYMBOLS_162:
            raise TrfError(line, f"record 162: result code {symbol!r} is not W, D, L, A, P or X")
        points = _points(text, line, f"record 162 ({symbol})")
        if abs(points) > MAX_GAME_POINTS:
            most = f"a result is worth at most {MAX_GAME_POINTS}"
            raise TrfError(line, f"record 162 ({symbol}): {text} points; {most}")
        given[symbol] = points
    return given


def _kinds_162(given: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """Every kind's points from one 162 record, TRF-2026's defaults for the symbols left out."""
    symbols = {**_DEFAULTS_162, **given}
    symbols.setdefault("P", symbols["W"])
    kinds: dict[str, Fraction] = {}
    for symbol, names in _SYMBOLS_162.items():
        for name in names:
            kinds[name] = symbols[symbol]
    return kinds


def _start_numbers(text: str, start: int, record: str, line: int, players: set[int]) -> list[int]:
    """The start numbers a record names from `text[start]` on, each a player with a 001 record."""
    numbers: list[int] = []
    for token in text[start:].split():
        if not ascii_digits(token):
            raise TrfError(
                line, f"record {record}: {token!r} (from column {start + 1}) is not a start number"
            )
        if int(token) not in players:
            raise TrfError(line, f"record {record}: player {int(token)} has no 001 record")
        numbers.append(int(token))
    return numbers


def _read_299(value: str, line: int, players: set[int]) -> tuple[str, Fraction, tuple[int, ...]]:
    """Record 299 in fixed columns: its type, points and the start numbers it names.

    A blank type is a bonus or penalty. Points are in columns 14-17 and start numbers from 24. A
    typed record scoped to a round or to players is refused, not guessed.
    """
    text = f"299 {value}".ljust(23)
    kind = text[4].upper()
    if kind != " " and kind not in _TYPES_299:
        raise TrfError(
            line, f"record 299: type {kind!r} (column 5) is not W D L F H Z + - or blank"
        )
    points_text = text[13:17].strip()
    if not points_text:
        raise TrfError(line, "record 299: no points in columns 14-17")
    points = _points(points_text, line, "record 299 (columns 14-17)")
    round_text = text[19:22].strip()
    if round_text and not ascii_digits(round_text):
        raise TrfError(line, f"record 299: round {round_text!r} (columns 20-22) is not a number")
    numbers = _start_numbers(text, 23, "299", line, players)
    if kind == " " and not numbers:
        raise TrfError(line, "record 299: a bonus or penalty names no player (columns 24-27)")
    if kind != " " and (numbers or int(round_text or 0)):
        raise TrfError(
            line,
            f"record 299: points for the {kind} results of one round or of named players "
            "are not supported; a bonus or penalty (blank type) or a value for every round "
            "and player is",
        )
    return kind, points, tuple(numbers)


def _read_240(value: str, line: int, players: set[int]) -> tuple[str, int, tuple[int, ...]]:
    """Record 240 in fixed columns: its bye type, round and the start numbers it names.

    The type is in column 5, the round in 7-9 and start numbers in 11-14, 16-19 and so on.
    """
    text = f"240 {value}".ljust(10)
    kind = text[4].upper()
    if kind not in _BYES_240:
        raise TrfError(line, f"record 240: type {kind!r} (column 5) is not F, H or Z")
    round_text = text[6:9].strip()
    if text[5] != " " or text[9] != " " or not ascii_digits(round_text) or not int(round_text):
        raise TrfError(
            line, f"record 240: round {text[5:10].strip()!r} (columns 7-9) is not a round number"
        )
    numbers = _start_numbers(text, 10, "240", line, players)
    if not numbers:
        raise TrfError(line, "record 240: the bye names no player (columns 11-14)")
    return kind, int(round_text), tuple(numbers)


def _byes_240(tournament: TrfTournament) -> dict[tuple[int, int], str]:
    """Record 240's byes that fill an empty cell.

    A bye that a filled cell contradicts, or that another 240 line gives differently, is refused
    naming the line.
    """
    by_no = {p.start_no: p for p in tournament.players}
    given: dict[tuple[int, int], tuple[str, int]] = {}
    fills: dict[tuple[int, int], str] = {}
    for index, (code, value) in enumerate(tournament.records):
        if code != "240":
            continue
        line = tournament.record_lines[index] if tournament.record_lines else 0
        kind, rnd, numbers = _read_240(value, line, set(by_no))
        name, agreeing = _BYES_240[kind]
        for number in numbers:
            earlier = given.setdefault((number, rnd), (kind, line))
            if earlier[0] != kind:
                raise TrfError(
                    line,
                    f"record 240: a {name} bye for player {number} in round {rnd}, but line "
                    f"{earlier[1]} gives a {_BYES_240[earlier[0]][0]} bye",
                )
            player = by_no[number]
            cell = player.rounds[rnd - 1] if rnd <= len(player.rounds) else None
            if cell is None or (cell.opponent is None and cell.code == " "):
                fills[(number, rnd)] = kind
            elif cell.opponent is not None or cell.code not in agreeing:
                raise TrfError(
                    line,
                    f"record 240: a {name} bye for player {number} in round {rnd}, but line "
                    f"{player.line} has {cell_text(cell)!r} in that round",
                )
    return fills


def with_byes(tournament: TrfTournament, byes: Mapping[tuple[int, int], str]) -> TrfTournament:
    """The tournament with record 240's byes written into the empty cells they fill."""
    if not byes:
        return tournament
    players = []
    for player in tournament.players:
        mine = {rnd: code for (number, rnd), code in byes.items() if number == player.start_no}
        if not mine:
            players.append(player)
            continue
        rounds = list(player.rounds)
        rounds += [TrfRound(None, None, " ")] * (max(mine) - len(rounds))
        for rnd, code in mine.items():
            rounds[rnd - 1] = TrfRound(None, None, code)
        players.append(dataclasses.replace(player, rounds=tuple(rounds)))
    return dataclasses.replace(tournament, players=tuple(players))


def is_team_event(tournament: TrfTournament) -> bool:
    """True when the file has team records, `013` or `310`."""
    return any(code in TEAM_RECORDS for code, _ in tournament.records)


def trf_scores(tournament: TrfTournament, default: Scoring = STANDARD) -> TrfScores:
    """CORE-2: the scoring a TRF states, each player's bonus or penalty, and the byes of record 240.

    The scoring comes from records 162 and tournament-wide 299 in file order, else from `default`.
    Bonuses and penalties come from blank-type 299 records. A team event's 240 and 299 records
    concern teams and are left out. Raises `TrfError` naming a malformed or contradicted record.
    """
    kinds: dict[str, Fraction] = {}
    adjustments: dict[Hashable, Fraction] = {}
    scoring_line = 0
    players = {p.start_no for p in tournament.players}
    team_event = is_team_event(tournament)
    for index, (code, value) in enumerate(tournament.records):
        line = tournament.record_lines[index] if tournament.record_lines else 0
        if code == "162":
            kinds.update(_kinds_162(_read_162(value, line)))
            scoring_line = scoring_line or line
        elif code == "299" and not team_event:
            kind, points, numbers = _read_299(value, line, players)
            if kind == " ":
                for number in numbers:
                    adjustments[number] = adjustments.get(number, Fraction(0)) + points
            else:
                kinds[_TYPES_299[kind]] = points
                scoring_line = scoring_line or line
    scoring = Scoring(
        win=kinds.get("win", default.win),
        draw=kinds.get("draw", default.draw),
        loss=kinds.get("loss", default.loss),
        forfeit_win=kinds.get("forfeit_win", default.forfeit_win),
        forfeit_loss=kinds.get("forfeit_loss", default.forfeit_loss),
    )
    bye_points = {code: kinds[kind] for code, kind in _BYE_KINDS.items() if kind in kinds}
    byes = {} if team_event else _byes_240(tournament)
    return TrfScores(scoring, bye_points, adjustments, scoring_line, byes)


def scored_standings(
    tournament: TrfTournament,
    scores: TrfScores,
    *,
    reading: DeReading = DeReading.CCT,
    lots_seed: str | None = None,
) -> tuple[PlayerStanding, ...]:
    """CORE-2, CORE-3 and CCT-8b: the standings of a parsed TRF, scored as `scores` says.

    Players are by start number. This is the one reading of a file, for `arbiter standings` and for
    a tour's TRF preliminary alike.
    """
    games, byes = games_and_byes(with_byes(tournament, scores.byes), scores.bye_points)
    return standings(
        [p.start_no for p in tournament.players],
        games,
        byes,
        scoring=scores.scoring,
        reading=reading,
        lots_seed=lots_seed,
        adjustments=scores.adjustments,
    )


def ignored_records(tournament: TrfTournament) -> tuple[tuple[str, int], ...]:
    """The records read but not applied, each once with its number of lines, in first-seen order.

    These are the records neither applied nor descriptive, such as team, acceleration, tie-break and
    unknown records, and a team event's `240` and `299` records.
    """
    team_event = is_team_event(tournament)
    counts: Counter[str] = Counter()
    for code, _ in tournament.records:
        if code not in APPLIED | DESCRIPTIVE or (code in TEAM_APPLIED and team_event):
            counts[code] += 1
    return tuple(counts.items())
