"""`/my matches` and `/my votes` as embeds: what awaits a member, one line per item.

Each line has its deadline as a Discord timestamp with its countdown, which every reader sees in
their own zone. Names from users are shown through `user_text`.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.rendering.common import limits
from bot.rendering.common.embeds import COLOUR
from bot.rendering.common.text import countdown, cut
from bot.rendering.common.user_text import user_text
from bot.rendering.league.embeds import MatchLine
from storage.league.motions import Motion

SHOWN = 10
"""Items a view lists, each with its buttons: Discord takes 25 buttons on a message."""


def _awaits(awaits: str, opponent: str, line: MatchLine) -> str:
    """What a match awaits, by the key of `bot.league.matches.mine.Awaits`."""
    deadline = countdown(line.deadline)
    if awaits == "challenge":
        return f"awaits the challenge, which either club issues before {deadline}"
    if awaits == "accept":
        return f"awaits your club's acceptance of {opponent}'s challenge before {deadline}"
    if awaits == "their acceptance":
        return f"awaits {opponent}'s acceptance of your club's challenge before {deadline}"
    if awaits == "start":
        return "the challenge is complete: it awaits its start"
    return "started: it awaits its result"


def my_matches_embed(matches: Sequence[tuple[MatchLine, str, str, str]]) -> discord.Embed:
    """`/my matches`: each open match of the member's clubs, as (line, club, opponent, awaits).

    A match awaiting the member's club shows a button of its own number.
    """
    embed = discord.Embed(title="Your clubs' open matches", colour=COLOUR)
    if not matches:
        embed.description = "No open match of a club you administer on this server."
        return embed
    lines = []
    for line, club, opponent, awaits in matches[:SHOWN]:
        theirs = user_text(opponent)
        lines.append(
            f"`#{line.id}` {user_text(line.season)} · {user_text(line.division)} · R{line.round}"
            f" · **{user_text(club)}** v {theirs} · starts {countdown(line.start)}:"
            f" {_awaits(awaits, theirs, line)}."
        )
    lines += _more(len(matches), "/my matches")
    embed.description = cut("\n".join(lines), limits.EMBED_DESCRIPTION)
    return embed


def my_votes_embed(motions: Sequence[Motion]) -> discord.Embed:
    """`/my votes`: each open motion awaiting the member's vote, with its deadline."""
    embed = discord.Embed(title="Motions awaiting your vote", colour=COLOUR)
    if not motions:
        embed.description = "No open motion awaits your vote on this server."
        return embed
    lines = []
    for motion in motions[:SHOWN]:
        title = user_text(str(motion.subject.get("title") or motion.kind))
        lines.append(
            f"`#{motion.id}` {title} · closes {countdown(motion.deadline)}:"
            f" {len(motion.votes)} of {len(motion.electorate)} voted."
        )
    lines += _more(len(motions), "/my votes")
    embed.description = cut("\n".join(lines), limits.EMBED_DESCRIPTION)
    return embed


def _more(count: int, command: str) -> list[str]:
    """The line saying how many more items there are, or nothing."""
    if count <= SHOWN:
        return []
    return [f"…and {count - SHOWN} more: act on these, then run `{command}` again."]


def challenge_reply(line: MatchLine, accepted: bool, late: bool, notes: Sequence[str]) -> str:
    """The private answer to a challenge recorded or accepted from a button, as `/match
    challenge` and `/match accept` say it.

    The life cycle's notes follow, such as a step after the deadline or a void match.
    """
    match = f"Challenge of match #{line.id} ({user_text(line.home)} – {user_text(line.away)})"
    said = "".join(f" Note: {user_text(note[0].upper() + note[1:])}." for note in notes)
    if accepted:
        return f"{match} accepted.{said}"
    due = "" if late else f"; it must be accepted before {countdown(line.deadline)}"
    return f"{match} recorded{due}.{said}"
