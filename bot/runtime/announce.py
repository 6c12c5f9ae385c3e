"""Queues an announcement in the outbox, in the unit of work of the change it announces."""

from __future__ import annotations

from bot.rendering import limits
from bot.rendering.text import cut
from storage.guild import UnitOfWork


async def announce(uow: UnitOfWork, content: str) -> bool:
    """Posts `content` to the guild's announcements channel, or returns False when none is set up.

    The change itself still commits.
    """
    return await uow.outbox.post_to_announcements(cut(content, limits.MESSAGE_CONTENT)) is not None


def fill_announcement(uow: UnitOfWork, outbox_id: int | None, content: str) -> bool:
    """Give an announcement reserved in the unit of work (`uow.outbox.reserve_announcement`,
    None: no channel) its text, cut as `announce` cuts it; False when none was reserved."""
    if outbox_id is None:
        return False
    uow.outbox.fill(outbox_id, cut(content, limits.MESSAGE_CONTENT))
    return True
