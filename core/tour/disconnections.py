"""Disconnections during a game by CCT-10: what happens to the game and the clock.

A disconnected player has a 30 s window to reconnect while their clock runs. The caller passes how
long the player was offline, or None when they did not reconnect within the window. The ruling says
whether play continues, is paused, or the game is lost.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import timedelta

RECONNECT_WINDOW = timedelta(seconds=30)
"""CCT-10: the time a disconnected player has to reconnect, and loses when paused."""


class DisconnectionOutcome(enum.Enum):
    """CCT-10: what happens to the game after a disconnection."""

    CONTINUE = "the game continues; the time elapsed is lost"
    PAUSED = "the game is paused and resumed from the same position with 30 s taken off"
    LOST = "the game is lost"


@dataclass(frozen=True, slots=True)
class Disconnection:
    """CCT-10: one incident.

    It holds the player's clock when they dropped, how long they were offline, and whether a backup
    connection was in place. The offline time is None when they did not reconnect within the window.
    """

    clock: timedelta
    offline_for: timedelta | None
    backup_connection: bool = True

    def __post_init__(self) -> None:
        if self.clock < timedelta(0):
            raise ValueError("the clock cannot show negative time")
        if self.offline_for is not None and self.offline_for < timedelta(0):
            raise ValueError("the time offline cannot be negative")


@dataclass(frozen=True, slots=True)
class DisconnectionRuling:
    """CCT-10: the outcome, the player's clock afterwards and why. The clock is None when lost."""

    outcome: DisconnectionOutcome
    clock_after: timedelta | None
    reason: str


def rule_disconnection(
    incident: Disconnection, window: timedelta = RECONNECT_WINDOW
) -> DisconnectionRuling:
    """CCT-10: the ruling for one disconnection.

    Without a backup connection the game is lost. A player who reconnected within the window plays
    on with the offline time taken off the clock. If that empties the clock, the flag fell and the
    game is lost. A player who did not reconnect loses with less than 30 s on the clock, else the
    game is paused and resumed with 30 s off.

    *Interpretation:* exactly 30 s left and not reconnected is also lost, as resuming with 0 s would
    be a loss on time at once.
    """
    lost = DisconnectionOutcome.LOST
    if not incident.backup_connection:
        return DisconnectionRuling(lost, None, "no backup connection in place (CCT-10)")
    offline = incident.offline_for
    if offline is not None and offline <= window:
        remaining = incident.clock - offline
        if remaining <= timedelta(0):
            return DisconnectionRuling(
                lost, None, "the clock ran out before the player reconnected (CCT-10)"
            )
        return DisconnectionRuling(
            DisconnectionOutcome.CONTINUE,
            remaining,
            f"reconnected after {offline.total_seconds():g} s; that time is lost (CCT-10)",
        )
    if incident.clock <= window:
        return DisconnectionRuling(
            lost,
            None,
            f"not reconnected within {window.total_seconds():g} s with only "
            f"{incident.clock.total_seconds():g} s on the clock (CCT-10)",
        )
    return DisconnectionRuling(
        DisconnectionOutcome.PAUSED,
        incident.clock - window,
        f"not reconnected within {window.total_seconds():g} s: paused, "
        f"{window.total_seconds():g} s taken off the clock (CCT-10)",
    )
