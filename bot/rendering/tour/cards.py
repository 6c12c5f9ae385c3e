"""The tour's text pieces and announcements: names shown as typed (`escape`), results as
players write them, instants as Discord timestamps, the draw's pairings, and the notices of
disputes, CCT-7 flags, CCT-9 corrections, CCT-10 rulings and CCT-11 appeals. The tables,
images and CSV are the tour renderers' (standings_embeds, bracket_image, …)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import discord

from bot.rendering.common import limits
from bot.rendering.common.pages import line_pages
from bot.rendering.common.text import cut, points, timestamp
from bot.rendering.common.user_text import user_text
from core.results import Result
from core.tour.disconnections import DisconnectionRuling
from core.tour.early_draws import EarlyDrawCheck
from core.tour.event_facts import ContestRecord, Pairing

COLOUR = discord.Colour.dark_gold()
PAGE = 1800
"""Characters of one embed description page."""


def when(instant: dt.datetime) -> str:
    """An instant every reader sees in their own zone."""
    return timestamp(instant)


def result_text(result: Result | None) -> str:
    """A result as players write it: 1-0, ½-½, 0-1, +/-, -/+ or -/-, and `…` when not in."""
    if result is None:
        return "…"
    return "½-½" if result is Result.DRAW else result.value


def score(value: Fraction) -> str:
    """Points as chess players write them: 2½, ½, 3."""
    return points(value)


def name(text: object) -> str:
    """A player, event or tour name as typed, with no markdown."""
    return user_text(str(text))


def embeds(title: str, lines: Sequence[str], empty: str = "Nothing yet.") -> list[dict[str, Any]]:
    """Embeds as Discord's dicts, titled `title` with `lines`, split into pages."""
    pages = line_pages(lines, PAGE) or [empty]
    return [
        dict(
            discord.Embed(
                title=cut(title, limits.EMBED_TITLE), description=page, colour=COLOUR
            ).to_dict()
        )
        for page in pages
    ]


def pairings_embeds(
    event: str, pairings: Sequence[Pairing], starts: Mapping[int, dt.datetime]
) -> list[dict[str, Any]]:
    """CCT-8a: every round's pairings, with its session start."""
    lines: list[str] = []
    current = 0
    for p in pairings:
        if p.round != current:
            current = p.round
            start = starts.get(p.round)
            lines.append(f"**Round {p.round}**" + (f" · {when(start)}" if start else ""))
        lines.append(f"{p.board}. {name(p.white)} – {name(p.black)}")
    return embeds(f"{user_text(event)}: pairings", lines)


def knockout_started(event: str, quarters: Sequence[tuple[str, str, str]]) -> str:
    """CCT-8c: the knock-out of an event is built: its quarter-finals."""
    ties = "; ".join(f"{tie} {name(a)} – {name(b)}" for tie, a, b in quarters)
    return f"The knock-out of **{name(event)}** starts (CCT-8c): {ties}."


def finals_declined(event: str, player: str, replaced_by: Sequence[str]) -> str:
    """CCT-3: a qualified player declined the Finals, and their place is offered on."""
    return f"**{name(player)}** declined **{name(event)}** (CCT-3): {went_to(replaced_by)}."


def finals_decline_withdrawn(event: str, player: str, replaced_by: Sequence[str]) -> str:
    """CCT-3: a mistaken decline withdrawn, and the player is offered their place again."""
    back = "their place is theirs again"
    if replaced_by:
        back += f", no longer offered to {', '.join(name(p) for p in replaced_by)}"
    return f"The decline of **{name(player)}** from **{name(event)}** is withdrawn (CCT-3): {back}."


def finals_draw_cancelled(event: str) -> str:
    """CCT-8f: the Finals' draw cancelled before any game of them was played."""
    return (
        f"The draw of **{name(event)}** is cancelled (CCT-8f): its pairings no longer stand and "
        "no game of it was played. The players stay entered; the Finals will be drawn again."
    )


def went_to(replaced_by: Sequence[str]) -> str:
    """CCT-3: where a declined place went: the next in line, or an open place for a wildcard."""
    if not replaced_by:
        return "no one is next in line, so the place is open for a wildcard"
    return f"the place is offered to {', '.join(name(p) for p in replaced_by)}"


MESSAGE_LIMIT = 2000
"""Discord's limit on a message's text."""


def clip(text: str) -> str:
    """A message within Discord's limit."""
    return cut(text, MESSAGE_LIMIT)


def early_draw_flag(event: str, game: str, check: EarlyDrawCheck) -> str:
    """CCT-7: a draw before both sides completed move 40, flagged for the arbiters."""
    return (
        f"CCT-7 flag in **{name(event)}**, {name(game)}: drawn after {check.moves_completed} "
        f"moves ({check.kind.value}); no draw offers before both sides completed move 40."
    )


def dispute_notice(event: str, game: str, result: Result | None, by: str) -> str:
    """A disputed report goes to the arbiters. `/game report` by an arbiter is final."""
    return (
        f"Disputed in **{name(event)}**: {name(game)}, reported {result_text(result)}, disputed "
        f"by {by}. An arbiter decides with `/game report` (final) or `/game correct`."
    )


def correction_notice(event: str, game: str, result: Result, explanation: str, ground: str) -> str:
    """CCT-9: an arbiter's correction, with its ground and reason."""
    return (
        f"Arbiter decision in **{name(event)}**: {name(game)} is {result_text(result)} "
        f"({ground}; {name(explanation)}) (CCT-9)."
    )


def walkover_text(record: ContestRecord) -> str:
    """CCT-9: a contest awarded without play, with its reason and note, never shown as games."""
    if record.reason is None:
        return "walkover"
    note = "" if record.note is None else f": {name(record.note)}"
    return f"walkover ({record.reason.value}{note})"


def award_notice(
    event: str, contest: str, winner: str, loser: str, reason: str, note: str | None
) -> str:
    """CCT-9: an arbiter's award without play, with its reason."""
    why = reason if note is None else f"{reason}: {name(note)}"
    return (
        f"Arbiter decision in **{name(event)}**: {name(contest)} is awarded to "
        f"**{name(winner)}** against {name(loser)} without play — walkover ({why}) (CCT-9)."
    )


def incident_notice(
    event: str, game: str, player: str, ruling: DisconnectionRuling, result: Result | None
) -> str:
    """CCT-10: a disconnection's ruling and the result it set."""
    text = (
        f"Disconnection in **{name(event)}**, {name(game)}: {name(player)} — {ruling.outcome.value}"
    )
    if ruling.clock_after is not None:
        text += f" ({int(ruling.clock_after.total_seconds())} s left)"
    text += f"; {ruling.reason}"
    if result is not None:
        text += f". Result: {result_text(result)}"
    return text + "."


def appeal_notice(appeal: int, event: str, game: str, player: str) -> str:
    """CCT-11: an appeal lodged in time."""
    return (
        f"Appeal {appeal} lodged by {name(player)} in **{name(event)}** about {name(game)} "
        "(CCT-11)."
    )


def appeal_decided(appeal: int, event: str, decision: str, reason: str) -> str:
    """CCT-11: an arbiter's decision on an appeal."""
    return f"Appeal {appeal} in **{name(event)}**: {decision} — {name(reason)}."


def as_embeds(dicts: Sequence[dict[str, Any]]) -> list[discord.Embed]:
    """Embed dicts, as the outbox stores them, turned into discord.py embeds for a reply."""
    return [discord.Embed.from_dict(d) for d in dicts]
