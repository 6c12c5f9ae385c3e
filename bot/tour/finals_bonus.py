"""CCT-8f, CCT-6: the Finals' bonus points are read from the tour points of the events before
them, so once the Finals are drawn those events' results no longer change."""

from __future__ import annotations

from bot.kernel.errors import UserError
from bot.kernel.inputs import named
from core.tour.finals import feeds_drawn_finals
from core.tour.ranking import EventType
from storage.guild import TourUnit
from storage.tour.events import TourEventRecord


async def check_bonus_fixed(uow: TourUnit, record: TourEventRecord) -> None:
    """CCT-8f and CCT-6: refuses a change to a result of an event before Finals already drawn,
    naming the Finals.

    The Finals' bonus points were read from that event's tour points.
    """
    for other in await uow.tour_events.of_tour(record.tour_id, EventType.FINALS):
        if feeds_drawn_finals(
            record.type, record.position, other.position, other.drawn_at is not None
        ):
            raise UserError(
                f"The Finals {named(other.name)} are drawn: their bonus points come from the "
                f"tour points of {named(record.name)} (CCT-8f, CCT-6), so its results no longer "
                "change. To correct it, cancel the Finals' draw with `/finals cancel-draw` "
                "first, while no Finals game is played."
            )
