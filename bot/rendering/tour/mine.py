"""`/my games` as an embed: a member's open tour games, one line each with what it awaits.

Each instant is a Discord timestamp with its countdown. Names are shown through `user_text`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import discord

from bot.rendering.common import limits
from bot.rendering.common.embeds import COLOUR
from bot.rendering.common.text import countdown, cut
from bot.rendering.common.user_text import user_text

SHOWN = 10
"""Games the view lists, each with its buttons: Discord takes 25 buttons on a message."""


def _awaits(awaits: str, opponent: str, when: dt.datetime | None) -> str:
    """What a game awaits, by the key of `bot.tour.games.mine.GameAwaits`."""
    if awaits == "my answer":
        due = "" if when is None else f", or the bot confirms it {countdown(when)}"
        return f"a report awaits your confirmation: confirm or dispute it{due}"
    if awaits == "their answer":
        due = "" if when is None else f", or the bot confirms it {countdown(when)}"
        return f"your report awaits {opponent}'s confirmation{due}"
    if awaits == "arbiter":
        return "its report is disputed: it awaits an arbiter's decision"
    start = "" if when is None else f"session from {countdown(when)}: "
    return f"{start}it awaits its result, reported with `/game report`"


def my_games_embed(
    games: Sequence[tuple[str, str, str, str, dt.datetime | None]],
) -> discord.Embed:
    """`/my games`: each open game as (event, game, opponent, awaits, when), numbered.

    A report awaiting the member has Confirm and Dispute buttons of its number.
    """
    embed = discord.Embed(title="Your open games", colour=COLOUR)
    if not games:
        embed.description = "You have no open tour game on this server."
        return embed
    lines = []
    for number, (event, game, opponent, awaits, when) in enumerate(games[:SHOWN], start=1):
        theirs = user_text(opponent)
        lines.append(
            f"**{number}.** {user_text(event)} · {user_text(game)}:"
            f" {_awaits(awaits, theirs, when)}."
        )
    if len(games) > SHOWN:
        lines.append(f"…and {len(games) - SHOWN} more: act on these, then run `/my games` again.")
    embed.description = cut("\n".join(lines), limits.EMBED_DESCRIPTION)
    return embed
