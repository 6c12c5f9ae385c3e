"""Autocomplete of the league's options: the guild's candidates, ordered for the member typing.

The candidates come from `storage.league.lookups`. The member's own clubs and the next
unplayed matches come first, then names that start with the typed text.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from discord import app_commands

from bot.app.autocomplete.common import (
    MAX_CHOICES,
    NAME_LIMIT,
    choice_name,
    looked_up,
    name_choices,
    other_option,
    starts,
    store_of,
)
from bot.app.interaction import Interaction
from storage.league.lookups import ClubCandidate, MatchCandidate, SeasonCandidate


def _club_label(club: ClubCandidate) -> str:
    return club.name if club.status == "approved" else f"{club.name} ({club.status})"


def club_choices(candidates: Sequence[ClubCandidate], typed: str) -> list[app_commands.Choice[str]]:
    """The member's clubs first, then approved ones, then the rest, with prefix matches before
    others.
    """
    ranked = sorted(
        candidates,
        key=lambda c: (not c.mine, c.status != "approved", not starts(c.name, typed), c.name),
    )
    return [
        app_commands.Choice(
            name=choice_name(_club_label(c)),
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
        key=lambda p: (p[1].status == "finished", not starts(p[1].name, typed), p[0]),
    )
    return [
        app_commands.Choice(name=choice_name(c.name), value=c.name[:NAME_LIMIT])
        for _, c in ranked[:MAX_CHOICES]
    ]


def match_label(match: MatchCandidate) -> str:
    """A match choice such as `Spring · P-R3 · Alpha vs Beta · 2026-03-07`, with ✓ once played."""
    done = " ✓" if match.finished else ""
    day = match.start.date().isoformat()
    return choice_name(f"{match.season} · {match.key} · {match.home} vs {match.away} · {day}{done}")


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


async def clubs(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `club` option."""
    found = await looked_up(interaction, lambda v: v.lookups.clubs(current, interaction.user.id))
    return [] if found is None else club_choices(found, current)


async def seasons(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `season` option."""
    found = await looked_up(interaction, lambda view: view.lookups.seasons(current))
    return [] if found is None else season_choices(found, current)


async def divisions(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `division` option, of the `season` already typed if any."""
    season = other_option(interaction, "season")
    found = await looked_up(interaction, lambda view: view.lookups.divisions(current, season))
    return [] if found is None else name_choices(found, current)


async def matches(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `match` option: the caller's clubs' and the next matches first."""
    store = store_of(interaction)
    if store is None:
        return []
    now = store.database.clock()
    async with store.read() as view:
        found = await view.lookups.matches(
            str(current), interaction.user.id, now, other_option(interaction, "season")
        )
    return match_choices(found, now)


async def players(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for a `player` option, of the `club` already typed if any."""
    club = other_option(interaction, "club")
    found = await looked_up(interaction, lambda view: view.lookups.players(current, club))
    return [] if found is None else name_choices(found, current)
