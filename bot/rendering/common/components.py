"""Message components as Discord's JSON, for posts the bot sends without discord.py's views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

GREEN, RED = 3, 4
"""Discord's button styles for success and danger."""


def yes_no_row(
    yes: str, no: str, custom_id: Callable[[bool], str], **fields: Any
) -> list[dict[str, Any]]:
    """An action row of two buttons: `yes` in green, then `no` in red.

    `custom_id` names each button by its answer, and `fields` are added to both buttons.
    """
    return [
        {
            "type": 1,
            "components": [
                {
                    "type": 2,
                    "style": style,
                    "label": label,
                    "custom_id": custom_id(answer),
                    **fields,
                }
                for label, style, answer in ((yes, GREEN, True), (no, RED, False))
            ],
        }
    ]
