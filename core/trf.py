"""FIDE Tournament Report Files for round robins: parses TRF-16 and the lines of TRF-2026, by
CORE-2 and CCT-8a. `core.trf_writer` writes them.

Player records `001` have fixed columns: start number 5-8, name 15-47, rating 49-52,
federation 54-56, FIDE id 58-68, birth date 70-79, points 81-84 and rank 86-89. Each round
then takes ten columns from 92: a 4-column opponent, the colour `w`, `b` or `-`, and the
result. Letter codes are case-insensitive. A forfeit may carry colour `-` against a named
opponent, as FIDE's own example file does. Lines end at `\n`, `\r\n` or `\r` only, and by
TRF-2026 `###` lines are comments.

Some programs write the birth date, points or rank one column right or left of TRF's. Each
is then read by its shape within one column of its place, a date `YYYY/MM/DD` or a number.
A record that reads two ways with different values is refused naming both. The points and
rank of an input file are the other program's, so they are never used and always computed.
Every parse error names the line and the problem. What the TRF-2026 records mean for the
scores is in `core.trf2026`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from core.results import Outcome, Result
from core.tiebreaks import Bye, Game

ROUNDS_COLUMN = 91
"""The 0-based column where round 1 starts, TRF-16 column 92. Each round takes 10 columns."""

_PLAYED = {"1": Outcome.WIN, "=": Outcome.DRAW, "0": Outcome.LOSS}
_UNRATED = {"W": "1", "D": "=", "L": "0"}
_BYES = {"H": Outcome.DRAW, "F": Outcome.WIN, "U": Outcome.WIN, "+": Outcome.WIN}
_NO_POINTS = {"Z", "-", " "}
_OPPOSITE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "-+"}
_LINE_END = re.compile(r"\r\n|\r|\n")
"""TRF lines end at LF, CR LF or CR, never at U+0085 or another Unicode separator."""
COMMENT = "###"
"""TRF-2026: a line starting with `###` is a comment. It is kept and written back, never read."""


class TrfError(ValueError):
    """A malformed TRF: the `line` and the problem.

    `line` is 1-based, and 0 when the problem is not tied to one line.
    """

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}" if line else problem)
        self.line = line
        self.problem = problem


@dataclass(frozen=True, slots=True)
class TrfRound:
    """One round of a player record: opponent start number, colour and result code.

    The opponent is None when there is none. The colour is `w`, `b`, or None when there is no
    opponent or a forfeit is written with `-`. The result code is in upper case, one of `1 = 0 + - W
    D L H F U Z`, or blank.
    """

    opponent: int | None
    colour: str | None
    code: str


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """A `001` record and its line number, without the points and rank it may carry."""

    start_no: int
    name: str
    rounds: tuple[TrfRound, ...]
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    line: int = 0
    file_points: Fraction | None = None
    """The points the file states in columns 81-84. They are shown, never used for a score."""


@dataclass(frozen=True, slots=True)
class TrfTournament:
    """A parsed TRF, kept so that it is written back in order.

    It holds its non-player records in file order as code and text after column 4. A `###` comment
    keeps all after the `###`. It holds its players by start number and the line of each record,
    which is empty for a tournament built in code.
    """

    records: tuple[tuple[str, str], ...]
    players: tuple[TrfPlayer, ...]
    record_lines: tuple[int, ...] = ()

    @property
    def name(self) -> str:
        """The tournament name from record 012, or an empty string."""
        return next((value.strip() for code, value in self.records if code == "012"), "")


def ascii_digits(text: str) -> bool:
    """True for a non-empty run of 0-9 only.

    `str.isdigit()` also takes `²` or `¹`, which `int()` then refuses with a traceback instead of a
    line-numbered TrfError.
    """
    return text.isascii() and text.isdigit()


def _field(line: str, start: int, end: int) -> str:
    """Columns start+1 to end without their padding of spaces. A name may end in U+0085."""
    return line[start:end].strip(" ")


def _parse_round(line: str, line_no: int, index: int) -> TrfRound:
    start = ROUNDS_COLUMN + 10 * index
    chunk = line[start : start + 10].ljust(8)
    where = f"round {index + 1} (column {start + 1})"
    if chunk[4] != " " or chunk[6] != " ":
        raise TrfError(line_no, f"{where}: expected 'NNNN c r', found {chunk[:8]!r}")
    opponent_text, colour, code = chunk[:4].strip(), chunk[5].lower(), chunk[7].upper()
    if opponent_text and not ascii_digits(opponent_text):
        raise TrfError(line_no, f"{where}: opponent {opponent_text!r} is not a start number")
    opponent = int(opponent_text) if opponent_text else 0
    if colour not in "wb- ":
        raise TrfError(line_no, f"{where}: colour {colour!r} is not w, b or -")
    if opponent:
        if code not in "1=0+-WDL ":
            raise TrfError(line_no, f"{where}: result {code!r} is not 1, =, 0, +, -, W, D or L")
        if colour not in "wb":
            if code not in "+-":
                raise TrfError(
                    line_no,
                    f"{where}: a game against {opponent} needs colour w or b "
                    "(only a forfeit, + or -, may have -)",
                )
            return TrfRound(opponent, None, code)
        return TrfRound(opponent, colour, code)
    if code not in "HFUZ+- ":
        raise TrfError(line_no, f"{where}: result {code!r} is not a bye code (H F U Z + -)")
    return TrfRound(None, None, code)


def _is_number(text: str) -> bool:
    """True for a plain decimal number such as `12`, `5.0`, `3.5` or the penalty `-1.0`."""
    whole, _, fraction = text.removeprefix("-").partition(".")
    return ascii_digits(whole) and (fraction == "" or ascii_digits(fraction))


_SEPARATORS = (4, 9, 14, 48, 53, 57)
"""CORE-2: the 1-based columns of a `001` record that separate its fixed fields up to the FIDE id.

