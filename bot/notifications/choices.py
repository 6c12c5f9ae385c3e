"""Show and change a member's choices of direct messages on one server.

Each change is one audited unit of work over the member's own rows of the server the command
came from. Running `/notify` also forgets that Discord refused the member's last direct message,
so the next one is tried again.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.errors import UserError
from bot.kernel.inputs import shown
from bot.kernel.notifications import Kind, wants
from bot.rendering.common.notifications import KindSetting
from storage.guild import GuildStore

ALL = "all"
"""The `kind` that names every kind at once."""


@dataclass(frozen=True)
class Settings:
    """A member's settings of every kind, and whether their closed DMs were just reopened."""

    kinds: tuple[KindSetting, ...]
    reopened: bool


@dataclass(frozen=True)
class Change:
    """What a change did: the kinds it names, on or off, whether it changed any, and the
    reopening."""

    kinds: tuple[KindSetting, ...]
    on: bool
    changed: bool
    reopened: bool


def kinds_named(name: str) -> tuple[Kind, ...]:
    """The kinds `name` stands for: one kind by its key, or every kind for "all"."""
    if name == ALL:
        return tuple(Kind)
    kind = Kind.named(name)
    if kind is None:
        keys = ", ".join(known.key for known in Kind)
        raise UserError(f"{shown(name)} is not a kind of direct message: choose {keys} or all.")
    return (kind,)


def settings_of(choices: dict[str, bool]) -> tuple[KindSetting, ...]:
    """Every kind with the member's setting, in the order of `Kind`, from their stored choices.

    A stored name Arbiter does not know is left out.
    """
    return tuple(
        KindSetting(
            audience=kind.audience.value,
            key=kind.key,
            line=kind.line,
            on=wants(kind, choices),
            chosen=kind.key in choices,
        )
        for kind in Kind
    )


class NotificationChoices:
    """Reads and changes the choices of direct messages of one server's members, audited."""

    def __init__(self, store: GuildStore) -> None:
        self._store = store

    async def show(self, user_id: int) -> Settings:
        """The member's settings. A mark that their DMs were refused is cleared, audited."""
        async with self._store.change(user_id, "notify.reopen", f"user:{user_id}") as uow:
            choices = await uow.notifications.choices(user_id)
            reopened = await uow.notifications.reopen(user_id)
            if reopened:
                uow.details["reopened"] = True
            else:
                uow.abandon()
        return Settings(settings_of(choices), reopened)

    async def choose(self, user_id: int, name: str, on: bool) -> Change:
        """Turns the kind `name`, or all of them, on or off for the member.

        A choice already stored as asked is not written again. The member's closed mark is
        cleared in the same unit of work.
        """
        kinds = kinds_named(name)
        async with self._store.change(user_id, "notify.set", f"user:{user_id}") as uow:
            choices = await uow.notifications.choices(user_id)
            asked = [kind for kind in kinds if choices.get(kind.key) != on]
            for kind in asked:
                await uow.notifications.choose(user_id, kind.key, on)
                choices[kind.key] = on
            reopened = await uow.notifications.reopen(user_id)
            if reopened:
                uow.details["reopened"] = True
            if not asked and not reopened:
                uow.abandon()
        chosen = {kind.key for kind in kinds}
        shown_kinds = tuple(s for s in settings_of(choices) if s.key in chosen)
        return Change(shown_kinds, on, bool(asked), reopened)
