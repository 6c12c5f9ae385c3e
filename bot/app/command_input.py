"""What a slash command hands a service: the caller as an `Actor`, dates and instants parsed
from option text, and attachments read within a size cap — each refusal one clear line."""

from __future__ import annotations

import datetime as dt

import discord

from bot.app.actor import Actor
from bot.app.errors import UserError, quote_mark
from bot.app.inputs import shown
from bot.formats.boards_csv import BoardRow, BoardsCsvError, parse_boards_csv
from storage.guild import GuildStore

MAX_ATTACHMENT = 1_000_000
"""Bytes of an attachment a command reads (a season file, a boards CSV)."""


async def actor_of(store: GuildStore, interaction: discord.Interaction) -> Actor:
    """The caller with the guild roles they hold (read against `/setup`'s roles)."""
    async with store.read() as view:
        settings = await view.settings.get()
    member = interaction.user
    roles = [r.id for r in member.roles] if isinstance(member, discord.Member) else []
    return Actor.member(member.id, settings, roles)


def parse_day(text: str, what: str, today: dt.date | None = None) -> dt.date:
    """A `YYYY-MM-DD` date; with `today`, one in the past is refused."""
    try:
        day = dt.date.fromisoformat(text.strip())
    except ValueError:
        raise UserError(f"{shown(text)} is not a date: write it as YYYY-MM-DD.") from None
    if today is not None and day < today:
        raise UserError(f"The {what} {day.isoformat()} is in the past.")
    return day


def parse_instant(text: str, what: str, now: dt.datetime | None = None) -> dt.datetime:
    """`YYYY-MM-DD HH:MM` in UTC (or with an offset, `…+02:00`); with `now`, one in the past
    is refused."""
    try:
        instant = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UserError(
            f"{shown(text)} is not a date and time: write YYYY-MM-DD HH:MM (UTC)."
        ) from None
    if instant.tzinfo is None:
        instant = instant.replace(tzinfo=dt.UTC)
    if now is not None and instant <= now:
        raise UserError(f"The {what} {instant.isoformat(sep=' ')} is in the past.")
    return instant.astimezone(dt.UTC)


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
    """A boards CSV attachment (`/match result`, `/vote open correct-result`) as its rows:
    a `.csv` within the size cap, UTF-8, every line valid (a bad one is named)."""
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
