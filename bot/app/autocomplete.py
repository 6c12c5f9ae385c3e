"""Autocomplete ranking of the guild's candidates from `storage.lookups`.

Candidates are ordered for the member typing: their own clubs and the next unplayed matches first,
then names that start with the typed text. They are cut to Discord's 25 choices of at most 100
characters.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from discord import app_commands

from bot.app.interaction import Interaction
from bot.rendering import limits
from bot.rendering.text import cut
from bot.rendering.user_text import plain
from storage.guild import GuildStore
from storage.lookups import ClubCandidate, MatchCandidate, SeasonCandidate

MAX_CHOICES = limits.CHOICES
NAME_LIMIT = limits.CHOICE_NAME


def _name(text: str) -> str:
    """A choice's name in plain text, cut to Discord's 100. A choice shows no markdown."""
    return cut(plain(text), NAME_LIMIT)


def _starts(name: str, typed: str) -> bool:
    return name.casefold().startswith(typed.strip().casefold())


def _club_label(club: ClubCandidate) -> str:
    return club.name if club.status == "approved" else f"{club.name} ({club.status})"


def club_choices(candidates: Sequence[ClubCandidate], typed: str) -> list[app_commands.Choice[str]]:
    """The member's clubs first, then approved ones, then the rest, with prefix matches before
    others.
    """
    ranked = sorted(
        candidates,
        key=lambda c: (not c.mine, c.status != "approved", not _starts(c.name, typed), c.name),
    )
    return [
        app_commands.Choice(
            name=_name(_club_label(c)),
            value=c.name[:NAME_LIMIT],
        )
        for c in ranked[:MAX_CHOICES]
    ]


def season_choices(
    candidates: Sequence[SeasonCandidate], typed: str
) -> list[app_commands.Choice[str]]:
    """Running seasons first, newest first, with prefix matches before others."""
    ranked = sorted(
        enumerate(candidates),
        key=lambda p: (p[1].status == "finished", not _starts(p[1].name, typed), p[0]),
    )
    return [
        app_commands.Choice(name=_name(c.name), value=c.name[:NAME_LIMIT])
        for _, c in ranked[:MAX_CHOICES]
    ]


def name_choices(names: Sequence[str], typed: str) -> list[app_commands.Choice[str]]:
    """Plain names such as divisions and players, prefix matches first and the order kept
    otherwise.
    """
    ranked = sorted(enumerate(names), key=lambda p: (not _starts(p[1], typed), p[0]))
    return [
        app_commands.Choice(name=_name(n), value=n[:NAME_LIMIT]) for _, n in ranked[:MAX_CHOICES]
    ]


def match_label(match: MatchCandidate) -> str:
    """A match choice such as `Spring · P-R3 · Alpha vs Beta · 2026-03-07`, with ✓ once played."""
    done = " ✓" if match.finished else ""
    day = match.start.date().isoformat()
    return _name(f"{match.season} · {match.key} · {match.home} vs {match.away} · {day}{done}")


def match_choices(
    candidates: Sequence[MatchCandidate], now: dt.datetime
) -> list[app_commands.Choice[str]]:
    """The member's clubs' matches first, then the other matches.

    After them come unplayed ones from the next start on, then unplayed ones already started, then
    played ones, latest first.
    """

    def key(m: MatchCandidate) -> tuple[bool, int, float]:
        if m.finished:
            return (not m.mine, 2, -m.start.timestamp())
        return (not m.mine, 0 if m.start >= now else 1, m.start.timestamp())

    ranked = sorted(candidates, key=key)
    # The value is the match's number as text: the option also takes a key (`DO-1-1`).
    return [app_commands.Choice(name=match_label(m), value=str(m.id)) for m in ranked[:MAX_CHOICES]]


def _store(interaction: Interaction) -> GuildStore | None:
    if interaction.guild_id is None:
        return None
    return interaction.client.guild_store(interaction.guild_id)


def _typed(interaction: Interaction, option: str) -> str | None:
    """What the member typed so far in another option of the command, or None for nothing."""
    value = getattr(interaction.namespace, option, None)
    return str(value) if value else None


async def clubs(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `club` option."""
    store = _store(interaction)
    if store is None:
        return []
    async with store.read() as view:
        found = await view.lookups.clubs(current, interaction.user.id)
    return club_choices(found, current)


async def seasons(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `season` option."""
    store = _store(interaction)
    if store is None:
        return []
    async with store.read() as view:
        found = await view.lookups.seasons(current)
    return season_choices(found, current)


async def divisions(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `division` option, of the `season` already typed if any."""
    store = _store(interaction)
    if store is None:
        return []
    async with store.read() as view:
        found = await view.lookups.divisions(current, _typed(interaction, "season"))
    return name_choices(found, current)


async def matches(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `match` option: the caller's clubs' and the next matches first."""
    store = _store(interaction)
    if store is None:
        return []
    now = store.database.clock()
    async with store.read() as view:
        found = await view.lookups.matches(
            str(current), interaction.user.id, now, _typed(interaction, "season")
        )
    return match_choices(found, now)


async def players(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `player` option, of the `club` already typed if any."""
    store = _store(interaction)
    if store is None:
        return []
    async with store.read() as view:
        found = await view.lookups.players(current, _typed(interaction, "club"))
    return name_choices(found, current)
