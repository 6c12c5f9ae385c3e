"""Club participation by CL-2..4: a chess.com club's registration and its life cycle.

A registration names the chess.com club by url-id, the football club its members support and the
Discord users linked as its admins. It is *pending* until league HQ approves or rejects it. A club
whose profile does not make clear it is a fan club may be *excluded* only through a passed director
motion under CL-23, see `core.votes`. Every transition returns a new value.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace

from core.votes import MINIMUM_VOTERS, MotionState, motion_status

MIN_ADMINS = 2
"""CL-3: a club needs at least two admins able to start matches."""


class RegistrationError(ValueError):
    """A registration or a transition the CL-2..4 rules do not allow."""


class RegistrationState(enum.Enum):
    """CL-2..4: where a club's registration stands."""

    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"
    EXCLUDED = "excluded"


@dataclass(frozen=True, slots=True)
class ExclusionMotion:
    """CL-4, CL-23: the director motion on excluding a club, as `motion_status` reads it."""

    directors: tuple[str, ...]
    votes: Mapping[str, bool]
    deadline: dt.datetime
    quorum: int = MINIMUM_VOTERS
    """CL-23: the directors voting for a decision, as the season sets it."""


@dataclass(frozen=True, slots=True)
class ClubRegistration:
    """CL-2..4: a chess.com club registered for the fans of `football_club`.

    The club's url-id is compared case-insensitively. The registration holds the Discord users who
    can start its matches.
    """

    club: str
    football_club: str
    admins: tuple[str, ...]
    state: RegistrationState = RegistrationState.PENDING
    reason: str = ""
    """Why the club was rejected or excluded, and empty otherwise."""

    @property
    def key(self) -> str:
        """The club's url-id as chess.com compares it, case-insensitively."""
        return self.club.casefold()

    def eligible(self, min_admins: int = MIN_ADMINS) -> bool:
        """CL-3: checks that at least `min_admins` distinct admins are linked. The season sets it
        to 2.
        """
        return len(set(self.admins)) >= min_admins


def register_club(club: str, football_club: str, admins: Iterable[str]) -> ClubRegistration:
    """CL-2..4: a new, pending registration.

    It is refused without a club url-id or football club. Admins are kept once each, in the order
    given.
    """
    club, football_club = club.strip(), football_club.strip()
    if not club:
        raise RegistrationError("a registration needs the chess.com club url-id")
    if "/" in club or " " in club:
        raise RegistrationError(f"{club!r} is not a chess.com club url-id (e.g. 'team-romania')")
    if not football_club:
        raise RegistrationError(f"club {club!r}: name the football club its members support")
    linked = tuple(dict.fromkeys(a.strip() for a in admins if a.strip()))
    return ClubRegistration(club=club, football_club=football_club, admins=linked)


def _require(registration: ClubRegistration, *allowed: RegistrationState, action: str) -> None:
    if registration.state not in allowed:
        expected = " or ".join(s.value for s in allowed)
        raise RegistrationError(
            f"club {registration.club!r} is {registration.state.value}: cannot {action}"
            f" (only a {expected} registration can)"
        )


def link_admins(registration: ClubRegistration, admins: Iterable[str]) -> ClubRegistration:
    """CL-3: links more Discord users as the club's admins while it is pending or approved."""
    _require(
        registration, RegistrationState.PENDING, RegistrationState.APPROVED, action="link admins"
    )
    added = (a.strip() for a in admins)
    return replace(
        registration, admins=tuple(dict.fromkeys([*registration.admins, *(a for a in added if a)]))
    )


def approve(registration: ClubRegistration, min_admins: int = MIN_ADMINS) -> ClubRegistration:
    """CL-3: league HQ approves a pending registration that has at least `min_admins` admins.

    The season sets `min_admins` to two.
    """
    _require(registration, RegistrationState.PENDING, action="approve it")
    if not registration.eligible(min_admins):
        raise RegistrationError(
            f"club {registration.club!r} has {len(set(registration.admins))} admin(s) linked;"
            f" CL-3 needs at least {min_admins} able to start matches"
        )
    return replace(registration, state=RegistrationState.APPROVED)


def reject(registration: ClubRegistration, reason: str) -> ClubRegistration:
    """CL-2..4: league HQ rejects a pending registration, with its reason."""
    _require(registration, RegistrationState.PENDING, action="reject it")
    if not reason.strip():
        raise RegistrationError("a rejection needs a reason")
    return replace(registration, state=RegistrationState.REJECTED, reason=reason.strip())


def exclude(
    registration: ClubRegistration,
    motion: ExclusionMotion,
    at: dt.datetime,
    reason: str = "CL-4: the public profile does not make clear it is a fan club",
) -> ClubRegistration:
    """CL-4, CL-23: exclude a pending or approved club, only once the directors' motion to
    exclude it has closed as passed at `at`."""
    _require(
        registration, RegistrationState.PENDING, RegistrationState.APPROVED, action="exclude it"
    )
    status = motion_status(motion.directors, motion.votes, at, motion.deadline, motion.quorum)
    if status.state is not MotionState.PASSED:
        raise RegistrationError(
            f"club {registration.club!r} can be excluded only by a passed director motion"
            f" (CL-23); the motion is {status.state.value}"
        )
    return replace(registration, state=RegistrationState.EXCLUDED, reason=reason)


def participating(registrations: Collection[ClubRegistration]) -> list[ClubRegistration]:
    """CL-2..4: the approved clubs, refusing two registrations of the same chess.com club."""
    seen: set[str] = set()
    for r in registrations:
        if r.state in (RegistrationState.PENDING, RegistrationState.APPROVED):
            if r.key in seen:
                raise RegistrationError(f"club {r.club!r} is registered twice")
            seen.add(r.key)
    return [r for r in registrations if r.state is RegistrationState.APPROVED]
