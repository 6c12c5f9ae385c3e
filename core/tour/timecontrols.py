"""Time controls of the tour as data by CCT-7: rapid, blitz and Armageddon.

Each event freezes its own set by CCT-16. The defaults are the 2020-21 regulation's.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import timedelta


class Phase(enum.Enum):
    """CCT-7 / CCT-8d: the kind of game being played, which fixes its time control."""

    RAPID = "rapid"
    BLITZ = "blitz"
    ARMAGEDDON = "armageddon"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """CCT-7: base time per colour, increment per move, and who wins a drawn game, if anyone."""

    name: str
    white_base: timedelta
    black_base: timedelta
    increment: timedelta
    draw_goes_to_black: bool = False

    def __str__(self) -> str:
        white, black = int(self.white_base.total_seconds()), int(self.black_base.total_seconds())
        increment = int(self.increment.total_seconds())
        base = f"{white // 60}" if white == black else f"W {white // 60} / B {black // 60}"
        return f"{self.name} {base} min + {increment} s"


@dataclass(frozen=True, slots=True)
class TimeControls:
    """CCT-7: the configured time control for each phase of a knock-out round or Finals match."""

    rapid: TimeControl
    blitz: TimeControl
    armageddon: TimeControl

    def for_phase(self, phase: Phase) -> TimeControl:
        """The time control a game of `phase` is played at."""
        if phase is Phase.RAPID:
            return self.rapid
        if phase is Phase.BLITZ:
            return self.blitz
        return self.armageddon


RAPID = TimeControl("rapid", timedelta(minutes=15), timedelta(minutes=15), timedelta(seconds=10))
"""CCT-7: rapid, 15 minutes per player plus 10 seconds a move."""

BLITZ = TimeControl("blitz", timedelta(minutes=5), timedelta(minutes=5), timedelta(seconds=3))
"""CCT-7: blitz, 5 minutes per player plus 3 seconds a move."""

ARMAGEDDON = TimeControl(
    "armageddon", timedelta(minutes=5), timedelta(minutes=4), timedelta(0), draw_goes_to_black=True
)
"""CCT-7: Armageddon, White 5 minutes, Black 4, no increment. Black wins on a draw."""

DEFAULT_TIME_CONTROLS = TimeControls(rapid=RAPID, blitz=BLITZ, armageddon=ARMAGEDDON)
"""CCT-7: the 2020-21 regulation's time controls."""
