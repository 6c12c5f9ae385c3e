"""Queue an announcement in the unit of work of the change it announces (the outbox)."""

from __future__ import annotations

from storage.guild import UnitOfWork


async def announce(uow: UnitOfWork, content: str) -> bool:
    """Post `content` to the guild's announcements channel; False when none is set up (the
    change itself still commits)."""
    settings = await uow.settings.get()
    if settings.announcements_channel_id is None:
        return False
    await uow.outbox.post(settings.announcements_channel_id, content=content[:2000])
    return True