Each holds a space.
"""
_NAME_THEN_NUMBER = re.compile(r"\S {2,}\d+$")
_TAIL = (68, 90)
"""0-based columns 69-90 of a `001` record: birth date, points and rank with the spaces
around them, where a field one column off is read by its shape."""
_DATE = re.compile(r"[0-9]{4}/[0-9]{2}/[0-9]{2}")
_POINTS = re.compile(r"-?[0-9]{1,3}(?:\.[0-9])?")
_RANK = re.compile(r"[0-9]{1,4}")


@dataclass(frozen=True, slots=True)
class _TailField:
    """A field of a `001` record's tail: its name, 0-based columns and the shape of its text."""

    name: str
    start: int
    end: int
    shape: re.Pattern[str]

    @property
    def columns(self) -> str:
        return f"columns {self.start + 1}-{self.end}"


_TAIL_FIELDS = (
    _TailField("birth date", 69, 79, _DATE),
    _TailField("points", 80, 84, _POINTS),
    _TailField("rank", 85, 89, _RANK),
)
_Reading = tuple[tuple[str, int], ...]
"""One reading of a record's tail: the text and 0-based start column of each field.

A blank field reads as `("", -1)`.
"""


def _check_columns(line: str, line_no: int) -> None:
    """Refuses a `001` record written without its fixed columns.

    Such a record has fields separated by a few spaces. It would otherwise be read as a player named
    `Ann    1800` with no rating.
    """
    for column in _SEPARATORS:
        if len(line) >= column and line[column - 1] != " ":
            _refuse_column(line, line_no, column)
    name = line[14:47].rstrip(" ")
    if _NAME_THEN_NUMBER.search(name):
        raise TrfError(
            line_no,
            f"the name {name.strip()!r} (columns 15-47) ends in a number after spaces:"
            " is the rating in columns 49-52?",
        )


def _refuse_column(line: str, line_no: int, column: int) -> None:
    found = line[max(0, column - 6) : column + 5]
    raise TrfError(
        line_no,
        f"column {column} should be a space between fixed fields, found {found!r}:"
        " a 001 record keeps TRF's columns (name 15-47, rating 49-52, rounds from 92;"
        " a birth date, points or rank one column off is read by its shape)",
    )


