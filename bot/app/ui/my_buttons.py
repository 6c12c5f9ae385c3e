"""The buttons of `/my …` views and of direct messages, as persistent `discord.ui.DynamicItem`s.

They are registered at start-up, so they keep working after a restart. Each runs the same use case
as its command, with the clicker as the actor:

- `MatchButton`, `clmatch:<match>:challenge|accept`, under `/my matches`.
- `DmMatchButton`, `dmmatch:<guild>:<match>:challenge|accept`, in a CL-15 direct message.
- `DmVoteButton`, `dmvote:<guild>:<motion>:yes|no`, in a motion's direct message.
- `DmGameButton`, `dmgame:<guild>:<game>:confirm|dispute`, in a report's direct message.

"challenge" opens `ChallengeModal`, which asks for the chess.com match as `/match challenge` does.
A direct message carries no guild, so its custom id names one. The clicker must be a member of it,
and their roles there are the ones that count.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.app.command_input import store_and_actor
from bot.app.interaction import Interaction
from bot.app.tree import answer_error
from bot.app.ui.game_buttons import GameAnswerButton
from bot.app.ui.motion_buttons import MotionVoteButton, vote_reply
from bot.app.ui.persistent import FromCustomId, answer_button
from bot.kernel.actor import Actor
from bot.kernel.errors import UserError
from bot.league.matches.lines import match_line
from bot.league.matches.service import record_challenge_accepted, record_challenge_issued
from bot.league.motions.lifecycle import cast_vote
from bot.rendering.common import limits
from bot.rendering.common.text import cut
from bot.rendering.league.match_buttons import DM_MATCH_PATTERN, LABELS, MATCH_PATTERN
from bot.rendering.league.mine import challenge_reply
from bot.rendering.league.motions import DM_VOTE_PATTERN
from bot.rendering.tour.automation import DM_GAME_PATTERN
from bot.tour.games.service import answer_report
from bot.tour.replies import reported
from storage.guild import GuildStore

NOT_A_MEMBER = "You are not a member of that server."
"""The one line a click from a direct message gets when its clicker is not in the named guild."""

FORM_TIMEOUT = 600.0
"""Seconds a challenge's form waits to be sent back. A later answer is ignored."""

Door = Callable[[Interaction], Awaitable[tuple[GuildStore, Actor]]]
"""How a click finds its guild's store and the clicker as an actor of that guild."""


async def member_of(interaction: Interaction, guild_id: int) -> tuple[GuildStore, Actor]:
    """The store of guild `guild_id` and the clicker as its member, with the roles they hold there.

    A clicker who is not a member of it, or a guild the bot is not in, is refused with one line.
    """
    guild = interaction.client.get_guild(guild_id)
    member = None if guild is None else guild.get_member(interaction.user.id)
    if guild is not None and member is None and not guild.chunked:
        try:
            member = await guild.fetch_member(interaction.user.id)
        except discord.NotFound:
            member = None
    if member is None:
        raise UserError(NOT_A_MEMBER)
    store = interaction.client.guild_store(guild_id)
    async with store.read() as view:
        settings = await view.settings.get()
    return store, Actor.member(member.id, settings, [role.id for role in member.roles])


def _of_guild(guild_id: int) -> Door:
    async def door(interaction: Interaction) -> tuple[GuildStore, Actor]:
        return await member_of(interaction, guild_id)

    return door


async def _answer(interaction: Interaction, work: Callable[[], Awaitable[str]]) -> None:
    """Runs a click's work and answers the clicker alone, with the result or the refusal.

    discord.py only logs what a persistent button's callback raises, so the tree's one error
    handler answers instead. A refusal changes nothing.
    """
    try:
        text = await work()
    except Exception as error:
        await answer_error(interaction, error)
        return
    await interaction.response.send_message(cut(text, limits.MESSAGE_CONTENT), ephemeral=True)


