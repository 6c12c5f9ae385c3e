"""What the tour posts on its own from bot/tour/automation/.

It posts a round's pairings and colours before its session, pinging its players, and a report
confirmed automatically. It posts a game found on a site, waiting for the players' Confirm or
Dispute with the buttons of a player's report. It posts the close of a session's appeals by CCT-11,
and an event's wrap-up: the CCT-8c placings, CCT-6 tour points, the tour ranking and the next
event's CCT-3 qualification. Names are shown as typed through `tour_cards.name`, a linked player as
their mention, and instants as Discord timestamps.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.rendering.common import limits
from bot.rendering.common.components import yes_no_row
from bot.rendering.common.text import cut, shown_rank
from bot.rendering.tour.cards import clip, name, result_text, when
from bot.rendering.tour.qualification_embeds import qualification_lines
from core.results import Result
from core.tour.qualification import QualificationList
from core.tour.ranking import TourRank

GAME_PATTERN = r"tourgame:(?P<game>[0-9]{1,18}):(?P<action>confirm|dispute)"
"""The custom id of a report's persistent Confirm or Dispute button."""
DM_GAME_PATTERN = r"dmgame:(?P<guild>[0-9]{1,20}):(?P<game>[0-9]{1,18}):(?P<action>confirm|dispute)"
"""The custom id of a report's Confirm or Dispute button in a direct message, which names its
guild."""

RANKING_SHOWN = 10
"""Tour ranking rows a wrap-up shows. The whole ranking is `/tour standings`."""


def game_custom_id(game_id: int, confirm: bool) -> str:
    """The custom id of a report's Confirm or Dispute button."""
    return f"tourgame:{game_id}:{'confirm' if confirm else 'dispute'}"


def report_buttons(game_id: int) -> list[dict[str, Any]]:
    """A report's Confirm and Dispute buttons as Discord component JSON, green and red.

    They use the same custom ids as a player's report, so one persistent handler serves both.
    """
    return yes_no_row("Confirm", "Dispute", lambda confirm: game_custom_id(game_id, confirm))


def dm_report_buttons(guild_id: int, game_id: int) -> list[dict[str, Any]]:
    """A report's Confirm and Dispute buttons for a direct message, where no guild is known
    otherwise."""

    def custom_id(confirm: bool) -> str:
        return f"dmgame:{guild_id}:{game_id}:{'confirm' if confirm else 'dispute'}"

    return yes_no_row("Confirm", "Dispute", custom_id)


def player(display: str, user_id: int | None) -> str:
    """A player as a post names them: their mention when linked to a member, else the name."""
    return f"<@{user_id}>" if user_id is not None else name(display)


def relative(instant: dt.datetime) -> str:
    """An instant with its countdown, such as `in 1 hour`, in every reader's own zone."""
    return f"{when(instant)} ({discord.utils.format_dt(instant, 'R')})"


def round_reminder(event: str, title: str, start: dt.datetime, lines: Sequence[str]) -> str:
    """A round's or knock-out day's pairings and colours before its session starts."""
    head = f"**{name(event)}**, {title} — starts {relative(start)}:"
    return clip("\n".join([head, *lines]))


def pairing_line(board: str, white: str, black: str, note: str = "") -> str:
    """One pairing, White first, as in `1. @A (White) – @B`, with a note such as its clock or a
    choice.
    """
    return f"{board} {white} (White) – {black}" + (f" · {note}" if note else "")


def auto_confirmed(event: str, game: str, result: Result | None, hours: int) -> str:
    """A report nobody answered for `confirm_hours`, confirmed by the bot."""
    return (
        f"Confirmed automatically in **{name(event)}**: {name(game)} is "
        f"{result_text(result)} (no answer within {hours} h)."
    )


@dataclass(frozen=True)
class FoundGame:
    """A game found on a site for an open pairing, as reported by the bot."""

    event: str
    game: str
    site: str
    url: str
    result: Result
    white: str
    black: str
    confirm_by: dt.datetime
    early_draw: bool


def found_game(found: FoundGame) -> str:
    """A game found on a site, reported by the bot: the players confirm or dispute."""
    text = (
        f"Found on {found.site}: **{name(found.event)}**, {name(found.game)} — "
        f"{result_text(found.result)} (<{found.url}>). {found.white}, {found.black}: confirm "
        f"or dispute; confirmed automatically {relative(found.confirm_by)} if nobody answers."
    )
    if found.early_draw:
        text += " CCT-7: drawn before move 40 — flagged to the arbiters."
    return clip(text)


def appeals_closed(
    event: str, day: int, date: dt.date, lodged: int, open_now: int, decided: int = 0
) -> str:
    """CCT-11: the appeals of a session day are closed, with what was lodged for it, what the
    arbiters still have to decide, and what they decided that day."""
    counts = f"{_appeals(lodged)} lodged for it"
    if open_now:
        counts += f", {open_now} still open for the arbiters"
    if decided:
        counts += f", {_appeals(decided)} decided that day"
    return (
        f"Appeals for **{name(event)}**, day {day} ({date.isoformat()}), are closed "
        f"(CCT-11, 23:59 in the appeals zone): {counts}."
    )


def _appeals(count: int) -> str:
    """`1 appeal`, `2 appeals`, `no appeal`."""
    if not count:
        return "no appeal"
    return f"{count} appeal{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class Placing:
    """One player's place in a finished event and the tour points it gave, by CCT-8c and CCT-6."""

    place: str
    player: str
    points: int


def wrap_up(
    event: str,
    placings: Sequence[Placing],
    ranking: Sequence[TourRank],
    tour: str,
    qualification: QualificationList | None,
    next_event: str | None,
) -> list[dict[str, Any]]:
    """An event's last game decided: its placings and tour points, the tour ranking and the
    next event's qualification list, as embeds."""
    rows = [f"{p.place}. {name(p.player)} — {p.points} tour pts" for p in placings]
    embeds = [_embed(f"{name(event)} is over: placings and tour points (CCT-8c, CCT-6)", rows)]
    ranked = [
        f"{shown_rank(r.rank, r.tied)}. {name(str(r.player))} — {r.record.points} pts"
        for r in ranking[:RANKING_SHOWN]
    ]
    if len(ranking) > RANKING_SHOWN:
        ranked.append(f"… {len(ranking) - RANKING_SHOWN} more: `/tour standings`")
    embeds.append(_embed(f"{name(tour)}: tour ranking (CCT-6)", ranked))
    if qualification is not None:
        title = (
            f"Qualified for {name(next_event)} (CCT-3)"
            if next_event
            else "Finals qualification as it stands (CCT-3)"
        )
        embeds.append(_embed(title, qualification_lines(qualification)))
    return embeds


def finals_over(event: str, winner: str | None, tied: Sequence[str]) -> str:
    """CCT-8f: the Finals' last match decided: the tour's winner, or the tie for first."""
    if tied:
        names = ", ".join(name(p) for p in tied)
        return clip(
            f"**{name(event)}** is over: {names} share first place (CCT-8f) — decided as the "
            "organiser announces."
        )
    return clip(f"**{name(event)}** is over: **{name(winner or '')}** wins the tour (CCT-8f).")


def _embed(title: str, lines: Sequence[str]) -> dict[str, Any]:
    """An embed as Discord's dict, within Discord's limits."""
    text = cut("\n".join(lines) or "Nothing yet.", limits.EMBED_DESCRIPTION)
    return dict(discord.Embed(title=cut(title, limits.EMBED_TITLE), description=text).to_dict())