def _tail(line: str, line_no: int) -> tuple[str, str]:
    """CORE-2: the birth date and points text of a `001` record.

    Written in TRF's columns, they are read there. Some programs write the birth date, points or
    rank one column right or left of them. Each is then recognised by its shape within one column of
    its place: a date `YYYY/MM/DD`, a number of points or a rank. A record that reads two ways with
    different values is refused naming both.
    """
    start, end = _TAIL
    padded = line[: end + 1].ljust(end + 1)
    if all(padded[c] == " " for c in (start, 79, 84, end - 1)):
        return _in_place(line, line_no)
    if padded[start - 1] != " " and padded[start] != " ":
        _refuse_column(line, line_no, start + 1)
    if padded[end - 1] != " " and padded[end] != " ":
        _refuse_column(line, line_no, end + 1)
    tokens = [(m.group(), start + m.start()) for m in re.finditer(r"\S+", padded[start:end])]
    readings = _readings(tokens, 0)
    if not readings:
        for text, at in tokens:
            if not any(_fits(field, text, at) for field in _TAIL_FIELDS):
                raise TrfError(
                    line_no,
                    f"{text!r} (columns {at + 1}-{at + len(text)}) is not a birth date"
                    " (70-79), points (81-84) or rank (86-89), nor one of them one column"
                    " off: a 001 record keeps TRF's columns",
                )
        column = next(c for c in (start, 79, 84, end - 1) if padded[c] != " ") + 1
        _refuse_column(line, line_no, column)
    if len(readings) > 1:
        raise TrfError(line_no, _two_readings(readings[0], readings[1]))
    (birth, _), (points, _), _ = readings[0]
    return birth, points


def _in_place(line: str, line_no: int) -> tuple[str, str]:
    """The birth date and points of a record whose tail keeps TRF's columns."""
    for start, end, what in ((80, 84, "points"), (85, 89, "rank")):
        # Never trusted, but checked: text here means the columns are misaligned.
        text = _field(line, start, end)
        if text and not _is_number(text):
            raise TrfError(
                line_no,
                f"{what} {text!r} (columns {start + 1}-{end}) is not a number: "
                "are the columns aligned? rounds start at column 92",
            )
    return _field(line, 69, 79), _field(line, 80, 84)


def _readings(tokens: Sequence[tuple[str, int]], first: int) -> list[_Reading]:
    """Every way to give the tokens, in order, to the tail fields from `first` on: each token
    to a field of its shape lying within one column of the field's place."""
    if first == len(_TAIL_FIELDS):
        return [] if tokens else [()]
    blank: list[_Reading] = [(("", -1), *rest) for rest in _readings(tokens, first + 1)]
    if not tokens:
        return blank
    text, at = tokens[0]
    if not _fits(_TAIL_FIELDS[first], text, at):
        return blank
    return [((text, at), *rest) for rest in _readings(tokens[1:], first + 1)] + blank


def _fits(field: _TailField, text: str, at: int) -> bool:
    """True when `text` at 0-based column `at` has the field's shape and lies in its
    columns, or one column right or left of them."""
    within = field.start - 1 <= at and at + len(text) <= field.end + 1
    narrow = len(text) <= field.end - field.start
    return within and narrow and field.shape.fullmatch(text) is not None


def _two_readings(one: _Reading, other: _Reading) -> str:
    """A refusal naming the fields two readings disagree on and what each reads there."""
    differ = [i for i, (a, b) in enumerate(zip(one, other, strict=True)) if a[0] != b[0]]
    text, at = next(r[i] for i in differ for r in (one, other) if r[i][0])

    def told(reading: _Reading) -> str:
        return " and ".join(
            f"{_TAIL_FIELDS[i].name} {reading[i][0]!r}"
            if reading[i][0]
            else f"no {_TAIL_FIELDS[i].name}"
            for i in differ
        )

    places = " and ".join(f"{_TAIL_FIELDS[i].name} {_TAIL_FIELDS[i].columns}" for i in differ)
    return (
        f"{text!r} at column {at + 1} is one column off both the {places}: it reads"
        f" {told(one)}, or {told(other)}; write the record in TRF's columns"
    )


