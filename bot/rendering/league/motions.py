"""Motion messages by CL-23.

They are the embed with the electorate, the tally and the deadline, its Yes and No buttons, enabled
while open, the closing announcement and a standings change. Reasons, subjects, outcomes and names
are shown as typed through `escape.user_text`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import discord

from bot.rendering.common import limits
from bot.rendering.common.components import yes_no_row
from bot.rendering.common.text import countdown, cut, points, timestamp
from bot.rendering.common.user_text import plain, user_text
from core.league import LeagueReport
from storage.league.motions import Motion

VOTE_ID = "motion:{motion}:{choice}"
"""The custom id of a motion's Yes or No button, which the persistent DynamicItem parses."""
VOTE_PATTERN = r"motion:(?P<motion>[0-9]{1,16}):(?P<choice>yes|no)"
DM_VOTE_PATTERN = r"dmvote:(?P<guild>[0-9]{1,20}):(?P<motion>[0-9]{1,16}):(?P<choice>yes|no)"
"""The custom id of a motion's Yes or No button in a direct message, which names its guild."""
MAKEUP_ID = "makeup:{season}"
"""The custom id of `/season promotion`'s button that opens the division make-up motion."""
MAKEUP_PATTERN = r"makeup:(?P<season>[0-9]{1,16})"

STATUS_LABEL = {
    "open": "open",
    "passed": "passed",
    "rejected": "rejected",
    "no-decision": "no decision",
}
_COLOUR = {
    "open": discord.Colour.blurple(),
    "passed": discord.Colour.green(),
    "rejected": discord.Colour.red(),
    "no-decision": discord.Colour.light_grey(),
}


def vote_custom_id(motion_id: int, yes: bool) -> str:
    """The custom id of the Yes or No button of motion `motion_id`."""
    return VOTE_ID.format(motion=motion_id, choice="yes" if yes else "no")


def dm_vote_buttons(guild_id: int, motion_id: int) -> list[dict[str, Any]]:
    """A motion's Yes and No buttons for a direct message, where no guild is known otherwise."""

    def custom_id(yes: bool) -> str:
        return f"dmvote:{guild_id}:{motion_id}:{'yes' if yes else 'no'}"

    return yes_no_row("Yes", "No", custom_id)


def makeup_custom_id(season_id: int) -> str:
    """The custom id of the button that opens season `season_id`'s division make-up motion."""
    return MAKEUP_ID.format(season=season_id)


def vote_buttons(motion_id: int, *, disabled: bool = False) -> list[dict[str, Any]]:
    """The motion's action row as Discord component JSON: Yes in green and No in red."""
    return yes_no_row("Yes", "No", lambda yes: vote_custom_id(motion_id, yes), disabled=disabled)


def _voters(motion: Motion) -> str:
    lines = []
    for user in motion.electorate:
        vote = motion.votes.get(user)
        mark = "not voted" if vote is None else ("yes" if vote else "no")
        lines.append(f"<@{user}>: {mark}")
    return cut("\n".join(lines), limits.FIELD_VALUE)


def _subject(motion: Motion) -> str:
    return str(motion.subject.get("title") or motion.kind)


def motion_title(motion: Motion) -> str:
    """The motion's title as markdown, such as `Motion 7 · forfeit: match 12 (A – B), club A`.

    The subject is shown as typed.
    """
    return cut(
        f"Motion {motion.id} · {motion.kind}: {user_text(_subject(motion))}", limits.EMBED_TITLE
    )


def motion_label(motion: Motion) -> str:
    """The title where Discord shows no markdown, as in an autocomplete choice: plain, at most
    100 characters.
    """
    return cut(plain(f"Motion {motion.id} · {motion.kind}: {_subject(motion)}"), limits.CHOICE_NAME)


