"""Long content split into pages that fit Discord's embed limits, for Previous and Next buttons.

Lines go into descriptions of at most 4,096 characters, and fields into embeds of at most 25 fields
and 6,000 characters in all.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from bot.rendering.common import limits

DESCRIPTION_LIMIT = limits.EMBED_DESCRIPTION

T = TypeVar("T")


def pack(
    items: Sequence[T], size: Callable[[T], int], budget: int, count: int | None, gap: int = 0
) -> list[list[T]]:
    """Items in order into as few consecutive pages as greedy filling gives.

    Each page's sizes, plus `gap` between neighbours, stay within `budget`, with at most `count`
    items a page. An item larger than `budget` alone raises ValueError, so split it first.
    """
    pages: list[list[T]] = []
    used = 0
    for item in items:
        need = size(item)
        if need > budget:
            raise ValueError(f"an item of {need} characters cannot fit a page of {budget}")
        page = pages[-1] if pages else None
        if (
            page is not None
            and used + gap + need <= budget
            and (count is None or len(page) < count)
        ):
            page.append(item)
            used += gap + need
        else:
            pages.append([item])
            used = need
    return pages


def split_line(line: str, limit: int) -> list[str]:
    """A line cut into pieces of at most `limit` characters, whose concatenation is the line."""
    if limit < 1:
        raise ValueError("a page must hold at least one character")
    return [line[i : i + limit] for i in range(0, len(line), limit)] or [""]


def line_pages(
    lines: Sequence[str], limit: int = DESCRIPTION_LIMIT, max_lines: int | None = None
) -> list[str]:
    """Lines joined by newlines into pages of at most `limit` characters and `max_lines` lines.

    The order is kept and no line is lost. A text holding newlines counts as its lines, and a line
    longer than a page is cut over several. No lines give no pages.
    """
    pieces = [
        piece for text in lines for line in text.split("\n") for piece in split_line(line, limit)
    ]
    return ["\n".join(page) for page in pack(pieces, len, limit, max_lines, gap=1)]


Field = tuple[str, str]
"""An embed field, as a (name, value) pair."""


def field_pages(fields: Sequence[Field], reserved: int = 0) -> list[list[Field]]:
    """Fields into embeds of at most 25 fields within 6,000 characters.

    The names and values count, with `reserved` characters of title, description and footer. A field
    over Discord's own limits, a name of 256, a value of 1,024 or an empty one, raises ValueError.
    """
    for name, value in fields:
        if not name or not value:
            raise ValueError("an embed field needs a name and a value")
        if len(name) > limits.FIELD_NAME or len(value) > limits.FIELD_VALUE:
            raise ValueError(f"field {name[:40]!r} is over Discord's limits (256 / 1,024)")
    budget = limits.EMBED_TOTAL - reserved
    return pack(fields, lambda f: len(f[0]) + len(f[1]), budget, limits.FIELDS_PER_EMBED)