def _parse_player(line: str, line_no: int) -> TrfPlayer:
    _check_columns(line, line_no)
    start_text = _field(line, 4, 8)
    if not ascii_digits(start_text) or int(start_text) == 0:
        raise TrfError(line_no, f"start number {start_text!r} (columns 5-8) is not a number")
    name = _field(line, 14, 47)
    if not name:
        raise TrfError(line_no, "the player has no name (columns 15-47)")
    rating_text = _field(line, 48, 52)
    if rating_text and not ascii_digits(rating_text):
        raise TrfError(line_no, f"rating {rating_text!r} (columns 49-52) is not a number")
    fide_id = _field(line, 57, 68)
    if fide_id and not _is_number(fide_id):
        raise TrfError(
            line_no,
            f"FIDE id {fide_id!r} (columns 58-68) is not a number: "
            "are the columns aligned? rounds start at column 92",
        )
    birth_date, points = _tail(line, line_no)
    body = line.rstrip()
    count = max(0, (len(body) - ROUNDS_COLUMN + 9) // 10)
    return TrfPlayer(
        start_no=int(start_text),
        name=name,
        rounds=tuple(_parse_round(body, line_no, i) for i in range(count)),
        sex=_field(line, 9, 10),
        title=_field(line, 10, 13),
        rating=int(rating_text) if rating_text else None,
        federation=_field(line, 53, 56),
        fide_id=fide_id,
        birth_date=birth_date,
        file_points=Fraction(points) if points else None,
        line=line_no,
    )


def decode_trf(data: bytes) -> str:
    """The text of a TRF file's bytes: UTF-8, else Windows-1252, else Latin-1.

    Swiss-Manager and Vega write Windows-1252, where 0x85 is `…`. In Latin-1 every byte is a
    character.
    """
    for encoding in ("utf-8", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def trf_lines(text: str) -> list[str]:
    """The lines of a TRF text, split at LF, CR LF or CR only. A byte order mark is dropped."""
    return _LINE_END.split(text.removeprefix("\ufeff"))


def parse_trf(text: str) -> TrfTournament:
    """Reads a TRF-16 or TRF-2026 text. Raises `TrfError` naming the line of the first problem.

    Besides the columns, it checks that start numbers are unique, that every opponent exists, and
    that both records of a game agree on round, colours and result.
    """
    records: list[tuple[str, str]] = []
    record_lines: list[int] = []
    players: list[TrfPlayer] = []
    for line_no, line in enumerate(trf_lines(text), start=1):
        if not line.strip():
            continue
        code = line[:3]
        if code == "001":
            players.append(_parse_player(line, line_no))
            continue
        if code == COMMENT:
            records.append((code, line[3:].rstrip()))
        elif len(code) == 3 and code.isascii() and code.isalnum():
            records.append((code, line[4:].rstrip()))
        else:
            raise TrfError(
                line_no,
                f"{code.strip()!r} is not a TRF record code (a comment or ruler line "
                "starts with ###)",
            )
        record_lines.append(line_no)
    if not players:
        raise TrfError(0, "the file has no player records (001)")
    tournament = TrfTournament(
        tuple(records), tuple(sorted(players, key=lambda p: p.start_no)), tuple(record_lines)
    )
    _check_pairings(tournament)
    return tournament


def _check_pairings(tournament: TrfTournament) -> None:
    by_no: dict[int, TrfPlayer] = {}
    for player in tournament.players:
        if player.start_no in by_no:
            first = by_no[player.start_no].line
            raise TrfError(player.line, f"start number {player.start_no} is also on line {first}")
        by_no[player.start_no] = player
    for player in tournament.players:
        for index, rnd in enumerate(player.rounds):
            if rnd.opponent is None:
                continue
            where = f"round {index + 1}"
            other = by_no.get(rnd.opponent)
            if other is None:
                raise TrfError(player.line, f"{where}: opponent {rnd.opponent} has no 001 record")
            if other is player:
                raise TrfError(player.line, f"{where}: {player.name} is paired with themselves")
            back = other.rounds[index] if index < len(other.rounds) else None
            if back is None or back.opponent != player.start_no:
                raise TrfError(
                    player.line,
                    f"{where}: {player.name} ({player.start_no}) meets {other.name} "
                    f"({other.start_no}), whose record on line {other.line} does not name "
                    f"{player.start_no} in that round",
                )
            if rnd.colour is not None and back.colour == rnd.colour:
                raise TrfError(
                    player.line,
                    f"{where}: both {player.start_no} and {other.start_no} have {rnd.colour}",
                )
            mine, theirs = _plain(rnd.code), _plain(back.code)
            if (mine == " ") != (theirs == " ") or (mine != " " and theirs not in _OPPOSITE[mine]):
                raise TrfError(
                    player.line,
                    f"{where}: result {rnd.code!r} of {player.start_no} does not match "
                    f"{back.code!r} of {other.start_no} on line {other.line}",
                )


def _plain(code: str) -> str:
    return _UNRATED.get(code, code)


def _result(white_code: str, black_code: str) -> Result:
    white_code, black_code = _plain(white_code), _plain(black_code)
    if white_code == "-" and black_code == "-":
        return Result.DOUBLE_FORFEIT
    if white_code == "+":
        return Result.WHITE_FORFEIT_WIN
    if white_code == "-":
        return Result.BLACK_FORFEIT_WIN
    return {"1": Result.WHITE_WIN, "=": Result.DRAW, "0": Result.BLACK_WIN}[white_code]


def cell_text(rnd: TrfRound) -> str:
    """A round's ten-column cell as a TRF writes it, such as `   3 w 1` or `0000 - H`."""
    opponent = f"{rnd.opponent:>4}" if rnd.opponent else "0000"
    return f"{opponent} {rnd.colour or '-'} {rnd.code}"


def _writes_the_game(player: TrfPlayer, rnd: TrfRound, back: TrfRound) -> bool:
    """True when this record is the game's White.

    That is colour `w`, or a forfeit written with `-` whose partner has `b`. When both have `-`,
    White is the lower start number.
    """
    if rnd.colour is not None:
        return rnd.colour == "w"
    if back.colour is not None:
        return back.colour == "b"
    return player.start_no < (rnd.opponent or 0)


def games_and_byes(
    tournament: TrfTournament, bye_points: Mapping[str, Fraction] | None = None
) -> tuple[tuple[Game, ...], tuple[Bye, ...]]:
    """CORE-2: the games and scored byes of a parsed TRF, by start number and with rounds.

    Unplayed pairings with a blank result give nothing. A bye is worth its outcome: `H` a draw, `F`,
    `U` or `+` a win, and `Z`, `-` or blank nothing. `bye_points` overrides that with its code's
    points, from TRF-2026 record 162. A forfeit written with colour `-` is a game with the record of
    `_writes_the_game` as White. Colours do not change any tie-break here.
    """
    games: list[Game] = []
    byes: list[Bye] = []
    by_no = {p.start_no: p for p in tournament.players}
    given = bye_points or {}
    for player in tournament.players:
        for index, rnd in enumerate(player.rounds):
            if rnd.opponent is None:
                outcome = _BYES.get(rnd.code, Outcome.LOSS)
                points = given.get(rnd.code)
                if points is not None and (points or outcome is not Outcome.LOSS):
                    byes.append(Bye(player.start_no, outcome, index + 1, points))
                elif points is None and rnd.code in _BYES:
                    byes.append(Bye(player.start_no, outcome, index + 1))
                continue
            back = by_no[rnd.opponent].rounds[index]
            if rnd.code != " " and _writes_the_game(player, rnd, back):
                games.append(
                    Game(player.start_no, rnd.opponent, _result(rnd.code, back.code), index + 1)
                )
    return tuple(games), tuple(byes)
