"""Prize money per event and the Ambassador pool, by CCT-5.

Amounts are whole US dollars in tables, and a table must sum exactly to its event's fund. Ambassador
shares are exact `Fraction`s of a dollar, so a $200,000 pool over 3 Ambassadors gives 200000/3 each
and the shares always sum to the pool. Rounding to cents is left to whoever pays. A player in breach
of the regulations gets nothing: the prize is withheld, not passed on to anyone else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from core.tour.knockout import KoStage
from core.tour.ranking import KNOCKOUT_PLACES, KO_SLOTS, EventFinish, EventType

Player = Hashable

FUNDS: Mapping[EventType, int] = {
    EventType.REGULAR: 100_000,
    EventType.MAJOR: 200_000,
    EventType.FINALS: 300_000,
}
"""CCT-5: prize fund per event type, in US dollars."""

AMBASSADOR_POOL_MINIMUM = 200_000
"""CCT-5: the Ambassador pool is not less than $200,000."""


class PrizeError(ValueError):
    """A prize table or distribution the regulation does not allow."""


@dataclass(frozen=True, slots=True)
class PrizeTable:
    """CCT-5: the configured dollars per place and per knock-out stage.

    Players are ranked by place alone in preliminary places 9-16 of a Regular and in every place of
    the Finals. A stage pays each player there. The table is validated on creation to sum exactly to
    `fund`.
    """

    label: str
    fund: int
    places: Mapping[int, int]
    knockout: Mapping[KoStage, int]

    def __post_init__(self) -> None:
        # CCT-16: frozen as created and validated. The mappings passed in are copied.
        object.__setattr__(self, "places", MappingProxyType(dict(self.places)))
        object.__setattr__(self, "knockout", MappingProxyType(dict(self.knockout)))
        amounts = [*self.places.values(), *self.knockout.values()]
        if any(a < 0 for a in amounts):
            raise PrizeError(f"{self.label}: a prize cannot be negative")
        if KoStage.NONE in self.knockout:
            raise PrizeError(f"{self.label}: players out after the preliminaries are paid by place")
        paid_by_stage = [p for p in sorted(self.places) if p <= KNOCKOUT_PLACES]
        if self.knockout and paid_by_stage:
            raise PrizeError(
                f"{self.label}: place {paid_by_stage[0]} goes on to the knock-out and is paid by "
                "stage, so a prize for that place would never be paid"
            )
        if self.total != self.fund:
            raise PrizeError(
                f"{self.label}: the table sums to ${self.total:,}, not the fund ${self.fund:,}"
            )

    @property
    def total(self) -> int:
        """CCT-5: what the table pays out when every place and stage is filled."""
        knockout = sum(
            KO_SLOTS[stage] * self.stage_amount(stage)
            for stage in KO_SLOTS
            if stage is not KoStage.SEMI_FINAL
        )
        return sum(self.places.values()) + knockout

    def amount(self, finish: EventFinish) -> int:
        """The prize for one finish: by knock-out stage if the player reached it, else by place."""
        if finish.stage is not KoStage.NONE:
            return self.stage_amount(finish.stage)
        return self.places.get(finish.place, 0)

    def stage_amount(self, stage: KoStage) -> int:
        """CCT-5: the prize of a stage.

        3rd and 4th are paid as semi-final losers unless the table prices them itself.
        """
        if stage in (KoStage.THIRD, KoStage.FOURTH) and stage not in self.knockout:
            stage = KoStage.SEMI_FINAL
        return self.knockout.get(stage, 0)


REGULAR_PRIZES = PrizeTable(
    label="CCT-5 default Regular table",
    fund=FUNDS[EventType.REGULAR],
    places=dict.fromkeys(range(9, 17), 2_500),
    knockout={
        KoStage.QUARTER_FINAL: 5_000,
        KoStage.SEMI_FINAL: 7_500,
        KoStage.RUNNER_UP: 15_000,
        KoStage.WINNER: 30_000,
    },
)
"""CCT-5: the default Regular table, from $2,500 for places 9-16 to $30,000 for the winner."""


@dataclass(frozen=True, slots=True)
class Prize:
    """CCT-5: one player's prize. It is `withheld` when the player is in breach, and nothing is
    paid.
    """

    player: Player
    amount: int
    withheld: bool = False

    @property
    def paid(self) -> int:
        """What is actually paid: 0 when withheld."""
        return 0 if self.withheld else self.amount


@dataclass(frozen=True, slots=True)
class PrizeDistribution:
    """CCT-5: every player's prize, the total paid and the total withheld."""

    prizes: tuple[Prize, ...]
    paid: int
    withheld: int


def distribute_prizes(
    table: PrizeTable,
    finishes: Iterable[EventFinish],
    in_breach: Collection[Player] = (),
) -> PrizeDistribution:
    """CCT-5: the prize of every player of an event. Players in breach get none."""
    finishes = tuple(finishes)
    players = Counter(f.player for f in finishes)
    places = Counter(f.place for f in finishes)
    stages = Counter(f.stage for f in finishes)
    if any(n > 1 for n in players.values()) or any(n > 1 for n in places.values()):
        raise PrizeError("each player and each place may appear only once")
    for stage, count in stages.items():
        if stage is not KoStage.NONE and count > KO_SLOTS[stage]:
            raise PrizeError(f"{count} players at stage {stage.value!r}")
    breach = set(in_breach)
    prizes = tuple(Prize(f.player, table.amount(f), f.player in breach) for f in finishes)
    return PrizeDistribution(
        prizes=prizes,
        paid=sum(p.paid for p in prizes),
        withheld=sum(p.amount for p in prizes if p.withheld),
    )


def ambassador_shares(
    pool: int | Fraction,
    ambassadors: Collection[Player],
    in_breach: Collection[Player] = (),
    minimum: int = AMBASSADOR_POOL_MINIMUM,
) -> dict[Player, Fraction]:
    """CCT-5: the Ambassador pool split equally, in exact Fractions of a dollar.

    The share of an Ambassador in breach is 0. It is withheld and not split again.
    """
    if pool < minimum:
        raise PrizeError(f"the Ambassador pool must be at least ${minimum:,}, not ${pool:,}")
    if not ambassadors:
        raise PrizeError("the Ambassador pool needs at least one Ambassador")
    share = Fraction(pool) / len(ambassadors)
    breach = set(in_breach)
    return {a: Fraction(0) if a in breach else share for a in ambassadors}
