"""The Confirm and Dispute buttons under a player's game report, as persistent
`discord.ui.DynamicItem`s.

They are registered at start-up, so they keep working after a restart. The game id is in the custom
id, `tourgame:<id>:confirm|dispute`, and the report is in the database. Only the reported game's
opponent may click, or either player when the bot reported a game it found on a site. The life cycle
refuses anyone else. A click settles or disputes the report, and the message then says so, without
buttons.

    view = report_view(game.id)
    await interaction.response.send_message(text, view=view)
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.app.command_input import actor_of
from bot.app.permissions import guild_store
from bot.app.tree import answer_error
from bot.app.ui.persistent import FromCustomId, answer_button
from bot.rendering.common import limits
from bot.rendering.common.text import cut
from bot.rendering.tour.automation import GAME_PATTERN, game_custom_id
from bot.tour.games.service import answer_report
from bot.tour.replies import reported


class GameAnswerButton(
    FromCustomId, discord.ui.DynamicItem[discord.ui.Button[Any]], template=GAME_PATTERN
):
    """A report's Confirm or Dispute button: the opponent's answer."""

    def __init__(self, game_id: int, confirm: bool) -> None:
        custom_id = game_custom_id(game_id, confirm)
        super().__init__(answer_button(confirm, ("Confirm", "Dispute"), custom_id))
        self.game_id = game_id
        self.confirm = confirm

    @classmethod
    def of_match(cls, match: re.Match[str]) -> GameAnswerButton:
        """The button whose custom id gave `match`."""
        return cls(int(match["game"]), match["action"] == "confirm")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Settles or disputes the report, and the message then shows it.

        A refusal goes to the clicker alone and changes nothing.
        """
        try:
            store = guild_store(interaction)
            actor = await actor_of(store, interaction)
            changed = await answer_report(store, actor, self.game_id, self.confirm)
        except Exception as error:  # discord.py only logs a persistent button's failure
            await answer_error(interaction, error)  # the tree's one handler: one private line
            return
        line = cut(reported(changed), limits.MESSAGE_CONTENT)
        await interaction.response.edit_message(content=line, view=None)


def report_view(game_id: int) -> discord.ui.View:
    """The Confirm / Dispute buttons for a player's report of `game_id`."""
    view = discord.ui.View(timeout=None)
    view.add_item(GameAnswerButton(game_id, True))
    view.add_item(GameAnswerButton(game_id, False))
    return view


TOUR_DYNAMIC_ITEMS = (GameAnswerButton,)
"""Registered by the bot at start-up with the motions' buttons."""
