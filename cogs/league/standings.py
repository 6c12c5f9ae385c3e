"""`/standings`, `/crosstable` and `/standings-pin`.

`/standings` shows an embed, an image or CSV, and `/crosstable` a PNG. `/standings-pin` is for
HQ: a standings message the bot edits after every change, kept up to date by
`bot/league/standings/pin.py`. Reports come from the bot's standings cache, so an unchanged
season costs a version lookup.
"""

from __future__ import annotations

import functools

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import league as autocomplete
from bot.app.command_input import parse_day
from bot.app.interaction import Interaction
from bot.app.permissions import HQ, guild_store, requires
from bot.app.ui.pages import send_pages
from bot.league.standings.pin import pin_standings
from bot.league.standings.views import standings_views
from bot.rendering.common import limits
from bot.rendering.common.files import drawn, file_name
from bot.rendering.common.user_text import user_text
from bot.rendering.league.crosstable_image import crosstable_png
from bot.rendering.league.standings_csv import standings_csv
from bot.rendering.league.standings_embeds import standings_embeds
from bot.rendering.league.standings_image import standings_png
from cogs._common import ArbiterCog, TableFormat, as_file, channel_or_here, thinking


class Standings(ArbiterCog):
    """The league's tables."""

    @app_commands.command(name="standings", description="A season's tables (embed, image, CSV).")
    @app_commands.describe(
        season="The season.",
        division="Only this division.",
        as_of="The standings as at the end of this day, YYYY-MM-DD.",
        format="embed (default), image (PNG) or csv.",
    )
    @app_commands.autocomplete(season=autocomplete.seasons, division=autocomplete.divisions)
    @app_commands.guild_only()
    async def standings(
        self,
        interaction: Interaction,
        season: str,
        division: str | None = None,
        as_of: str | None = None,
        format: TableFormat = "embed",
    ) -> None:
        """CL-17: P W D L, MP, GP, SB and DE, with shared ranks `=` and disqualified clubs
        marked."""
        today = guild_store(interaction).database.clock().date()
        day = None if as_of is None else parse_day(as_of, "as_of date", today, past=True)
        ready = None if format == "embed" else thinking(interaction)
        found = await standings_views(
            guild_store(interaction), self.bot.standings, season, division, day, ready
        )
        views = found.divisions
        if found.as_of is not None:
            title = f"{found.season}: standings as of {found.as_of.isoformat()}"
        elif day is not None:  # CL-1: a day not over is not judged ahead of time
            title = f"{found.season}: standings as at now ({day.isoformat()} is not over yet)"
        else:
            title = f"{found.season}: standings"
        if format == "embed":
            await send_pages(interaction, standings_embeds(title, views))
            return
        if format == "image":
            files = [
                (
                    file_name("standings", v.season, v.division, suffix=".png"),
                    await drawn(functools.partial(standings_png, v)),
                )
                for v in views
            ]
        else:
            files = [
                (
                    file_name("standings", v.season, v.division, suffix=".csv"),
                    standings_csv(v).encode(),
                )
                for v in views
            ]
        await _send_files(interaction, title, files)

    @app_commands.command(name="crosstable", description="A division's crosstable as a PNG.")
    @app_commands.describe(season="The season.", division="The division.")
    @app_commands.autocomplete(season=autocomplete.seasons, division=autocomplete.divisions)
    @app_commands.guild_only()
    async def crosstable(self, interaction: Interaction, season: str, division: str) -> None:
        """Every pairing's result, with forfeits and a disqualified club's void matches marked."""
        found = await standings_views(
            guild_store(interaction),
            self.bot.standings,
            season,
            division,
            ready=thinking(interaction),
        )
        [view] = found.divisions
        png = file_name("crosstable", view.season, view.division, suffix=".png")
        image = await drawn(functools.partial(crosstable_png, view))
        await _send_files(interaction, f"{found.season}: crosstable", [(png, image)])

    @requires(HQ)
    @app_commands.command(
        name="standings-pin", description="Post a division's standings that the bot keeps updated."
    )
    @app_commands.describe(
        season="The season.",
        division="The division.",
        channel="Where to post it (default: here).",
    )
    @app_commands.autocomplete(season=autocomplete.seasons, division=autocomplete.divisions)
    @app_commands.guild_only()
    async def standings_pin(
        self,
        interaction: Interaction,
        season: str,
        division: str,
        channel: discord.TextChannel | None = None,
    ) -> None:
        """League HQ: the message is posted through the outbox and edited after every change.

        Pinning a division again replaces its pin.
        """
        store = guild_store(interaction)
        channel_id = channel_or_here(interaction, channel)
        view = await pin_standings(
            store, self.bot.standings, interaction.user.id, season, division, channel_id
        )
        await interaction.response.send_message(
            f"The standings of **{user_text(view.title)}** are posted in <#{channel_id}> and"
            " updated after every change.",
            ephemeral=True,
        )


async def _send_files(interaction: Interaction, title: str, files: list[tuple[str, bytes]]) -> None:
    """The files as follow-ups of a deferred reply, at most ten a message."""
    for start in range(0, len(files), limits.FILES_PER_MESSAGE):
        chunk = files[start : start + limits.FILES_PER_MESSAGE]
        await interaction.followup.send(
            content=f"**{user_text(title)}**" if start == 0 else discord.utils.MISSING,
            files=[as_file(data, name) for name, data in chunk],
        )


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Standings(bot))
