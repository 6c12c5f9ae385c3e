"""Guild set-up: which roles are league HQ, directors and arbiters, where announcements go, and
whether the guild shows its competitions on the public web site."""

from __future__ import annotations

from bot.kernel.errors import UserError
from bot.kernel.inputs import shown, web_slug
from storage.engine.errors import IntegrityError
from storage.guild import GuildStore
from storage.shared.guild_settings import SETTING_KEYS, GuildSettings
from storage.shared.outbox import OutboxMessage


class GuildSetup:
    """Reads and changes one guild's Arbiter settings, audited."""

    def __init__(self, store: GuildStore) -> None:
        self._store = store

    async def show(self) -> tuple[GuildSettings, list[OutboxMessage]]:
        """The guild's current settings, and the latest messages it could not deliver."""
        async with self._store.read() as view:
            return await view.settings.get(), await view.outbox.failures()

    async def configure(self, actor_id: int, changes: dict[str, int]) -> GuildSettings:
        """Applies `changes`, which map a setting to a Discord id. At least one is required."""
        if not changes:
            raise UserError(
                "Nothing to change: give at least one of the roles or the announcements channel."
            )
        unknown = sorted(set(changes) - set(SETTING_KEYS))
        if unknown:
            raise UserError(f"Unknown settings: {', '.join(unknown)}.")
        async with self._store.change(actor_id, "setup.set", "guild_settings") as uow:
            return await uow.settings.update(**changes)


class WebSetup:
    """Turns one guild's public web site on under a slug, renames it, or turns it off, audited.

    A guild is shown on the site only while it has a slug, and turning it off deletes the slug at
    once, so every page of the guild answers 404 from the next request on.
    """

    def __init__(self, store: GuildStore) -> None:
        self._store = store

    async def slug(self) -> str | None:
        """The guild's slug, or None while its site is off."""
        async with self._store.read() as view:
            return await view.web_sites.slug()

    async def publish(self, actor_id: int, text: str) -> tuple[str, str | None]:
        """Shows the guild under the slug `text` and returns it with the slug it had before.

        A slug another guild holds is refused, and the same slug again changes nothing.
        """
        slug = web_slug(text)
        async with self._store.change(actor_id, "setup.web", "web_site") as uow:
            before = await uow.web_sites.slug()
            if before == slug:
                uow.abandon()
                return slug, before
            taken = UserError(
                f"The slug {shown(slug)} is taken by another server: choose another one."
            )
            if await uow.web_sites.taken(slug):
                raise taken
            try:
                await uow.web_sites.publish(slug)
            except IntegrityError:  # another server took it since, in a unit of its own
                raise taken from None
            if before is not None:
                uow.details["renamed_from"] = before
        return slug, before

    async def withdraw(self, actor_id: int) -> str | None:
        """Turns the guild's site off at once and returns the slug it had, None if it was off."""
        async with self._store.change(actor_id, "setup.web", "web_site") as uow:
            before = await uow.web_sites.slug()
            if before is None:
                uow.abandon()
                return None
            await uow.web_sites.withdraw()
            uow.details["slug"] = before
        return before
