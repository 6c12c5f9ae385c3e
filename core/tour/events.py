"""A played Regular or Major event as a tour file records it: the preliminary order, the
knock-out winners checked against the CCT-8c bracket, and the placings that follow."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from core.tour.knockout import QUARTER_FINALS, Bracket, KnockoutError, KoStage, Tie
from core.tour.ranking import (
    KNOCKOUT_PLACES,
    EventFinish,
    EventType,
    PointsTable,
    TourError,
    TourEvent,
)

Player = Hashable

ROUND_ORDER: tuple[Tie, ...] = (
    Tie.QF1,
    Tie.QF2,
    Tie.QF3,
    Tie.QF4,
    Tie.SF1,
    Tie.SF2,
    Tie.FINAL,
    Tie.THIRD_PLACE,
)
"""CCT-8c: the knock-out rounds in the order their players become known."""

PLACE_OF_STAGE: Mapping[KoStage, int] = {
    KoStage.WINNER: 1,
    KoStage.RUNNER_UP: 2,
    KoStage.THIRD: 3,
    KoStage.FOURTH: 4,
    KoStage.SEMI_FINAL: 3,
    KoStage.QUARTER_FINAL: 5,
}
"""CCT-8c: the event place of each knock-out stage.

Without a 3rd-place match both semi-final losers are 3rd. The quarter-final losers share 5th.
"""


class BracketError(KnockoutError):
    """CCT-8c: a knock-out round that does not follow the bracket.

    `tie` names the round and `field` what is wrong in it: `players`, `winner`, or `rounds` for a
    missing or extra round.
    """

    def __init__(self, tie: Tie | None, field: str, message: str) -> None:
        super().__init__(message)
        self.tie = tie
        self.field = field


@dataclass(frozen=True, slots=True)
class KnockoutResult:
    """One knock-out round as played: its players in either order, the winner, and whether it was
    awarded without play.
    """

    tie: Tie
    a: Player
    b: Player
    winner: Player
    walkover: bool = False


def _describe(tie: Tie, bracket: Bracket, higher: Player, lower: Player) -> str:
    if tie in QUARTER_FINALS:
        first, second = QUARTER_FINALS[tie]
        return f"places {first} v {second}, {higher!r} v {lower!r}"
    return f"{higher!r} v {lower!r}"


def check_knockout(
    order: Sequence[Player], results: Sequence[KnockoutResult], third_place_match: bool
) -> dict[Tie, Player]:
    """CCT-8c: the winners of a complete knock-out, checked round by round against the bracket.

    The bracket is built from the preliminary order. Raises BracketError naming the round.
    """
    by_tie: dict[Tie, KnockoutResult] = {}
    for result in results:
        if result.tie in by_tie:
            raise BracketError(result.tie, "rounds", f"{result.tie.value} is given twice")
        if result.tie is Tie.THIRD_PLACE and not third_place_match:
            raise BracketError(
                result.tie, "rounds", "the event has no 3rd-place match (third_place_match false)"
            )
        by_tie[result.tie] = result
    bracket = Bracket(tuple(order[:KNOCKOUT_PLACES]))
    winners: dict[Tie, Player] = {}
    for tie in ROUND_ORDER:
        if tie is Tie.THIRD_PLACE and not third_place_match:
            continue
        if tie not in by_tie:
            raise BracketError(tie, "rounds", f"round {tie.value} is missing")
        result = by_tie[tie]
        pairing = bracket.pairings(winners)[tie]
        if {result.a, result.b} != {pairing.higher, pairing.lower} or result.a == result.b:
            raise BracketError(
                tie,
                "players",
                f"CCT-8c: {tie.value} is {_describe(tie, bracket, pairing.higher, pairing.lower)}"
                f", not {result.a!r} v {result.b!r}",
            )
        if result.winner not in (result.a, result.b):
            raise BracketError(
                tie, "winner", f"{result.winner!r} did not play {result.a!r} v {result.b!r}"
            )
        winners[tie] = result.winner
    return winners


@dataclass(frozen=True, slots=True)
class PlayedEvent:
    """CCT-2 and CCT-8c: a finished Regular or Major event.

    It holds the preliminary order of every player, best first, whose length is the event's size. It
    holds the knock-out rounds, whether it had a 3rd-place match, and its own points table if it set
    one by CCT-6.
    """

    name: str
    type: EventType
    order: tuple[Player, ...]
    knockout: tuple[KnockoutResult, ...]
    third_place_match: bool = True
    points_table: PointsTable | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))
        object.__setattr__(self, "knockout", tuple(self.knockout))
        if self.type is EventType.FINALS:
            raise TourError(f"{self.name}: the Finals are not a knock-out event")
        if len(set(self.order)) != len(self.order):
            raise TourError(f"{self.name}: a player is listed twice in the preliminary order")
        if len(self.order) < KNOCKOUT_PLACES:
            raise TourError(
                f"{self.name}: {len(self.order)} players cannot fill the {KNOCKOUT_PLACES} "
                "knock-out places (CCT-8c)"
            )
        check_knockout(self.order, self.knockout, self.third_place_match)

    @property
    def size(self) -> int:
        """CCT-2: the number of players of this event."""
        return len(self.order)

    @property
    def walkovers(self) -> tuple[Tie, ...]:
        """The rounds awarded without play."""
        return tuple(r.tie for r in self.knockout if r.walkover)

    def stages(self) -> dict[Player, KoStage]:
        """CCT-6 and CCT-8c: the knock-out stage every player reached, NONE below place 8."""
        winners = {r.tie: r.winner for r in self.knockout}
        reached = Bracket(self.order[:KNOCKOUT_PLACES]).stages(winners)
        return {p: reached.get(p, KoStage.NONE) for p in self.order}

    def finishes(self) -> tuple[EventFinish, ...]:
        """CCT-6: every player's preliminary place and knock-out stage, in preliminary order."""
        stages = self.stages()
        return tuple(EventFinish(p, i + 1, stages[p]) for i, p in enumerate(self.order))

    def tour_event(self) -> TourEvent:
        """This event as the tour ranking counts it by CCT-6."""
        return TourEvent(self.name, self.type, self.finishes(), self.points_table)

    def placings(self) -> tuple[tuple[int, Player], ...]:
        """CCT-8c: the places as (place, player) pairs, best first.

        The final decides 1-2 and the 3rd-place match 3-4. Without one both semi-final losers are
        3rd. Quarter-final losers share 5th in preliminary order. The rest keep their preliminary
        places.
        """
        placed = [
            (PLACE_OF_STAGE.get(f.stage, f.place), f.place, f.player) for f in self.finishes()
        ]
        return tuple((place, player) for place, _, player in sorted(placed, key=_by_place))


def _by_place(entry: tuple[int, int, Player]) -> tuple[int, int]:
    return entry[0], entry[1]
