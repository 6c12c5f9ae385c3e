"""The life cycle of a tour game's result: reported, then confirmed or disputed, then decided.

A player's report waits for the opponent. Confirm settles it and Dispute sends it to the arbiters.
An arbiter's entry is final, since by CCT-9 the arbiter records a result. A settled result changes
only by an arbiter's correction, which is audited with its reason by CCT-9.

The bot itself may report a game it found on chess.com or lichess.org. Such a report waits for
either player's Confirm or Dispute, as a player's report does. The bot also confirms a report that
waited its confirmation time, the `confirm_deadline`.

Every door that records a result goes through `transition`: a command, a button, a job or a file
import. Who may do what to a game is thus decided here once.
"""

from __future__ import annotations

import datetime as dt
import enum
from dataclasses import dataclass

from core.results import Result


class ReportStatus(enum.Enum):
    """Where a game's result stands."""

    OPEN = "open"
    REPORTED = "reported"
    CONFIRMED = "confirmed"
    DISPUTED = "disputed"
    DECIDED = "decided"

    @property
    def settled(self) -> bool:
        """A confirmed or decided result. It counts for standings, series and Finals."""
        return self in (ReportStatus.CONFIRMED, ReportStatus.DECIDED)


class Party(enum.Enum):
    """Who acts on a game: one of its two players, an arbiter, or the bot running a job."""

    WHITE = "white"
    BLACK = "black"
    ARBITER = "arbiter"
    SYSTEM = "system"

    @property
    def is_player(self) -> bool:
        """True for the game's White or Black player."""
        return self in (Party.WHITE, Party.BLACK)

    @property
    def opponent(self) -> Party:
        """The other player of the game. Only a player has one."""
        if self is Party.WHITE:
            return Party.BLACK
        if self is Party.BLACK:
            return Party.WHITE
        raise ValueError(f"{self.value} has no opponent")


class Action(enum.Enum):
    """What is done to a game's result."""

    REPORT = "report"
    CONFIRM = "confirm"
    DISPUTE = "dispute"
    CORRECT = "correct"


class ReportRefused(ValueError):
    """An action the life cycle does not allow. The message says why and what to do."""


class SessionNotStarted(ReportRefused):
    """A result, or an incident, for a game whose playing session has not started: `starts`
    is when it does."""

    def __init__(self, starts: dt.datetime) -> None:
        super().__init__(
            f"the game's session starts at {starts.isoformat()}: nothing is played yet"
        )
        self.starts = starts


@dataclass(frozen=True, slots=True)
class Session:
    """When an action is taken and when the game's playing session starts, both timezone-aware.

    `now` is the action's instant. A game is played in its session, never before it.
    """

    now: dt.datetime
    starts: dt.datetime

    def __post_init__(self) -> None:
        if self.now.tzinfo is None or self.starts.tzinfo is None:
            raise ValueError("a session's instants must be timezone-aware")

    @property
    def started(self) -> bool:
        """Whether the session has started. Its start instant counts as started."""
        return self.now >= self.starts

    def check(self) -> None:
        """CCT-2, CCT-8a, CCT-8d and CCT-8f: refuses anything recorded about a game before its
        session starts.

        It raises SessionNotStarted for a report, an arbiter's entry or a CCT-10 disconnection.
        """
        if not self.started:
            raise SessionNotStarted(self.starts)


@dataclass(frozen=True, slots=True)
class GameReport:
    """A game's result as it stands: its status, the result and who reported it.

    The result is None while open. The reporter is a player, the bot as `Party.SYSTEM` for a game
    found on a site, or None for an arbiter's entry or an open game.
    """

    status: ReportStatus = ReportStatus.OPEN
    result: Result | None = None
    reported_by: Party | None = None

    def __post_init__(self) -> None:
        if (self.status is ReportStatus.OPEN) != (self.result is None):
            raise ValueError("an open game has no result, any other has one")


PLAYER_RESULTS = frozenset({Result.WHITE_WIN, Result.DRAW, Result.BLACK_WIN})
"""CCT-8a: what a player reports, 1-0, ½-½ or 0-1. Forfeits are the arbiter's decisions."""


