"""The league's slash-command replies as embeds.

They cover clubs, seasons, matches, calendars, schedule previews, results and rosters. Every instant
is a Discord timestamp, and deadlines have a countdown. Long lists are split into pages within
Discord's limits. Names, keys and usernames are shown as typed through `escape`, with our own
markdown around them kept.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import discord

from bot.rendering.common import limits
from bot.rendering.common.embeds import COLOUR, paged
from bot.rendering.common.pages import line_pages
from bot.rendering.common.text import countdown, cut, halves, timestamp
from bot.rendering.common.user_text import inline_code, user_text
from bot.rendering.league.division_view import DivisionView
from bot.rendering.league.standings_table import standings_pages

TITLE_SIDE = 110
"""Characters of one club's escaped name in a title naming both (2 × 110 + a score ≤ 256)."""


def _side(club: str) -> str:
    """A club's name in a title naming both clubs, escaped and cut so both and a score fit."""
    return cut(user_text(club), TITLE_SIDE)


def when(instant: dt.datetime) -> str:
    """An instant every reader sees in their own zone: `<t:…:F>`."""
    return timestamp(instant)


@dataclass(frozen=True)
class ClubInfo:
    """What `/club info` shows."""

    name: str
    chesscom_id: str | None
    status: str
    admins: tuple[int, ...]
    division: str | None
    reminder_channel_id: int | None
    members: int | None
    average: float | None
    forfeits: dict[str, int]


def club_embed(info: ClubInfo) -> discord.Embed:
    """A club's card."""
    embed = discord.Embed(title=cut(user_text(info.name), limits.EMBED_TITLE), colour=COLOUR)
    if info.chesscom_id:
        embed.url = f"https://www.chess.com/club/{info.chesscom_id}"
    embed.add_field(name="Status", value=info.status)
    embed.add_field(name="Admins", value=" ".join(f"<@{a}>" for a in info.admins) or "none")
    division = user_text(info.division) if info.division else "not in a running season"
    embed.add_field(name="Division", value=division)
    if info.members is not None:
        embed.add_field(name="Members now", value=str(info.members))
    if info.average is not None:
        embed.add_field(name="Daily average now", value=f"{info.average:.0f}")
    channel = f"<#{info.reminder_channel_id}>" if info.reminder_channel_id else "announcements"
    embed.add_field(name="Reminders go to", value=channel)
    counters = ", ".join(f"{rule}: {n}" for rule, n in sorted(info.forfeits.items()))
    embed.add_field(name="Forfeits", value=counters or "none", inline=False)
    return embed


@dataclass(frozen=True)
class MatchLine:
    """A match as lists and cards show it."""

    id: int
    season: str
    division: str
    key: str
    round: int
    home: str
    away: str
    start: dt.datetime
    deadline: dt.datetime
    finished: bool
    score: tuple[int, int] | None
    challenge: str


def match_list(title: str, matches: Sequence[MatchLine]) -> list[discord.Embed]:
    """`#id · key · home – away · start` per line, paginated."""
    lines = []
    for m in matches:
        score = f" **{halves(m.score[0])}–{halves(m.score[1])}**" if m.score else ""
        lines.append(
            f"`#{m.id}` {user_text(m.key)} · R{m.round} · {user_text(m.home)} –"
            f" {user_text(m.away)}{score} · "
            f"{timestamp(m.start, 'f')}"
        )
    return paged(title, lines, "No matches.")


@dataclass(frozen=True)
class BoardLine:
    """One board of a match and, when adjusted by CL-18 or CL-19, why."""

    board: int
    home_player: str
    away_player: str
    home_half: int
    away_half: int
    why: str | None = None


def match_embed(
    match: MatchLine,
    boards: Sequence[BoardLine],
    forfeits: Sequence[str],
    counts: str | None = None,
    state: str = "",
) -> list[discord.Embed]:
    """`/match show`: the match's clubs, start, deadline with countdown, challenge and state.

    The state may be void by CL-DQ. It also shows the boards' score and what it counts as, the
    boards and the forfeits.
    """
    embed = discord.Embed(
        title=f"{_side(match.home)} – {_side(match.away)}",
        description=f"{user_text(match.season)} · {user_text(match.division)} · round"
        f" {match.round} · {inline_code(match.key)}",
        colour=COLOUR,
    )
    embed.add_field(name="Start", value=when(match.start))
    embed.add_field(name="Challenge deadline (CL-15)", value=countdown(match.deadline))
    embed.add_field(name="Challenge", value=match.challenge, inline=False)
    if state:
        embed.add_field(name="State", value=state)
    if match.score is not None:
        embed.add_field(
            name="Score on the boards", value=f"{halves(match.score[0])} – {halves(match.score[1])}"
        )
    if counts:
        embed.add_field(
            name="Counts", value=cut(user_text(counts), limits.FIELD_VALUE), inline=False
        )
    if forfeits:
        value = "\n".join(user_text(forfeit) for forfeit in forfeits)
        embed.add_field(name="Forfeits", value=cut(value, limits.FIELD_VALUE), inline=False)
    embed.set_footer(text=f"match #{match.id}")
    lines = [board_line(b) for b in boards]
    if not lines:
        return [embed]
    pages = line_pages(lines, 1000)
    embed.add_field(name="Boards", value=pages[0], inline=False)
    more = [
        discord.Embed(
            title=f"{_side(match.home)} – {_side(match.away)}: boards", colour=COLOUR
        ).add_field(name="Boards", value=page, inline=False)
        for page in pages[1:]
    ]
    return [embed, *more]


