"""What the tour tells a player by direct message, when they chose it with `/notify`.

A player is told that their game's session is approaching, that a report on their game awaits
their confirmation, how their game's report ended, and that an appeal they lodged was decided.
Names and reasons are shown as typed through `cards.name`, and instants as Discord timestamps.
"""

from __future__ import annotations

import datetime as dt

from bot.rendering.tour.automation import FoundGame, relative
from bot.rendering.tour.cards import clip, name, result_text
from core.results import Result

CONFIRMED = "confirmed"
"""How a report confirmed by the opponent ended."""
AUTO_CONFIRMED = "confirmed automatically, nobody answered in time"
"""How a report nobody answered ended."""
DECIDED = "decided by an arbiter (final, CCT-9)"
"""How a result an arbiter entered ended."""


def session_soon(event: str, title: str, start: dt.datetime, line: str) -> str:
    """A player's game in a round or knock-out day, before its session starts.

    `line` is the game's pairing line as the channel's reminder shows it.
    """
    return clip(f"Your game in **{name(event)}**, {title}, starts {relative(start)}:\n{line}")


def confirm_asked(
    event: str, game: str, result: Result | None, reporter: str, confirm_by: dt.datetime
) -> str:
    """A report by the opponent, waiting for this player's Confirm or Dispute."""
    return clip(
        f"{name(reporter)} reported your game in **{name(event)}**, {name(game)}: "
        f"{result_text(result)}. Confirm or dispute it; it is confirmed automatically "
        f"{relative(confirm_by)} if you do not answer."
    )


def found_asked(found: FoundGame) -> str:
    """A game of this player found on a site and reported by the bot, waiting for their answer."""
    text = (
        f"Found on {found.site}: your game in **{name(found.event)}**, {name(found.game)} — "
        f"{result_text(found.result)} (<{found.url}>). Confirm or dispute it; it is confirmed "
        f"automatically {relative(found.confirm_by)} if nobody answers."
    )
    if found.early_draw:
        text += " CCT-7: drawn before move 40 — flagged to the arbiters."
    return clip(text)


def disputed(by: str) -> str:
    """How a report disputed by a player ended, for now."""
    return f"disputed by {name(by)}, an arbiter decides"


def corrected(ground: str, reason: str) -> str:
    """How a result an arbiter corrected with a ground and a reason ended, by CCT-9."""
    return f"corrected by an arbiter ({ground}; {name(reason)}, CCT-9)"


def awarded(winner: str, reason: str) -> str:
    """How a game an arbiter awarded without play ended, by CCT-9."""
    return f"awarded to {name(winner)} without play, walkover ({name(reason)}, CCT-9)"


def disconnection(player: str) -> str:
    """How a game an arbiter decided on a disconnection ended, by CCT-10."""
    return f"decided by an arbiter on {name(player)}'s disconnection (CCT-10)"


def game_outcome(
    event: str, game: str, white: str, black: str, result: Result | None, how: str
) -> str:
    """A player's game's report confirmed, disputed or settled, and how.

    `how` is one of this module's phrases.
    """
    return clip(
        f"Your game in **{name(event)}**, {name(game)} ({name(white)} – {name(black)}): "
        f"{result_text(result)}, {how}."
    )


def appeal_decided(appeal: int, event: str, game: str, decision: str, reason: str) -> str:
    """CCT-11: an arbiter's decision on the appeal this player lodged."""
    return clip(
        f"Your appeal {appeal} in **{name(event)}** about {name(game)} is {decision}: "
        f"{name(reason)} (CCT-11)."
    )
