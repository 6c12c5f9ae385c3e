"""What a slash command hands a service: the caller as an `Actor`, integer options within
their domain and Discord's ±2⁵³, dates and instants parsed from option text within a sane
window, and attachments read within a size cap — each refusal one clear line."""

from __future__ import annotations

import datetime as dt
from typing import Any

import discord
from discord import app_commands

from bot.app.interaction import Interaction
from bot.app.permissions import guild_store
from bot.formats.boards_csv import BoardRow, BoardsCsvError, parse_boards_csv
from bot.kernel.actor import Actor
from bot.kernel.date_window import EARLIEST_DAY, YEARS_AHEAD, latest_day
from bot.kernel.errors import OptionRefused, UserError, quote_mark
from bot.kernel.inputs import shown
from bot.rendering.common import limits
from storage.guild import GuildStore

MAX_ATTACHMENT = 1_000_000
"""Bytes of an attachment a command reads, such as a season file or a boards CSV."""


class Whole(app_commands.Transformer):
    """An integer option of the domain `low` to `high`, published with those bounds and checked
    again when a command runs.

    An id runs from 1 to 2⁵³, Discord's largest. The check is repeated because a raw interaction can
    carry any integer, and a value past SQLite's 2⁶³ would fail as an error.
    """

    def __init__(self, what: str, low: int = 1, high: int = limits.INTEGER_OPTION) -> None:
        self.what, self.low, self.high = what, low, high

    @property
    def type(self) -> discord.AppCommandOptionType:
        """An integer option."""
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        """The smallest value Discord's client offers."""
        return self.low

    @property
    def max_value(self) -> int:
        """The largest value Discord's client offers."""
        return self.high

    async def transform(self, interaction: discord.Interaction[Any], value: Any, /) -> int:
        """`value` if it is a whole number of the domain, else one line saying which."""
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not self.low <= value <= self.high
        ):
            raise OptionRefused(
                f"The {self.what} must be a whole number from {self.low} to {self.high:,}"
                f", not {shown(str(value))}."
            )
        return value


MOTION = Whole("motion")
"""A motion id option."""


async def actor_of(store: GuildStore, interaction: Interaction) -> Actor:
    """The caller with the guild roles they hold, read against `/setup`'s roles."""
    async with store.read() as view:
        settings = await view.settings.get()
    member = interaction.user
    roles = [r.id for r in member.roles] if isinstance(member, discord.Member) else []
    return Actor.member(member.id, settings, roles)


async def store_and_actor(interaction: Interaction) -> tuple[GuildStore, Actor]:
    """The repositories of the caller's guild, and the caller with the roles they hold."""
    store = guild_store(interaction)
    return store, await actor_of(store, interaction)


def parse_day(text: str, what: str, today: dt.date | None = None, *, past: bool = False) -> dt.date:
    """A `YYYY-MM-DD` date from 2000 to `YEARS_AHEAD` years after `today`.

    Without `past`, a date before `today` is refused. When `today` is None the date of the clock is
    not checked.
    """
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise UserError(f"{shown(text)} is not a date: write it as YYYY-MM-DD.") from None
    if day < EARLIEST_DAY:
        raise UserError(f"The {what} {day.isoformat()} is before {EARLIEST_DAY.year}.")
    if today is not None:
        if not past and day < today:
            raise UserError(f"The {what} {day.isoformat()} is in the past.")
        if day > latest_day(today):
            raise UserError(f"The {what} {day.isoformat()} is more than {YEARS_AHEAD} years ahead.")
    return day


async def read_attachment(attachment: discord.Attachment, what: str, suffix: str) -> bytes:
    """The attachment's bytes: named `*{suffix}` and at most `MAX_ATTACHMENT` bytes."""
    if not attachment.filename.lower().endswith(suffix):
        raise UserError(f"The {what} must be a {suffix} file, not {shown(attachment.filename)}.")
    if attachment.size > MAX_ATTACHMENT:
        raise UserError(
            f"The {what} is {attachment.size:,} bytes: at most {MAX_ATTACHMENT:,} are read."
        )
    data = await attachment.read()
    if len(data) > MAX_ATTACHMENT:
        raise UserError(f"The {what} is over {MAX_ATTACHMENT:,} bytes.")
    return data


async def read_boards(attachment: discord.Attachment) -> list[BoardRow]:
    """A boards CSV attachment as its rows, for `/match result` and `/vote open correct-result`.

    It must be a `.csv` within the size cap, in UTF-8, with every line valid. A bad line is named.
    """
    data = await read_attachment(attachment, "boards file", ".csv")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError(
            f"The boards file is not UTF-8 text (byte {error.start + 1} is not): save it"
            " as CSV (UTF-8)."
        ) from None
    try:
        return parse_boards_csv(text)
    except BoardsCsvError as error:
        raise UserError(f"The boards file cannot be read: {quote_mark(str(error))}.") from None
