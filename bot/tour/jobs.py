"""Plug the tour's jobs into the bot's job registry (called in `setup_hook`, before the
scheduler runs what fell due while the bot was down): one handler per family or kind of
bot/tour/planning/kinds.py."""

from __future__ import annotations

from bot.runtime.scheduler import JobRegistry
from bot.tour.automation.appeals import appeals_close_handler
from bot.tour.automation.confirm import confirm_handler
from bot.tour.automation.context import TourAutomation
from bot.tour.automation.polling import poll_fetcher, poll_handler
from bot.tour.automation.reminders import round_reminder_handler
from bot.tour.automation.wrapup import wrapup_handler
from bot.tour.planning.kinds import (
    APPEALS_FAMILY,
    CONFIRM,
    POLL,
    ROUND_FAMILY,
    WRAPUP,
    kinds,
)


def register_tour_jobs(registry: JobRegistry, context: TourAutomation) -> list[str]:
    """Registers the tour's job kinds and returns them, with families as `<prefix>*`.

    The kinds are the round reminders and appeal closes, which are families whatever rounds and days
    an event has, the auto-confirmation, the wrap-up and the sites' polling with its fetch step.
    """
    registry.register_family(ROUND_FAMILY, round_reminder_handler())
    registry.register_family(APPEALS_FAMILY, appeals_close_handler())
    registry.register(CONFIRM, confirm_handler())
    registry.register(WRAPUP, wrapup_handler())
    registry.register_fetching(POLL, poll_fetcher(context), poll_handler(context))
    return kinds()
