"""Queue an announcement in the unit of work of the change it announces (the outbox)."""

from __future__ import annotations

from bot.rendering.common import limits
from bot.rendering.common.text import cut
from storage.guild import UnitOfWork


async def announce(uow: UnitOfWork, content: str) -> bool:
    """Post `content` to the guild's announcements channel; False when none is set up (the
    change itself still commits)."""
    return await uow.outbox.post_to_announcements(cut(content, limits.MESSAGE_CONTENT)) is not None
