"""A points table or game scoring typed in Discord, read through `bot.formats.points_text`.

This follows CCT-6 and CCT-8a. A bad one is refused in one line that quotes the part at fault.
"""

from __future__ import annotations

from bot.formats.points_text import PointsTextError, parse_points_table, parse_scoring
from bot.kernel.errors import UserError
from bot.kernel.inputs import shown
from core.results import Scoring
from core.tour.ranking import PointsTable


def _refusal(what: str, error: PointsTextError) -> UserError:
    if error.part is None:
        return UserError(f"{what}: {error.problem}.")
    return UserError(f"{what}: {shown(error.part)} {error.problem}.")


def table_option(
    text: str | None, option: str, *, label: str, players: int, who: str = "the event has"
) -> PointsTable | None:
    """CCT-6: the table an option gives for an event of at most `players`, or None when not given.

    `who` says whose limit it is.
    """
    if text is None:
        return None
    try:
        return parse_points_table(text, label=label, players=players, who=who)
    except PointsTextError as error:
        raise _refusal(f"`{option}`", error) from None


def scoring_option(text: str | None) -> Scoring | None:
    """CCT-8a: the game scoring an option gives, or None when not given."""
    if text is None:
        return None
    try:
        return parse_scoring(text)
    except PointsTextError as error:
        raise _refusal("`scoring`", error) from None
