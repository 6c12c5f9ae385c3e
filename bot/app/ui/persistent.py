"""What the persistent buttons share: each is rebuilt from the match of its custom id, and an
answer is a green button for yes beside a red one for no."""

from __future__ import annotations

import re
from typing import Any, Self

import discord


class FromCustomId:
    """A persistent button that `of_match` rebuilds from its custom id after a restart."""

    @classmethod
    def of_match(cls, match: re.Match[str]) -> Self:
        """The button whose custom id gave `match`."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> Self:
        """The button of a click, from its custom id."""
        return cls.of_match(match)


def answer_button(
    yes: bool, labels: tuple[str, str], custom_id: str, *, disabled: bool = False
) -> discord.ui.Button[Any]:
    """The green button of a yes, labelled `labels[0]`, or the red one of a no."""
    return discord.ui.Button(
        label=labels[0] if yes else labels[1],
        style=discord.ButtonStyle.success if yes else discord.ButtonStyle.danger,
        custom_id=custom_id,
        disabled=disabled,
    )
