"""Queues an announcement in the outbox, in the unit of work of the change it announces."""

from __future__ import annotations

from bot.rendering.common import limits
from bot.rendering.common.text import cut
from storage.guild import UnitOfWork


async def announce(uow: UnitOfWork, content: str) -> bool:
    """Posts `content` to the guild's announcements channel, or returns False when none is set up.

    The change itself still commits.
    """
    return await uow.outbox.post_to_announcements(cut(content, limits.MESSAGE_CONTENT)) is not None
