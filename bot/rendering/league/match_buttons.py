"""The buttons that record a CL-15 challenge from `/my matches` or from a direct message.

"Record our challenge" opens a form asking for the chess.com match, as `/match challenge` does.
"Accept the challenge" records the acceptance, as `/match accept` does. In a direct message no
guild is known otherwise, so its custom id names the guild.
"""

from __future__ import annotations

from typing import Any

from bot.rendering.common.components import GREEN

MATCH_PATTERN = r"clmatch:(?P<match>[0-9]{1,16}):(?P<action>challenge|accept)"
"""The custom id of a match's button in a guild, such as `/my matches`."""
DM_MATCH_PATTERN = (
    r"dmmatch:(?P<guild>[0-9]{1,20}):(?P<match>[0-9]{1,16}):(?P<action>challenge|accept)"
)
"""The custom id of a match's button in a direct message, which names its guild."""

LABELS = {"challenge": "Record our challenge", "accept": "Accept the challenge"}
"""Each action's button label."""


def _row(custom_id: str, action: str) -> list[dict[str, Any]]:
    button = {"type": 2, "style": GREEN, "label": LABELS[action], "custom_id": custom_id}
    return [{"type": 1, "components": [button]}]


def match_buttons(match_id: int, action: str) -> list[dict[str, Any]]:
    """The button of match `match_id` for `action`, "challenge" or "accept", in a guild."""
    return _row(f"clmatch:{match_id}:{action}", action)


def dm_match_buttons(guild_id: int, match_id: int, action: str) -> list[dict[str, Any]]:
    """The button of match `match_id` for `action` in a direct message."""
    return _row(f"dmmatch:{guild_id}:{match_id}:{action}", action)
