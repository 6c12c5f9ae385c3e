"""Arbiter's one error handler, for every app command and every button or modal.

It is the command tree's `on_error`, and `answer_error` for components. Their views' `on_error` and
the callbacks of persistent buttons, which discord.py only logs, delegate to it.

Users get one short ephemeral line. Anything unexpected also gets an error id, and the log gets the
traceback under that id, so a report can be matched to its cause.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.app.interaction import Interaction
from bot.app.permissions import permission_name
from bot.kernel.errors import RoleRequired, UserError
from bot.rendering.common import limits
from bot.rendering.common.text import cut
from bot.rendering.common.user_text import inline_code, user_text

log = logging.getLogger(__name__)


def new_error_id() -> str:
    """A short random id users can quote and operators can grep the log for."""
    return secrets.token_hex(4)


PUBLIC_FAILURE = "This command could not be completed."
"""What a public "thinking…" message becomes when its command fails. The details go privately."""

VALUE_SHOWN = 100
"""Characters of a refused option value that a transformer's refusal repeats."""


def _role(role: str | int) -> str:
    """A role named by discord.py's role checks: a mention for an id, else its name."""
    return f"<@&{role}>" if isinstance(role, int) else f"**{user_text(role)}**"


def describe_error(error: BaseException) -> tuple[str, bool]:
    """The message for the user, and whether the error was unexpected and so needs an id."""
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
        value = cut(str(cause.value), VALUE_SHOWN)
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
"""Refusals no one can overcome in a direct message. A cooldown, say, is not one."""


def _where(interaction: Interaction) -> str:
    """What the user was doing, for the log: `/match report`, `button motion:3:yes`."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id", "?")
    kind = "modal" if interaction.type is discord.InteractionType.modal_submit else "button"
    return f"{kind} {custom_id}"


UNKNOWN_INTERACTION = 10062
"""Discord's error code for an interaction it no longer knows, one not answered within 3 s."""


def _expired(error: BaseException) -> bool:
    """Whether `error` is Discord refusing a late answer with 404 Unknown interaction."""
    cause = getattr(error, "original", error)
    return isinstance(cause, discord.NotFound) and cause.code == UNKNOWN_INTERACTION


async def answer_error(interaction: Interaction, error: BaseException) -> None:
    """Answers a failed command, button or modal with one ephemeral line, and never raises.

    Anything unexpected gets an error id and a logged traceback.
    """
    if interaction.guild_id is None and isinstance(error, _NEEDS_A_SERVER):
        # No role or server permission can be held in a direct message: say what helps.
        error = app_commands.NoPrivateMessage()
    where = _where(interaction)
    if _expired(error):
        # Answered after Discord's 3 s: the token is gone, a follow-up would be refused too
        # (and logged again, one more load on a bot already behind). Say so once, quietly.
        log.warning(
            "too late to answer %s (guild %s): Discord forgot it", where, interaction.guild_id
        )
        return
    message, unexpected = describe_error(error)
    if unexpected:
        error_id = new_error_id()
        cause = getattr(error, "original", error)
        log.error(
            "error %s in %s (guild %s, user %s)",
            error_id,
            where,
            interaction.guild_id,
            interaction.user.id if interaction.user else None,
            exc_info=(type(cause), cause, cause.__traceback__),
        )
        message = (
            f"Something went wrong on my side (error id `{error_id}`). "
            "Please tell the league HQ this id."
        )
    else:
        log.debug("refused %s for user %s: %s", where, interaction.user.id, message)
    message = cut(message, limits.MESSAGE_CONTENT)  # a refusal may quote user input
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
        log.exception("could not deliver the error message for %s", where)


class ArbiterTree(app_commands.CommandTree):
    """The command tree with Arbiter's error handler."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Replies with a short ephemeral message, and logs unexpected errors with an id."""
        await answer_error(interaction, error)


class ArbiterView(discord.ui.View):
    """A view whose buttons' failures go through the one error handler, `answer_error`."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: Exception, item: discord.ui.Item[Any], /
    ) -> None:
        """A button's callback or this view's check raised, so it answers as a command would."""
        await answer_error(interaction, error)
