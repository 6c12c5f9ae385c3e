"""How a tour game and a contest are named in commands, replies and the tour file.

A preliminary game is `R3 Carlsen v So`. A knock-out game is `QF1 day 1 game 3`, `QF1 blitz 2` or
`QF1 armageddon`, as docs/tour.md writes them. A Finals game is `R2 Carlsen v So game 3`, `… blitz
1` or `… armageddon`. A knock-out round goes by its tour-file name, QF1 to SF2, F or 3rd, and a
Finals match by `R2 Carlsen v So`. Names are compared without case and with spaces collapsed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from core.tour.knockout import Tie
from core.tour.timecontrols import Phase

ROUND_NAMES: Mapping[Tie, str] = {
    Tie.QF1: "QF1",
    Tie.QF2: "QF2",
    Tie.QF3: "QF3",
    Tie.QF4: "QF4",
    Tie.SF1: "SF1",
    Tie.SF2: "SF2",
    Tie.FINAL: "F",
    Tie.THIRD_PLACE: "3rd",
}
"""CCT-8c: the knock-out rounds by their tour-file names, see docs/tour-file.md."""
TIE_OF: Mapping[str, Tie] = {name.casefold(): tie for tie, name in ROUND_NAMES.items()}


def normal(text: str) -> str:
    """A name as compared: case-folded, spaces collapsed."""
    return " ".join(text.split()).casefold()


def finals_key(round_no: int, board: int) -> str:
    """A Finals match's stored key, such as `R3B2`."""
    return f"R{round_no}B{board}"


def finals_key_of(key: str) -> tuple[int, int]:
    """The round and board of a Finals match's stored key."""
    found = re.fullmatch(r"R(\d+)B(\d+)", key)
    if found is None:
        raise ValueError(f"{key!r} is not a Finals match key")
    return int(found[1]), int(found[2])


def pairing_name(round_no: int, white: str, black: str) -> str:
    """A preliminary game or a Finals match: `R3 Carlsen v So`."""
    return f"R{round_no} {white} v {black}"


def slot_suffix(phase: Phase, match_no: int | None, game_no: int, *, days: bool) -> str:
    """The part naming a game inside its contest.

    It is `day 1 game 3` in a knock-out round with `days`, `game 3` in a Finals match, `blitz 2` or
    `armageddon`.
    """
    if phase is Phase.RAPID:
        return f"day {match_no} game {game_no}" if days else f"game {game_no}"
    if phase is Phase.BLITZ:
        return f"blitz {game_no}"
    return "armageddon"


def contest_game_name(
    contest: str, phase: Phase, match_no: int | None, game_no: int, *, days: bool
) -> str:
    """A knock-out or Finals game's name, such as `QF1 day 1 game 3` or `R2 A v B game 3`."""
    return f"{contest} {slot_suffix(phase, match_no, game_no, days=days)}"


@dataclass(frozen=True)
class SlotName:
    """A game named inside a contest: the contest part and the game's phase, match, number."""

    contest: str
    phase: Phase
    match_no: int | None
    game_no: int


_KNOCKOUT = re.compile(
    r"^(?P<contest>.+?)\s+(?:day\s+(?P<day>[12])\s+game\s+(?P<game>[1-4])|blitz\s+"
    r"(?P<blitz>[12])|(?P<armageddon>armageddon))$",
    re.IGNORECASE,
)
_FINALS = re.compile(
    r"^(?P<contest>.+?)\s+(?:game\s+(?P<game>[1-4])|blitz\s+(?P<blitz>[12])|"
    r"(?P<armageddon>armageddon))$",
    re.IGNORECASE,
)


def parse_slot(text: str, *, days: bool) -> SlotName | None:
    """A contest game's name read back, such as `QF1 day 2 game 1` or `R1 A v B blitz 2`, or
    None.
    """
    found = (_KNOCKOUT if days else _FINALS).match(" ".join(text.split()))
    if found is None:
        return None
    contest = found["contest"]
    if found["armageddon"]:
        return SlotName(contest, Phase.ARMAGEDDON, None, 1)
    if found["blitz"]:
        return SlotName(contest, Phase.BLITZ, None, int(found["blitz"]))
    match_no = int(found["day"]) if days else 1
    return SlotName(contest, Phase.RAPID, match_no, int(found["game"]))
