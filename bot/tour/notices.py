"""Direct messages to a tour game's players, queued by `notify` in the unit of work of the change.

A player is reached through the member linked to them. A player with no linked member is told
nothing here: the channel's post stays the public record for everyone.
"""

from __future__ import annotations

from bot.kernel.notifications import Kind
from bot.rendering.tour import direct
from bot.runtime.notify import notify
from bot.tour.store import LoadedEvent
from core.results import Result
from storage.guild import TourUnit


async def record_channel(uow: TourUnit) -> int:
    """The announcements channel, where the tour's public record is, or 0 when none is set up."""
    settings = await uow.settings.get()
    return settings.announcements_channel_id or 0


async def tell_outcome(
    uow: TourUnit,
    loaded: LoadedEvent,
    game: str,
    white: str,
    black: str,
    result: Result | None,
    how: str,
    *,
    actor: int | None,
) -> list[int]:
    """Tells both players of `game` how its report ended, but not the member who just acted.

    Returns the members a message was queued for.
    """
    users = [u for p in (white, black) if (u := loaded.user_of(p)) is not None and u != actor]
    text = direct.game_outcome(loaded.record.name, game, white, black, result, how)
    return await notify(
        uow, Kind.GAME_OUTCOME, users, channel_id=await record_channel(uow), content=text
    )
