"""Roster protection by CL-21: checks if a club's removal of a player from its roster is justified.

Admins may remove a player only when the player is a multi-team player by CL-18 or has a timeout
ratio above 25 % over the last 90 days. The bot records every removal with its claimed reason and
checks it here. A removal it cannot verify goes to a director vote under CL-23, which may punish it
with one of the director forfeits of `core.league.forfeits`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from core.league.adjustments import MultiTeamPlayer
from core.league.season import TIMEOUT_RATIO_LIMIT_PERCENT, exact_percent

TIMEOUT_LIMIT_PERCENT = TIMEOUT_RATIO_LIMIT_PERCENT
"""CL-21: a timeout ratio strictly above this configured percentage justifies a removal."""


class RemovalReason(enum.Enum):
    """CL-21: the reason an admin gave for removing a player."""

    MULTI_TEAM = "multi-team player"
    TIMEOUTS = "timeout ratio"
    OTHER = "other"


class RemovalVerdict(enum.Enum):
    """CL-21: what the bot does with a removal."""

    JUSTIFIED = "justified"
    DIRECTOR_VOTE = "director vote"


@dataclass(frozen=True, slots=True)
class RosterRemoval:
    """A removal as recorded: the player, the club, the claimed reason and the facts known.

    The facts are the player's CL-18 multi-team status and the daily timeout percentage over the
    last 90 days. Each is None when unknown.
    """

    player: str
    club: str
    reason: RemovalReason
    multi_team: bool | None = None
    timeout_percent: Fraction | Decimal | float | int | None = None


@dataclass(frozen=True, slots=True)
class RemovalCheck:
    """CL-21: the verdict on a removal and the sentence explaining it."""

    removal: RosterRemoval
    verdict: RemovalVerdict
    explanation: str

    @property
    def justified(self) -> bool:
        """True when the facts allow the removal, so no vote is needed."""
        return self.verdict is RemovalVerdict.JUSTIFIED


def is_multi_team(player: str, found: Iterable[MultiTeamPlayer]) -> bool:
    """CL-18: checks if `player` is among the `multi_team_players` a league report found.

    Usernames are compared case-insensitively.
    """
    key = player.lower()
    return any(p.player == key for p in found)


def check_removal(
    removal: RosterRemoval, limit_percent: Fraction | int = TIMEOUT_LIMIT_PERCENT
) -> RemovalCheck:
    """CL-21: judges a removal.

    It is justified when the player is a multi-team player, or their timeout ratio is strictly above
    `limit_percent`. Exactly 25 % is not enough. Otherwise the removal goes to a director vote. That
    covers another reason, a claim the facts contradict and unknown facts.

    Interpretation: the rule allows a removal on either fact, so a removal is justified by whichever
    allowed fact holds, even when the admin claimed the other one.
    """
    timeout = None if removal.timeout_percent is None else exact_percent(removal.timeout_percent)
    limit = Fraction(limit_percent)
    who = f"{removal.club} removed {removal.player}"
    if removal.multi_team:
        return RemovalCheck(
            removal, RemovalVerdict.JUSTIFIED, f"{who}: a multi-team player (CL-18)"
        )
    if timeout is not None and timeout > limit:
        return RemovalCheck(
            removal,
            RemovalVerdict.JUSTIFIED,
            f"{who}: timeout ratio {float(timeout):g} % is above {float(limit):g} %",
        )
    if removal.reason is RemovalReason.MULTI_TEAM:
        problem = (
            "claimed multi-team player, but CL-18 does not make them one"
            if removal.multi_team is False
            else "claimed multi-team player, which cannot be verified yet"
        )
    elif removal.reason is RemovalReason.TIMEOUTS:
        problem = (
            "claimed timeout ratio, but the last 90 days' ratio is unknown"
            if timeout is None
            else f"claimed timeout ratio, but {float(timeout):g} % is not above {float(limit):g} %"
        )
    else:
        problem = "a reason CL-21 does not allow"
    return RemovalCheck(
        removal, RemovalVerdict.DIRECTOR_VOTE, f"{who}: {problem}; directors to vote (CL-23)"
    )
