"""A tour points table and a preliminary's game scoring as a person types them in Discord.

They are read into core values by CCT-6 and CCT-8a, and each bad part is refused in one line.

A table is keys, each followed by its points, for example `prelim 10 8 6 5 4 3 2 1; winner 40;
runner-up 20; semi-final 10; quarter-final 0`. Keys and numbers may be separated by spaces, `;`,
`,`, `:` or `=`, in any case and order. `prelim` takes the points of preliminary places 1, 2, 3 and
so on, and every other key takes one number. `prelim`, `winner`, `runner-up` and `semi-final` are
required. `quarter-final` defaults to 0. `3rd` and `4th` come together or not at all, as in the tour
file. Without them both semi-final losers get the `semi-final` points.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from core.results import Scoring
from core.tour.knockout import KoStage
from core.tour.preliminary import SCORINGS
from core.tour.ranking import PointsTable

MAX_TABLE_POINTS = 1000
"""The most one place or stage may give, the tour file's bound. A Major winner gets 80."""
PRELIM = "prelim"
KEYS: Mapping[str, KoStage | None] = {
    PRELIM: None,
    "winner": KoStage.WINNER,
    "runner-up": KoStage.RUNNER_UP,
    "3rd": KoStage.THIRD,
    "4th": KoStage.FOURTH,
    "semi-final": KoStage.SEMI_FINAL,
    "quarter-final": KoStage.QUARTER_FINAL,
}
"""The table's keys as shown, in the order a table is written."""
REQUIRED = (PRELIM, "winner", "runner-up", "semi-final")
_ALIASES = {
    "prelim": PRELIM,
    "prelims": PRELIM,
    "preliminary": PRELIM,
    "places": PRELIM,
    "winner": "winner",
    "1st": "winner",
    "first": "winner",
    "runnerup": "runner-up",
    "2nd": "runner-up",
    "second": "runner-up",
    "3rd": "3rd",
    "third": "3rd",
    "4th": "4th",
    "fourth": "4th",
    "semifinal": "semi-final",
    "semifinals": "semi-final",
    "semi": "semi-final",
    "sf": "semi-final",
    "quarterfinal": "quarter-final",
    "quarterfinals": "quarter-final",
    "quarter": "quarter-final",
    "qf": "quarter-final",
}
_JOINED = {("runner", "up"), ("semi", "final"), ("semi", "finals")}
_JOINED |= {("quarter", "final"), ("quarter", "finals")}
_SEPARATORS = re.compile(r"[\s;,:=]+")
_NUMBER = re.compile(r"^[+-]?[\d.½/]+$")
_WHOLE = re.compile(r"^\+?\d+$")


class PointsTextError(ValueError):
    """A table or scoring that cannot be read.

    `problem` says what is wrong with `part`, the words as typed. `part` is None when the problem is
    with the whole.
    """

    def __init__(self, problem: str, part: str | None = None) -> None:
        super().__init__(problem if part is None else f"{part!r} {problem}")
        self.problem = problem
        self.part = part


def _key(word: str) -> str | None:
    return _ALIASES.get(word.lower().replace("-", "").replace("_", ""))


def _words(text: str) -> list[str]:
    """The words of the text, with a key written in two words such as `runner up` joined."""
    words = [w for w in _SEPARATORS.split(text.strip()) if w]
    joined: list[str] = []
    for word in words:
        if joined and (joined[-1].lower(), word.lower()) in _JOINED:
            joined[-1] = f"{joined[-1]}-{word}"
        else:
            joined.append(word)
    return joined


def _clauses(text: str) -> list[tuple[str, str, list[str]]]:
    """The keys in the order written, each with the key and its numbers as typed."""
    clauses: list[tuple[str, str, list[str]]] = []
    for word in _words(text):
        key = _key(word)
        if key is not None:
            clauses.append((key, word, []))
        elif _NUMBER.match(word) and any(c.isdigit() or c == "½" for c in word):
            if not clauses:
                raise PointsTextError("comes before any key: start with a key such as prelim", word)
            clauses[-1][2].append(word)
        else:
            raise PointsTextError(
                "is not a key: the keys are " + ", ".join(KEYS) + " (each with its points)",
                word,
            )
    return clauses


def _points(word: str, part: str) -> int:
    if word.startswith("-") and _WHOLE.match(word[1:]):
        raise PointsTextError("is negative: tour points are 0 or more", part)
    if not _WHOLE.match(word):
        raise PointsTextError("holds a number that is not whole: points are whole numbers", part)
    value = int(word)
    if value > MAX_TABLE_POINTS:
        raise PointsTextError(f"gives {value}: at most {MAX_TABLE_POINTS} points", part)
    return value


def parse_points_table(
    text: str, *, label: str, players: int, who: str = "the event has"
) -> PointsTable:
    """CCT-6: a points table from one line of text for an event of at most `players` players.

    The table pays no more preliminary places than that, and `who` says whose limit it is in a
    refusal. PointsTextError names the first bad part.
    """
    if not text.strip():
        raise PointsTextError(
            "The table is empty: give prelim, winner, runner-up and semi-final points"
        )
    prelim: tuple[int, ...] | None = None
    knockout: dict[KoStage, int] = {}
    seen: set[str] = set()
    for key, typed, numbers in _clauses(text):
        part = " ".join([typed, *numbers])
        if key in seen:
            raise PointsTextError(f"gives {key} a second time", part)
        seen.add(key)
        if not numbers:
            raise PointsTextError("has no points after it", typed)
        values = tuple(_points(n, part) for n in numbers)
        stage = KEYS[key]
        if stage is None:
            if len(values) > players:
                raise PointsTextError(
                    f"pays {len(values)} preliminary places: {who} {players} players",
                    part,
                )
            prelim = values
        elif len(values) > 1:
            raise PointsTextError("gives more than one number: only prelim takes several", part)
        else:
            knockout[stage] = values[0]
    missing = [key for key in REQUIRED if key not in seen]
    if missing:
        raise PointsTextError(
            f"The table misses {', '.join(missing)}: every table gives "
            f"{', '.join(REQUIRED)} (quarter-final is 0 unless given)"
        )
    if ("3rd" in seen) != ("4th" in seen):
        given, other = ("3rd", "4th") if "3rd" in seen else ("4th", "3rd")
        raise PointsTextError(
            f"The table gives {given} without {other}: give both (a 3rd-place match) or "
            "neither (both semi-final losers get the semi-final points)"
        )
    knockout.setdefault(KoStage.QUARTER_FINAL, 0)
    assert prelim is not None
    return PointsTable(label, prelim, knockout)


def parse_scoring(text: str) -> Scoring:
    """CCT-8a: a preliminary's game scoring, `1/½/0` or `3/1/0`, or PointsTextError.

    `1/½/0` may also be written `1/0.5/0` or `standard`.
    """
    key = text.strip().lower().replace(" ", "")
    key = {"1/0.5/0": "1/½/0", "1/.5/0": "1/½/0", "standard": "1/½/0"}.get(key, key)
    if key not in SCORINGS:
        raise PointsTextError(
            "is not a game scoring: write 1/½/0 (standard) or 3/1/0", text.strip()[:40]
        )
    return SCORINGS[key]
