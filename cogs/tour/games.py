"""`/game`: report, read, correct, award and show a game.

A player's report waits for the opponent's persistent Confirm and Dispute buttons. An arbiter's
entry is final. A result can be read from a PGN or a chess.com or lichess.org link, with a CCT-7
flag for the arbiters. An arbiter corrects a result by CCT-9. A game not played is awarded as a
forfeit win by CCT-9, after a preview and Confirm.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.app.arbiter import ArbiterBot
from bot.app.autocomplete import tour as choose
from bot.app.command_input import read_attachment, store_and_actor
from bot.app.interaction import Interaction
from bot.app.permissions import ARBITER, guild_store, requires
from bot.app.ui.game_buttons import report_view
from bot.app.ui.pages import send_pages
from bot.kernel.errors import UserError
from bot.kernel.mentions import pinging
from bot.rendering.common import limits
from bot.rendering.common.text import cut
from bot.rendering.tour.cards import as_embeds
from bot.tour import replies as tour_replies
from bot.tour.games import links, reads
from bot.tour.games import service as games
from cogs._common import ArbiterCog, guild_group
from cogs.tour._awards import Note, Reason, run_award
from core.results import Result

ResultText = Literal["1-0", "½-½", "0-1", "+/-", "-/+", "-/-"]
RESULTS: dict[str, Result] = {
    "1-0": Result.WHITE_WIN,
    "½-½": Result.DRAW,
    "0-1": Result.BLACK_WIN,
    "+/-": Result.WHITE_FORFEIT_WIN,
    "-/+": Result.BLACK_FORFEIT_WIN,
    "-/-": Result.DOUBLE_FORFEIT,
}
Ground = Literal[
    "left-camera-view",
    "unconfirmed-departure",
    "deliberate-disconnection",
    "disconnection",
    "no-backup-connection",
    "other",
]


class Games(ArbiterCog):
    """The tour's games."""

    group = guild_group("game", "Tour games: report, correct, show.")

    @group.command(name="report", description="Report a game's result (a player, or an arbiter).")
    @app_commands.describe(
        event="The event.",
        game="The game (your open games first).",
        result="1-0, ½-½ or 0-1 (forfeits: arbiters).",
        pgn="The game's PGN: the result is read from it.",
        link="A chess.com or lichess.org game link: the result is read from it.",
    )
    @app_commands.autocomplete(event=choose.events, game=choose.games)
    async def report(
        self,
        interaction: Interaction,
        event: str,
        game: str,
        result: ResultText | None = None,
        pgn: discord.Attachment | None = None,
        link: str | None = None,
    ) -> None:
        """A player's report waits for the opponent. An arbiter's is final by CCT-9."""
        store, actor = await store_and_actor(interaction)
        if pgn is not None and link is not None:
            raise UserError("Give a PGN or a link, not both.")
        text = None
        reference = None
        if pgn is not None:
            data = await read_attachment(pgn, "PGN", ".pgn")
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise UserError("The PGN is not UTF-8 text.") from None
        elif link is not None:
            if await reads.counted_already(store, link):
                raise UserError("That game counted already: the same game cannot count twice.")
            usernames = await reads.site_usernames(store, event, game)
            fetched = await links.fetch_game(
                self.bot.chesscom, self.bot.lichess, link, usernames, store.database.clock()
            )
            text, reference = fetched.pgn, fetched.url
        changed = await games.report_game(
            store,
            actor,
            event,
            game,
            None if result is None else RESULTS[result],
            pgn=text,
            source_ref=reference,
            channel_id=interaction.channel_id or 0,
        )
        line = tour_replies.reported(changed)
        if changed.party.is_player:
            ask = (
                f" <@{changed.ask_user}>: confirm or dispute."
                if changed.ask_user
                else (" The opponent (not linked to a member) confirms through an arbiter.")
            )
            await interaction.response.send_message(
                cut(line + ask, limits.MESSAGE_CONTENT),
                view=report_view(changed.game.id),
                allowed_mentions=pinging([changed.ask_user] if changed.ask_user else []),
            )
            return
        await interaction.response.send_message(cut(line, limits.MESSAGE_CONTENT))

    @requires(ARBITER)
    @group.command(name="correct", description="Set a game's result with a reason (arbiter).")
    @app_commands.describe(
        event="The event.",
        game="The game.",
        result="The result.",
        reason="Why (shown and audited, CCT-9).",
        ground="The ground (default other).",
    )
    @app_commands.autocomplete(event=choose.events, game=choose.games)
    async def correct(
        self,
        interaction: Interaction,
        event: str,
        game: str,
        result: ResultText,
        reason: app_commands.Range[str, 1, 500],
        ground: Ground = "other",
    ) -> None:
        """CCT-9: an arbiter's decision, audited as an override."""
        store, actor = await store_and_actor(interaction)
        changed = await games.correct_game(
            store, actor, event, game, RESULTS[result], reason, ground
        )
        line = f"{tour_replies.reported(changed)} (CCT-9, audited)"
        await interaction.response.send_message(cut(line, limits.MESSAGE_CONTENT))

    @requires(ARBITER)
    @group.command(name="award", description="Award a game not played, a forfeit (arbiter).")
    @app_commands.describe(
        event="The event.",
        game="The game.",
        winner="The player who is awarded the game.",
        reason="Why: withdrawal, no-show, illness or other (CCT-9).",
        note="A short note (needed for other; shown and audited).",
    )
    @app_commands.autocomplete(event=choose.events, game=choose.games)
    async def award(
        self,
        interaction: Interaction,
        event: str,
        game: str,
        winner: str,
        reason: Reason,
        note: Note | None = None,
    ) -> None:
        """CCT-9 with CORE-2: a forfeit win, +/-, never an invented 1-0."""
        await run_award(self, interaction, games.award_tour_game, event, game, winner, reason, note)

    @group.command(name="show", description="A game: players, result, how it stands.")
    @app_commands.describe(event="The event.", game="The game.")
    @app_commands.autocomplete(event=choose.events, game=choose.games)
    async def show(self, interaction: Interaction, event: str, game: str) -> None:
        """Anyone may read a game."""
        card = await reads.game_card(guild_store(interaction), event, game)
        await send_pages(interaction, as_embeds(tour_replies.game_card(card)))


async def setup(bot: ArbiterBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Games(bot))