class ChallengeModal(discord.ui.Modal, title="Record our challenge"):
    """CL-15: asks for the chess.com match of a challenge the clicker's club issued, then records
    it as `/match challenge` does."""

    chesscom_match: discord.ui.TextInput[ChallengeModal] = discord.ui.TextInput(
        label="The chess.com match id or URL", max_length=200
    )

    def __init__(self, door: Door, match_id: int) -> None:
        super().__init__(timeout=None)
        self.door = door
        self.match_id = match_id
        # A timer, not a task: a form never sent back is forgotten after FORM_TIMEOUT.
        asyncio.get_running_loop().call_later(FORM_TIMEOUT, self.stop)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Records the challenge and answers the clicker alone."""

        async def issue() -> str:
            store, actor = await self.door(interaction)
            chesscom = self.chesscom_match.value
            event = await record_challenge_issued(store, actor, self.match_id, chesscom)
            line = await match_line(store, event.match)
            return challenge_reply(line, False, event.late, event.notes)

        await _answer(interaction, issue)


async def _act_on_match(interaction: Interaction, door: Door, match_id: int, action: str) -> None:
    """Opens the challenge's form, or records the acceptance, for the clicker's club."""
    if action == "challenge":
        try:
            await door(interaction)  # a stranger to the guild gets no form
        except Exception as error:
            await answer_error(interaction, error)
            return
        await interaction.response.send_modal(ChallengeModal(door, match_id))
        return

    async def accept() -> str:
        store, actor = await door(interaction)
        event = await record_challenge_accepted(store, actor, match_id)
        line = await match_line(store, event.match)
        return challenge_reply(line, True, event.late, event.notes)

    await _answer(interaction, accept)


class MatchButton(
    FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=MATCH_PATTERN
):
    """A match's button under `/my matches`: record the club's challenge, or accept the other's."""

    def __init__(self, match_id: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=cut(f"#{match_id} {LABELS[action]}", limits.BUTTON_LABEL),
                style=discord.ButtonStyle.success,
                custom_id=f"clmatch:{match_id}:{action}",
            )
        )
        self.match_id = match_id
        self.action = action

    @classmethod
    def of_match(cls, match: re.Match[str]) -> MatchButton:
        """The button whose custom id gave `match`."""
        return cls(int(match["match"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """CL-15: the same step as `/match challenge` or `/match accept`, by a club's admin."""
        await _act_on_match(interaction, store_and_actor, self.match_id, self.action)


class DmMatchButton(
    FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=DM_MATCH_PATTERN
):
    """A match's button in a direct message, naming its guild."""

    def __init__(self, guild_id: int, match_id: int, action: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=LABELS[action],
                style=discord.ButtonStyle.success,
                custom_id=f"dmmatch:{guild_id}:{match_id}:{action}",
            )
        )
        self.guild_id = guild_id
        self.match_id = match_id
        self.action = action

    @classmethod
    def of_match(cls, match: re.Match[str]) -> DmMatchButton:
        """The button whose custom id gave `match`."""
        return cls(int(match["guild"]), int(match["match"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """CL-15: as `MatchButton`, for a member of the named guild."""
        await _act_on_match(interaction, _of_guild(self.guild_id), self.match_id, self.action)


class DmVoteButton(
    FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=DM_VOTE_PATTERN
):
    """A motion's Yes or No in a direct message: an elector's vote, the same as `/vote cast`."""

    def __init__(self, guild_id: int, motion_id: int, yes: bool) -> None:
        custom_id = f"dmvote:{guild_id}:{motion_id}:{'yes' if yes else 'no'}"
        super().__init__(answer_button(yes, ("Yes", "No"), custom_id))
        self.guild_id = guild_id
        self.motion_id = motion_id
        self.yes = yes

    @classmethod
    def of_match(cls, match: re.Match[str]) -> DmVoteButton:
        """The button whose custom id gave `match`."""
        return cls(int(match["guild"]), int(match["motion"]), match["choice"] == "yes")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """CL-23: records the vote of a member of the named guild, who must be an elector."""

        async def vote() -> str:
            store, actor = await member_of(interaction, self.guild_id)
            cast = await cast_vote(store, actor.require_user(), self.motion_id, self.yes)
            return vote_reply(cast, self.motion_id, self.yes)

        await _answer(interaction, vote)


class DmGameButton(
    FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=DM_GAME_PATTERN
):
    """A report's Confirm or Dispute in a direct message: the answer of a player of the game."""

    def __init__(self, guild_id: int, game_id: int, confirm: bool) -> None:
        custom_id = f"dmgame:{guild_id}:{game_id}:{'confirm' if confirm else 'dispute'}"
        super().__init__(answer_button(confirm, ("Confirm", "Dispute"), custom_id))
        self.guild_id = guild_id
        self.game_id = game_id
        self.confirm = confirm

    @classmethod
    def of_match(cls, match: re.Match[str]) -> DmGameButton:
        """The button whose custom id gave `match`."""
        return cls(int(match["guild"]), int(match["game"]), match["action"] == "confirm")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Settles or disputes the report as the channel's buttons do, and the message then says
        so, without buttons. A refusal goes to the clicker alone and changes nothing."""
        try:
            store, actor = await member_of(interaction, self.guild_id)
            changed = await answer_report(store, actor, self.game_id, self.confirm)
        except Exception as error:
            await answer_error(interaction, error)
            return
        line = cut(reported(changed), limits.MESSAGE_CONTENT)
        await interaction.response.edit_message(content=line, view=None)


def _persistent(view: discord.ui.View) -> discord.ui.View:
    """`view` stopped before it is sent, so nothing holds it in memory or times it out.

    Its buttons are registered dynamic items, which answer by their custom ids. discord.py would
    otherwise keep an ephemeral reply's view for 15 minutes.
    """
    view.stop()
    return view


def matches_view(actions: Sequence[tuple[int, str]]) -> discord.ui.View | None:
    """The buttons of `/my matches`, one per (match id, action), or None without any."""
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for index, (match_id, action) in enumerate(actions):
        button = MatchButton(match_id, action)
        button.item.row = index // 5
        view.add_item(button)
    return _persistent(view)


def votes_view(motion_ids: Sequence[int]) -> discord.ui.View | None:
    """The Yes and No buttons of `/my votes`, two motions a row, or None without any."""
    if not motion_ids:
        return None
    view = discord.ui.View(timeout=None)
    for index, motion_id in enumerate(motion_ids):
        for yes in (True, False):
            button = MotionVoteButton(motion_id, yes)
            button.item.label = f"{'Yes' if yes else 'No'} #{motion_id}"
            button.item.row = index // 2
            view.add_item(button)
    return _persistent(view)


def games_view(reports: Sequence[tuple[int, int]]) -> discord.ui.View | None:
    """The Confirm and Dispute buttons of `/my games`, one pair per (number, game id), two
    reports a row, or None without any."""
    if not reports:
        return None
    view = discord.ui.View(timeout=None)
    for index, (number, game_id) in enumerate(reports):
        for confirm in (True, False):
            button = GameAnswerButton(game_id, confirm)
            button.item.label = f"{'Confirm' if confirm else 'Dispute'} {number}"
            button.item.row = index // 2
            view.add_item(button)
    return _persistent(view)


MY_DYNAMIC_ITEMS = (MatchButton, DmMatchButton, DmVoteButton, DmGameButton)
"""Registered by the bot at start-up with the motions' and games' buttons."""
