"""A record a user names by its id or its name, found in the guild's data or refused.

Both competitions' use cases look up clubs, seasons and tours this way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.kernel.errors import UserError
from bot.kernel.inputs import NAME_LIMIT, clean_text, shown

Found = TypeVar("Found")


async def find_by_id_or_name(
    reference: str | int,
    what: str,
    by_id: Callable[[int], Awaitable[Found | None]],
    by_name: Callable[[str], Awaitable[Found | None]],
) -> Found:
    """The `what` a user named by id or by name, or a refusal saying there is none on this server.

    A name passes the input gate first.
    """
    if isinstance(reference, int):
        found = await by_id(reference)
    else:
        found = await by_name(clean_text(reference, what, NAME_LIMIT))
    if found is None:
        raise UserError(f"No {what} {shown(str(reference))} on this server.")
    return found
