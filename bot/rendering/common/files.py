"""What the commands and the web site share when they hand out a file: its name and its drawing."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable


def file_name(*parts: str, suffix: str) -> str:
    """`standings-spring-2026-premier.png`: the parts as lower-case ASCII words with dashes.

    No user text reaches a file name but these letters, digits and dashes.
    """
    words = [re.sub(r"[^a-z0-9]+", "-", part.casefold()).strip("-") for part in parts]
    return "-".join(w for w in words if w) + suffix


async def drawn(draw: Callable[[], bytes]) -> bytes:
    """The image `draw` returns, drawn in a worker thread.

    A PNG takes tens of milliseconds of CPU, and the event loop meanwhile answers other guilds.
    """
    return await asyncio.to_thread(draw)