def motion_embed(motion: Motion) -> dict[str, Any]:
    """The motion message's embed: the subject, reason, electorate with each vote, and the tally.

    It ends with the deadline as a Discord timestamp with a countdown, or with the outcome.
    """
    yes = sum(1 for v in motion.votes.values() if v)
    no = len(motion.votes) - yes
    embed = discord.Embed(
        title=motion_title(motion),
        description=cut(user_text(motion.reason), limits.EMBED_DESCRIPTION),
        colour=_COLOUR[motion.status],
    )
    details = motion.subject.get("details")
    if details:
        action = cut(user_text(str(details)), limits.FIELD_VALUE)
        embed.add_field(name="Action if passed", value=action, inline=False)
    embed.add_field(
        name=f"Electorate ({len(motion.electorate)} directors, frozen at opening)",
        value=_voters(motion) or "nobody",
        inline=False,
    )
    embed.add_field(
        name="Tally",
        value=f"{yes} yes · {no} no · {len(motion.electorate) - len(motion.votes)} not voted",
        inline=True,
    )
    if motion.status == "open":
        embed.add_field(name="Closes", value=countdown(motion.deadline), inline=True)
        embed.set_footer(
            text=f"CL-23: passes with at least {motion.quorum} votes, all yes. "
            "Directors may change their vote until it closes."
        )
    else:
        assert motion.closed_at is not None
        closed = timestamp(motion.closed_at, "f")
        embed.add_field(
            name="Outcome", value=f"**{STATUS_LABEL[motion.status]}** {closed}", inline=True
        )
        if motion.outcome:
            applied = cut(user_text(motion.outcome), limits.FIELD_VALUE)
            embed.add_field(name="Applied", value=applied, inline=False)
    return dict(embed.to_dict())


def motion_line(motion: Motion) -> str:
    """One line of `/vote list`."""
    yes = sum(1 for v in motion.votes.values() if v)
    no = len(motion.votes) - yes
    when = (
        f"closes {timestamp(motion.deadline, 'R')}"
        if motion.status == "open"
        else STATUS_LABEL[motion.status]
    )
    return f"**{motion_title(motion)}** — {yes} yes, {no} no — {when}"


def motions_embed(motions: Sequence[Motion], status: str | None) -> dict[str, Any]:
    """`/vote list`: the motions, newest first, one line each."""
    title = "Motions" if status is None else f"Motions ({STATUS_LABEL.get(status, status)})"
    lines = [motion_line(m) for m in motions[: limits.FIELDS_PER_EMBED]]
    text = cut("\n".join(lines) if lines else "No motions.", limits.EMBED_DESCRIPTION)
    embed = discord.Embed(title=title, description=text, colour=discord.Colour.blurple())
    return dict(embed.to_dict())


def closing_announcement(motion: Motion) -> str:
    """The announcement of a closed motion: its outcome and, when passed, what was applied."""
    label = STATUS_LABEL[motion.status]
    text = f"{motion_title(motion)} — **{label}**."
    if motion.status == "passed" and motion.outcome:
        text += f"\n{user_text(motion.outcome)}"
    elif motion.status != "passed":
        text += " Nothing is changed."
    return cut(text, limits.MESSAGE_CONTENT)


def _place(rank: int | None, match_points: Fraction, disqualified: bool) -> str:
    if disqualified:
        return "disqualified"
    return f"{'–' if rank is None else rank}. with {points(match_points)} MP"


def standings_change(before: LeagueReport, after: LeagueReport) -> str:
    """The clubs whose place, match points or disqualification changed, per division, as
    plain text: a motion's outcome is stored as typed and neutralised when it is shown."""
    lines = []
    old = {(division, s.club): s for division, table in before.divisions for s in table}
    for division, table in after.divisions:
        for s in table:
            was = old.get((division, s.club))
            if was is None:
                continue
            now_text = _place(s.rank, s.match_points, s.disqualified)
            was_text = _place(was.rank, was.match_points, was.disqualified)
            if now_text != was_text:
                lines.append(f"{division}: {s.club} {was_text} → {now_text}")
    if not lines:
        return "The standings do not change."
    return "Standings: " + "; ".join(lines)
