"""Arbiter overrides of a game result by CCT-9, as a record to be audited.

The arbiter declares a result, usually a loss, for a reason the regulation names. The reasons are
leaving the camera view, leaving before the end was confirmed, a deliberate disconnection, which
also expels the player, and a CCT-10 disconnection ruling. Every override carries a written
explanation, the arbiter and an aware timestamp.
"""

from __future__ import annotations

import enum
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime

from core.results import Result

Player = Hashable


class OverrideReason(enum.Enum):
    """CCT-9 / CCT-10: why an arbiter set a game's result."""

    LEFT_CAMERA_VIEW = "left the desk or camera view without permission"
    UNCONFIRMED_DEPARTURE = "left before the arbiter confirmed the end; resumption failed"
    DELIBERATE_DISCONNECTION = "disconnected on purpose"
    DISCONNECTION = "disconnection ruling (CCT-10)"
    NO_BACKUP_CONNECTION = "no backup connection (CCT-10)"
    OTHER = "other decision of the Chief Arbiter"


@dataclass(frozen=True, slots=True)
class ArbiterOverride:
    """CCT-9: a result set by an arbiter, with the reason, explanation, who and when.

    A deliberate disconnection must name the expelled players.
    """

    game: str
    result: Result
    reason: OverrideReason
    explanation: str
    arbiter: Player
    decided_at: datetime
    expelled: tuple[Player, ...] = ()

    def __post_init__(self) -> None:
        if not self.game.strip():
            raise ValueError("an override must name the game it applies to")
        if not self.explanation.strip():
            raise ValueError("an arbiter override needs a written explanation (CCT-9)")
        if self.decided_at.tzinfo is None or self.decided_at.utcoffset() is None:
            raise ValueError("the decision time must be a timezone-aware datetime")
        if self.reason is OverrideReason.DELIBERATE_DISCONNECTION and not self.expelled:
            raise ValueError("a deliberate disconnection expels the player: name them (CCT-9)")
