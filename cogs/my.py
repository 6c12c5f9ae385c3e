"""`/my`: what awaits the caller, privately, with the buttons to act.

`/my matches` lists the open matches of the clubs the caller administers, `/my games` their open
tour games and `/my votes` the motions awaiting their vote. Anyone may ask: each shows only what
is the caller's own.
"""

from __future__ import annotations

import discord

from bot.app.arbiter import ArbiterBot
from bot.app.interaction import Interaction
from bot.app.permissions import guild_store
from bot.app.ui.my_buttons import games_view, matches_view, votes_view
from bot.league.matches.mine import my_matches
from bot.league.motions.reads import awaiting_vote
from bot.rendering.league.mine import SHOWN, my_matches_embed, my_votes_embed
from bot.rendering.tour.mine import SHOWN as GAMES_SHOWN
from bot.rendering.tour.mine import my_games_embed
from bot.tour.games.mine import GameAwaits, my_games
from cogs._common import ArbiterCog, guild_group


async def _reply(
    interaction: Interaction, embed: discord.Embed, view: discord.ui.View | None
) -> None:
    """The caller's private view, with its buttons if it has any."""
    if view is None:
        await interaction.response.send_message(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class My(ArbiterCog):
    """What awaits the caller."""

    group = guild_group("my", "What awaits you: your clubs' matches, your games, your votes.")

    @group.command(
        name="matches", description="Your clubs' open matches, deadlines, and what each awaits."
    )
    async def matches(self, interaction: Interaction) -> None:
        """CL-15: a button records or accepts a challenge where the caller's club must act."""
        found = await my_matches(guild_store(interaction), interaction.user.id)
        embed = my_matches_embed([(m.line, m.club, m.opponent, m.awaits.value) for m in found])
        actions = [(m.line.id, a) for m in found[:SHOWN] if (a := m.awaits.action) is not None]
        await _reply(interaction, embed, matches_view(actions))

    @group.command(name="games", description="Your open tour games and what each awaits.")
    async def games(self, interaction: Interaction) -> None:
        """Confirm and Dispute buttons where a report awaits the caller's answer."""
        found = await my_games(guild_store(interaction), interaction.user.id)
        embed = my_games_embed(
            [(g.event, g.name, g.opponent, g.awaits.value, g.when) for g in found]
        )
        reports = [
            (number, g.game_id)
            for number, g in enumerate(found[:GAMES_SHOWN], start=1)
            if g.awaits is GameAwaits.MY_ANSWER and g.game_id is not None
        ]
        await _reply(interaction, embed, games_view(reports))

    @group.command(name="votes", description="The open motions awaiting your vote.")
    async def votes(self, interaction: Interaction) -> None:
        """CL-23: Yes and No buttons for each motion, as on its message."""
        found = await awaiting_vote(guild_store(interaction), interaction.user.id)
        embed = my_votes_embed(found)
        await _reply(interaction, embed, votes_view([m.id for m in found[:SHOWN]]))


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(My(bot))