def transition(
    report: GameReport,
    action: Action,
    party: Party,
    result: Result | None = None,
    *,
    session: Session | None,
) -> GameReport:
    """The game's result after `party` does `action`.

    `result` is given for a report or a correction. Raises ReportRefused when the life cycle does
    not allow the action.

    A game with no result standing gets none from anyone before its `session` starts. Otherwise the
    clock would confirm a premature report by `confirm_deadline` before the game is played.
    *Interpretation:* an arbiter's entry is refused too, since a result without play is a walkover
    award, which is another door. Every door of the bot gives `session`. None skips the check, for a
    caller with no calendar. A tour-file import stores a historic event's results without this life
    cycle.
    """
    status = report.status
    if session is not None and action in (Action.REPORT, Action.CORRECT) and not status.settled:
        session.check()
    if action is Action.REPORT:
        return _report(report, party, _needs(result))
    if action is Action.CORRECT:
        if party is not Party.ARBITER:
            raise ReportRefused("Only an arbiter corrects a result (CCT-9).")
        corrected = _needs(result)
        if status is not ReportStatus.OPEN and report.result is corrected and status.settled:
            raise ReportRefused(f"The result is {corrected.value} already: nothing to correct.")
        return GameReport(ReportStatus.DECIDED, corrected)
    if status is not ReportStatus.REPORTED:
        raise ReportRefused(_not_waiting(report))
    if party is Party.SYSTEM and action is Action.CONFIRM:
        return GameReport(ReportStatus.CONFIRMED, report.result, report.reported_by)
    if not party.is_player:
        raise ReportRefused(
            "Only the opponent confirms or disputes a report; an arbiter enters the result "
            "instead (it is final)."
        )
    if party is report.reported_by:  # a bot's report (SYSTEM) waits for either player
        raise ReportRefused(
            "You reported this result: your opponent confirms or disputes it, not you."
        )
    if action is Action.CONFIRM:
        return GameReport(ReportStatus.CONFIRMED, report.result, report.reported_by)
    return GameReport(ReportStatus.DISPUTED, report.result, report.reported_by)


def _needs(result: Result | None) -> Result:
    if result is None:
        raise ReportRefused("A report needs a result.")
    return result


def _report(report: GameReport, party: Party, result: Result) -> GameReport:
    status = report.status
    if status.settled:
        assert report.result is not None
        raise ReportRefused(
            f"This game's result is {report.result.value} ({status.value}); only an arbiter's "
            "correction changes it (/game correct, CCT-9)."
        )
    if party is Party.ARBITER:
        return GameReport(ReportStatus.DECIDED, result)  # CCT-9: an arbiter's entry is final
    if party is Party.SYSTEM and status is not ReportStatus.OPEN:
        raise ReportRefused("The bot reports only a game nobody reported yet.")
    if status is ReportStatus.REPORTED:
        if party is report.reported_by:
            raise ReportRefused("You reported this game already: it waits for your opponent.")
        if report.reported_by is Party.SYSTEM:
            raise ReportRefused(
                "The bot reported this game from the site it was played on: confirm or "
                "dispute its report."
            )
        raise ReportRefused(
            "Your opponent reported this game already: confirm or dispute their report."
        )
    if status is ReportStatus.DISPUTED:
        raise ReportRefused("This game's result is disputed: an arbiter decides it.")
    if result not in PLAYER_RESULTS:
        raise ReportRefused("A forfeit is an arbiter's decision: report 1-0, ½-½ or 0-1.")
    return GameReport(ReportStatus.REPORTED, result, party)  # a player's, or the bot's


def _not_waiting(report: GameReport) -> str:
    if report.status is ReportStatus.OPEN:
        return "Nothing to confirm or dispute: no result has been reported for this game."
    if report.status is ReportStatus.DISPUTED:
        return "This report is disputed already: an arbiter decides it."
    return f"This game's result is {report.status.value} already: nothing to confirm or dispute."


def confirm_deadline(reported_at: dt.datetime, confirm_hours: int) -> dt.datetime:
    """When the bot confirms a report still waiting for the opponent.

    The wait is the tour's `confirm_hours`, frozen at creation.
    """
    if reported_at.tzinfo is None:
        raise ValueError("the report instant must be timezone-aware")
    return reported_at + dt.timedelta(hours=confirm_hours)
