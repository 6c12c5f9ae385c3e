"""Arbiter's command tree: one error handler for every app command.

Users get a short ephemeral message; anything unexpected also gets an error id, and the log
gets the traceback under that id, so a report can be matched to its cause.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from bot.app.errors import RoleRequired, UserError
from bot.app.permissions import permission_name
from bot.rendering.escape import cut, inline_code, user_text

log = logging.getLogger(__name__)


def new_error_id() -> str:
    """A short random id users can quote and operators can grep the log for."""
    return secrets.token_hex(4)


PUBLIC_FAILURE = "This command could not be completed."
"""What a public "thinking…" message becomes when its command fails (details go privately)."""

MAX_CONTENT = 2000
"""Discord's limit on a message's text; a longer reply is refused and the user sees nothing."""


def _shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _role(role: str | int) -> str:
    """A role named by discord.py's role checks: a mention for an id, else its name."""
    return f"<@&{role}>" if isinstance(role, int) else f"**{user_text(role)}**"


def describe_error(error: app_commands.AppCommandError) -> tuple[str, bool]:
    """The message for the user and whether the error was unexpected (needs an id)."""
    cause: BaseException = error
    if isinstance(error, app_commands.CommandInvokeError):
        cause = error.original
    if isinstance(cause, UserError):
        return cause.markdown, False  # the values it quotes escaped, its own markdown kept
    if isinstance(cause, RoleRequired):
        return cause.message, False
    if isinstance(cause, app_commands.MissingPermissions):
        needed = ", ".join(permission_name(p) for p in cause.missing_permissions)
        return f"You need the **{needed}** permission to use this command.", False
    if isinstance(cause, app_commands.BotMissingPermissions):
        needed = ", ".join(permission_name(p) for p in cause.missing_permissions)
        return f"I need the **{needed}** permission here to do that.", False
    if isinstance(cause, app_commands.MissingRole):
        return f"This command needs the {_role(cause.missing_role)} role.", False
    if isinstance(cause, app_commands.MissingAnyRole):
        roles = ", ".join(_role(role) for role in cause.missing_roles)
        return f"This command needs one of these roles: {roles}.", False
    if isinstance(cause, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return (
            "This command has changed since Discord last heard of it: the bot's operator "
            "needs to run `arbiter sync`.",
            False,
        )
    if isinstance(cause, app_commands.NoPrivateMessage):
        return "This command only works in a server.", False
    if isinstance(cause, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {cause.retry_after:.0f} s.", False
    if isinstance(cause, app_commands.TransformerError):
        value = _shorten(str(cause.value), 100)
        return f"{inline_code(value)} is not a valid {cause.type.name.replace('_', ' ')}.", False
    if isinstance(cause, app_commands.CheckFailure):
        return "You are not allowed to use this command here.", False
    return "", True


_NEEDS_A_SERVER = (
    app_commands.MissingPermissions,
    app_commands.MissingRole,
    app_commands.MissingAnyRole,
    RoleRequired,
)
"""Refusals no one can overcome in a direct message (a cooldown, say, is not one)."""


class ArbiterTree(app_commands.CommandTree):
    """The command tree with Arbiter's error handler."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Reply with a short ephemeral message; log unexpected errors with an id."""
        if interaction.guild_id is None and isinstance(error, _NEEDS_A_SERVER):
            # No role or server permission can be held in a direct message: say what helps.
            error = app_commands.NoPrivateMessage()
        message, unexpected = describe_error(error)
        command = interaction.command.qualified_name if interaction.command else "?"
        if unexpected:
            error_id = new_error_id()
            cause = getattr(error, "original", error)
            log.error(
                "error %s in /%s (guild %s, user %s)",
                error_id,
                command,
                interaction.guild_id,
                interaction.user.id if interaction.user else None,
                exc_info=(type(cause), cause, cause.__traceback__),
            )
            message = (
                f"Something went wrong on my side (error id `{error_id}`). "
                "Please tell the league HQ this id."
            )
        else:
            log.info("refused /%s for user %s: %s", command, interaction.user.id, message)
        message = cut(message, MAX_CONTENT)  # a user message may quote user input
        if interaction.type is discord.InteractionType.autocomplete:
            if not interaction.response.is_done():
                await interaction.response.autocomplete([])
            return
        try:
            if not interaction.response.is_done():
                await interaction.response.send_message(message, ephemeral=True)
                return
            deferred = discord.InteractionResponseType.deferred_channel_message
            if interaction.response.type is deferred:
                original = await interaction.original_response()
                if not original.flags.ephemeral:
                    # Discord would put the first follow-up in place of this public
                    # "thinking…" message, public whatever its flags: settle that one in
                    # neutral words, so the follow-up below is private.
                    await interaction.edit_original_response(content=PUBLIC_FAILURE)
            await interaction.followup.send(message, ephemeral=True)
        except discord.HTTPException:
            log.exception("could not deliver the error message for /%s", command)
