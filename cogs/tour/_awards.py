"""The CCT-9 award without play that `/series award`, `/finals award` and `/game award` share.

It holds the award's reasons, its note, and its preview under Confirm and Cancel.

The module's name starts with an underscore, so the bot does not load it as a cog.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal

from discord import app_commands

from bot.app.command_input import store_and_actor
from bot.app.interaction import Interaction
from bot.rendering.tour.cards import as_embeds
from bot.tour import replies as tour_replies
from bot.tour.series.awards import AwardPlan
from cogs._common import ArbiterCog

Reason = Literal["withdrawal", "no-show", "illness", "other"]
"""CCT-9: why a contest or game is awarded without play."""

Note = app_commands.Range[str, 1, 200]
"""A short note on an award, shown and audited."""


async def run_award(
    cog: ArbiterCog,
    interaction: Interaction,
    award: Callable[..., Awaitable[AwardPlan]],
    event: str,
    which: str,
    winner: str,
    reason: Reason,
    note: str | None,
) -> None:
    """CCT-9: replies with the award's preview under Confirm / Cancel. Only the caller may
    click, and Confirm makes the award. `award` is the use case, called with the store, the
    actor and the options that follow it here."""
    store, actor = await store_and_actor(interaction)
    plan = await award(store, actor, event, which, winner, reason, note, confirm=False)

    async def confirm() -> str:
        stored = await award(store, actor, event, which, winner, reason, note, confirm=True)
        return tour_replies.award_stored(stored)

    await cog.preview(interaction, confirm, embeds=as_embeds(tour_replies.award_preview(plan)))
