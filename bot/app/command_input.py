"""What a slash command hands a service: the caller as an `Actor`, dates and instants parsed
from option text, and attachments read within a size cap — each refusal one clear line."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import discord

from bot.app.actor import Actor
from bot.app.errors import UserError
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


def parse_local_instant(text: str, what: str, zone: str) -> dt.datetime:
    """`YYYY-MM-DD HH:MM` read in `zone` (the league's, CL-13/22: `America/Los_Angeles` by
    default), or with an explicit offset (`…+02:00`, `…Z`) or IANA zone after it
    (`2026-04-01 20:00 Europe/Paris`); the instant in UTC. A local time that does not exist
    (skipped by daylight saving) or exists twice is refused rather than guessed."""
    words = text.strip().rsplit(" ", 1)
    place = zone
    if len(words) == 2 and ("/" in words[1] or words[1].upper() == "UTC"):
        text, place = words[0], "UTC" if words[1].upper() == "UTC" else words[1]
    try:
        local = ZoneInfo(place)
    except (ZoneInfoNotFoundError, ValueError):
        raise UserError(f"{shown(place)} is not a time zone: use an IANA name.") from None
    try:
        instant = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise UserError(
            f"{shown(text)} is not a date and time: write YYYY-MM-DD HH:MM ({zone} time),"
            " or add a zone (… Europe/Paris)."
        ) from None
    if instant.tzinfo is not None:
        return instant.astimezone(dt.UTC)
    early = instant.replace(tzinfo=local, fold=0)
    late = instant.replace(tzinfo=local, fold=1)
    if early.astimezone(dt.UTC).astimezone(local).replace(tzinfo=None) != instant:
        raise UserError(f"{instant:%Y-%m-%d %H:%M} does not exist in {place} (the clocks skip it).")
    if early.utcoffset() != late.utcoffset():
        raise UserError(
            f"{instant:%Y-%m-%d %H:%M} happens twice in {place} (the clocks go back):"
            " give the offset, e.g. …-07:00."
        )
    return early.astimezone(dt.UTC)


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
        raise UserError(f"The boards file cannot be read: {error}.") from None
