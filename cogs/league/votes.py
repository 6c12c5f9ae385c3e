"""`/vote`: open, list, show and cast director motions by CL-23.

The motion message with its persistent Yes and No buttons goes to the directors' channel. The
buttons do what `/vote cast` does, through bot/app/ui/motion_buttons.py.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import league as autocomplete
from bot.app.command_input import MOTION, read_boards, store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import DIRECTOR, guild_store, requires
from bot.app.ui.members import director_ids
from bot.app.ui.motion_buttons import vote_text
from bot.league.motions.actions import ACTIONS, DISQUALIFY_RULES
from bot.league.motions.lifecycle import open_motion, vote_rules
from bot.league.motions.reads import motion_card, motion_choices, motion_list
from bot.league.motions.subjects import MotionRequest
from bot.rendering.league.motions import motion_embed, motion_label, motion_title, motions_embed
from cogs._common import ArbiterCog, guild_group

Status = Literal["open", "passed", "rejected", "no-decision"]


class Votes(ArbiterCog):
    """Director motions."""

    group = guild_group("vote", "Director motions (CL-23): open, list, show, cast.")

    @requires(DIRECTOR)
    @group.command(name="open", description="Put a discretionary decision to the directors.")
    @app_commands.describe(
        kind="What the motion decides.",
        reason="Why (shown on the motion).",
        season="The season (disqualify, division-makeup).",
        match="The match (forfeit, correct-result, reschedule).",
        club="The club (forfeit, disqualify, exclude-club).",
        rule="The rule broken (disqualify).",
        boards="The corrected boards as CSV (correct-result).",
        next_season="Name of next season (division-makeup; default: this one's plus one).",
        start="New start (reschedule): YYYY-MM-DD HH:MM in the league's zone, or add a zone.",
        tie_order="Tied clubs across a line, best first, comma-separated (division-makeup).",
    )
    @app_commands.choices(
        kind=[app_commands.Choice(name=k.value, value=k.value) for k in ACTIONS],
        rule=[app_commands.Choice(name=r, value=r) for r in DISQUALIFY_RULES],
    )
    @app_commands.autocomplete(season=autocomplete.seasons, club=autocomplete.clubs)
    @app_commands.autocomplete(match=autocomplete.matches)
    async def open_(
        self,
        interaction: Interaction,
        kind: str,
        reason: app_commands.Range[str, 1, 500],
        season: str | None = None,
        match: str | None = None,
        club: str | None = None,
        rule: str | None = None,
        boards: discord.Attachment | None = None,
        next_season: app_commands.Range[str, 1, 100] | None = None,
        start: app_commands.Range[str, 1, 60] | None = None,
        tie_order: app_commands.Range[str, 1, 1000] | None = None,
    ) -> None:
        """Opens the motion and replies with it. The message itself goes to the directors."""
        store, actor = await store_and_actor(interaction)
        rows = [] if boards is None else await read_boards(boards)
        request = MotionRequest(
            kind,
            reason,
            season=season,
            match_id=match,
            club=club,
            rule=rule,
            boards=rows,
            next_season=next_season,
            start=start,
            tie_order=[c.strip() for c in (tie_order or "").split(",") if c.strip()],
        )
        motion = await open_motion(
            store,
            actor,
            request,
            await director_ids(interaction),
            vote_rules(self.bot.config),
        )
        channel = f"<#{motion.channel_id}>" if motion.channel_id else "the directors' channel"
        await interaction.response.send_message(
            f"{motion_title(motion)} is open; the motion is in {channel}.", ephemeral=True
        )

    @group.command(name="list", description="List the motions of this server.")
    @app_commands.describe(status="Only motions with this status.")
    async def list_(self, interaction: Interaction, status: Status | None = None) -> None:
        """Reply with the motions, newest first."""
        found = await motion_list(guild_store(interaction), status)
        embed = discord.Embed.from_dict(motions_embed(found, status))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="show", description="Show a motion: electorate, votes, deadline.")
    @app_commands.describe(motion="The motion.")
    async def show(
        self, interaction: Interaction, motion: app_commands.Transform[int, MOTION]
    ) -> None:
        """Reply with the motion's embed."""
        found = await motion_card(guild_store(interaction), motion)
        embed = discord.Embed.from_dict(motion_embed(found))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @group.command(name="cast", description="Vote on a motion (the same as its buttons).")
    @app_commands.describe(motion="The motion.", choice="Your vote.")
    async def cast(
        self,
        interaction: Interaction,
        motion: app_commands.Transform[int, MOTION],
        choice: Literal["yes", "no"],
    ) -> None:
        """Records the caller's vote. Only an elector of the motion may vote."""
        text = await vote_text(interaction, motion, choice == "yes")
        await interaction.response.send_message(text, ephemeral=True)

    @show.autocomplete("motion")
    @cast.autocomplete("motion")
    async def motion_choices(
        self, interaction: Interaction, current: str | int
    ) -> list[app_commands.Choice[int]]:
        """The guild's motions matching what is typed, open ones first for /vote cast."""
        casting = interaction.command is not None and interaction.command.name == "cast"
        # an integer option may arrive as a number
        found = await motion_choices(guild_store(interaction), str(current), open_only=casting)
        return [app_commands.Choice(name=motion_label(m), value=m.id) for m in found]


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Votes(bot))
