"""The `/notify` replies: a member's settings of every kind of direct message, grouped by whom
each kind is for, and the line that answers a change."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

TITLE = "Your direct messages from Arbiter on this server"
HOW = (
    "Change one with `/notify kind: on:`, or every kind with `kind: all`. "
    "The channel post stays the public record: a direct message is sent as well, never instead."
)
REOPENED = (
    "Discord refused my last direct message to you. Open your DMs from this server's members: "
    "I try direct messages again from now on."
)
"""Said once the member's closed mark is cleared, which running `/notify` does."""


@dataclass(frozen=True)
class KindSetting:
    """One kind of direct message as a member has it: on or off, and whether they chose it."""

    audience: str
    key: str
    line: str
    on: bool
    chosen: bool


def _state(setting: KindSetting) -> str:
    state = "**on**" if setting.on else "off"
    return state if setting.chosen else f"{state} (default)"


def settings_embed(settings: Sequence[KindSetting], *, reopened: bool) -> discord.Embed:
    """An embed with one field per audience and one line per kind: its key, on or off with
    "(default)" where the member chose nothing, and what it is."""
    description = f"{REOPENED}\n\n{HOW}" if reopened else HOW
    embed = discord.Embed(title=TITLE, description=description, colour=discord.Colour.blurple())
    audiences = list(dict.fromkeys(setting.audience for setting in settings))
    for audience in audiences:
        lines = [
            f"`{setting.key}` {_state(setting)} — {setting.line}"
            for setting in settings
            if setting.audience == audience
        ]
        embed.add_field(name=f"For {audience}", value="\n".join(lines), inline=False)
    return embed


def change_text(settings: Sequence[KindSetting], *, on: bool, changed: bool, reopened: bool) -> str:
    """One line saying what a change set, or that it was set so already, and the reopening."""
    if len(settings) == 1:
        [setting] = settings
        what = f"Direct messages for `{setting.key}` ({setting.line})"
    else:
        what = f"Direct messages for all {len(settings)} kinds"
    state = "on" if on else "off"
    text = f"{what}: **{state}**." if changed else f"{what} were **{state}** already."
    return f"{text} {REOPENED}" if reopened else text
