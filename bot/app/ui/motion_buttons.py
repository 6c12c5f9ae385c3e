"""Persistent buttons of CL-23 motions, as `discord.ui.DynamicItem`s registered at start-up.

They are registered with `bot.add_dynamic_items`, so they keep working after a restart. The state is
in the custom id, which holds the motion or season id, and in the database, never in memory.

- `MotionVoteButton`: the Yes and No buttons on a motion message, `motion:<id>:yes|no`.
- `DivisionMakeupButton`: opens the division make-up motion of a season,
  `makeup:<season id>`. `/season promotion` attaches it to its reply:

      view = discord.ui.View(timeout=None)
      view.add_item(DivisionMakeupButton(season.id))
      await interaction.response.send_message(embed=..., view=view)
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.app.command_input import actor_of
from bot.app.interaction import Interaction
from bot.app.permissions import guild_store
from bot.app.tree import answer_error
from bot.app.ui.members import director_ids
from bot.app.ui.persistent import FromCustomId, answer_button
from bot.kernel.actor import Role
from bot.league.motions.lifecycle import MotionRequest, VoteCast, cast_vote, open_motion
from bot.rendering.common import limits
from bot.rendering.common.text import cut
from bot.rendering.league.motions import (
    MAKEUP_PATTERN,
    STATUS_LABEL,
    VOTE_PATTERN,
    makeup_custom_id,
    vote_custom_id,
)
from core.votes import MotionKind


async def _answer(interaction: Interaction, work: Callable[[], Awaitable[str]]) -> None:
    """Runs a click's work and answers the clicker alone.

    The answer is the result, or through the tree's one error handler the refusal or an error id. A
    UserError changes nothing. discord.py only logs what a persistent button's callback raises, so
    it is delegated here.
    """
    try:
        text = await work()
    except Exception as error:
        await answer_error(interaction, error)
        return
    await interaction.response.send_message(cut(text, limits.MESSAGE_CONTENT), ephemeral=True)


class MotionVoteButton(
    FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=VOTE_PATTERN
):
    """A motion's Yes or No button: an elector's vote, the same as `/vote cast`."""

    def __init__(self, motion_id: int, yes: bool, *, disabled: bool = False) -> None:
        custom_id = vote_custom_id(motion_id, yes)
        super().__init__(answer_button(yes, ("Yes", "No"), custom_id, disabled=disabled))
        self.motion_id = motion_id
        self.yes = yes

    @classmethod
    def of_match(cls, match: re.Match[str]) -> MotionVoteButton:
        """The button whose custom id gave `match`."""
        return cls(int(match["motion"]), match["choice"] == "yes")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Records the clicker's vote and answers them alone. Only an elector may vote, while the
        motion is open.
        """

        async def vote() -> str:
            return await vote_text(interaction, self.motion_id, self.yes)

        await _answer(interaction, vote)


async def vote_text(interaction: Interaction, motion_id: int, yes: bool) -> str:
    """Casts the interaction user's vote and returns the sentence that answers them."""
    cast = await cast_vote(guild_store(interaction), interaction.user.id, motion_id, yes)
    return vote_reply(cast, motion_id, yes)


def vote_reply(cast: VoteCast, motion_id: int, yes: bool) -> str:
    """The sentence that answers a voter, from what their vote did."""
    choice = "yes" if yes else "no"
    if not cast.changed:
        return f"You already voted {choice} on motion {motion_id}; nothing changed."
    if cast.closed:
        label = STATUS_LABEL[cast.motion.status]
        return f"Your vote on motion {motion_id}: {choice}. The motion is closed: {label}."
    return f"Your vote on motion {motion_id}: {choice}. You may change it until it closes."


class DivisionMakeupButton(
    FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=MAKEUP_PATTERN
):
    """CL-8: `/season promotion`'s button. A director's click opens the division make-up motion of
    the season.

    Next season is named after it, so 2017 gives 2018.
    """

    def __init__(self, season_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Open the division make-up motion",
                style=discord.ButtonStyle.primary,
                custom_id=makeup_custom_id(season_id),
            )
        )
        self.season_id = season_id

    @classmethod
    def of_match(cls, match: re.Match[str]) -> DivisionMakeupButton:
        """The button whose custom id gave `match`."""
        return cls(int(match["season"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Opens the motion and answers the clicker alone. Only a director may open it."""

        async def open_() -> str:
            actor = await actor_of(guild_store(interaction), interaction)
            actor.require(Role.DIRECTOR)
            request = MotionRequest(
                MotionKind.DIVISION_MAKEUP,
                "CL-8: adopt next season's divisions as proposed from the standings.",
                season=self.season_id,
            )
            motion = await open_motion(
                guild_store(interaction),
                actor,
                request,
                await director_ids(interaction),
            )
            return f"Motion {motion.id} is open: {motion.subject.get('title')}."

        await _answer(interaction, open_)


DYNAMIC_ITEMS = (MotionVoteButton, DivisionMakeupButton)
"""Registered by the bot at start-up with `bot.add_dynamic_items(*DYNAMIC_ITEMS)`."""