def board_line(board: BoardLine) -> str:
    """A board line such as `3. alice 1½–½ bob`, with why when adjusted."""
    text = (
        f"{board.board}. {user_text(board.home_player)} {halves(board.home_half)}–"
        f"{halves(board.away_half)} {user_text(board.away_player)}"
    )
    return f"{text} — adjusted: {user_text(board.why)}" if board.why else text


def result_embed(
    match: MatchLine,
    score: tuple[int, int],
    counted: tuple[int, int] | None,
    adjusted: Sequence[BoardLine],
    ranks: Sequence[tuple[str, str]],
    why: str | None = None,
) -> discord.Embed:
    """After a result: the score as recorded, as it counts, and each club's new rank.

    `why` says why it counts otherwise, for CL-18 or CL-19 adjustments, a forfeit or a void match.
    """
    embed = discord.Embed(
        title=f"Result: {_side(match.home)} {halves(score[0])} – {halves(score[1])}"
        f" {_side(match.away)}",
        description=f"{user_text(match.season)} · {user_text(match.division)} ·"
        f" {inline_code(match.key)}",
        colour=COLOUR,
    )
    if why:
        embed.add_field(name="Counts", value=cut(user_text(why), limits.FIELD_VALUE), inline=False)
    elif counted is not None and counted != score:
        embed.add_field(
            name="Counts as", value=f"{halves(counted[0])} – {halves(counted[1])}", inline=False
        )
    if adjusted:
        value = "\n".join(board_line(b) for b in adjusted)
        embed.add_field(name="Adjusted boards", value=cut(value, limits.FIELD_VALUE), inline=False)
    for club, rank in ranks:
        embed.add_field(name=cut(user_text(club), limits.EMBED_TITLE), value=f"now ranked {rank}")
    return embed


def schedule_preview(
    season: str, rounds: Sequence[tuple[int, dt.datetime, Sequence[str]]], total: int
) -> list[discord.Embed]:
    """A schedule preview: each round's start and pairings, paginated."""
    lines = []
    for number, start, pairs in rounds:
        lines.append(f"**Round {number}** · {when(start)}")
        lines += [f"• {user_text(pair)}" for pair in pairs]
    title = f"Schedule of {season}: {total} matches (preview)"
    return paged(title, lines, "No matches.")


class DivisionSize(NamedTuple):
    """A division of a season: its clubs and its minimum players by CL-9..11."""

    name: str
    clubs: int
    min_players: int


@dataclass(frozen=True)
class SeasonInfo:
    """What `/season show` shows."""

    name: str
    status: str
    divisions: tuple[DivisionSize, ...]
    first_round: dt.date | None
    round_days: int
    matches: int
    finished: int
    champion: str | None


def season_embed(info: SeasonInfo) -> discord.Embed:
    """`/season show`: status, calendar, divisions with their clubs, progress."""
    name, status, divisions = info.name, info.status, info.divisions
    first_round, round_days = info.first_round, info.round_days
    matches, finished, champion = info.matches, info.finished, info.champion
    embed = discord.Embed(title=cut(user_text(name), limits.EMBED_TITLE), colour=COLOUR)
    embed.add_field(name="Status", value=status)
    embed.add_field(
        name="Calendar",
        value=f"from {first_round.isoformat() if first_round else '—'}, every {round_days} days",
    )
    embed.add_field(name="Matches", value=f"{finished}/{matches} played")
    for division, clubs, minimum in divisions[:20]:
        embed.add_field(
            name=cut(user_text(division), limits.EMBED_TITLE),
            value=f"{clubs} clubs · at least {minimum} players",
        )
    if champion:
        embed.add_field(name="Champion (CL-16)", value=f"🏆 {user_text(champion)}", inline=False)
    return embed


def calendar_embeds(season: str, matches: Sequence[MatchLine]) -> list[discord.Embed]:
    """`/season calendar`: the next matches with their start and deadline countdowns."""
    lines = [
        f"R{m.round} · {user_text(m.home)} – {user_text(m.away)} · {when(m.start)} · deadline "
        f"{timestamp(m.deadline, 'R')}"
        for m in matches
    ]
    return paged(f"{season}: next rounds", lines, "No matches to come.")


def standings_embeds(season: str, views: Sequence[DivisionView]) -> list[discord.Embed]:
    """`/standings format:embed`: every division's ≤ 30-character table, paginated."""
    pages = standings_pages(views) or ["No divisions."]
    title = f"{user_text(season)} standings"
    return [
        discord.Embed(title=cut(title, limits.EMBED_TITLE), description=p, colour=COLOUR)
        for p in pages
    ]
