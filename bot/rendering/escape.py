"""Text a user typed (club names, reasons, notes), made safe to show in a Discord message:
shown as typed, never as markdown, a masked link, a heading or a mention.

Two layers, on purpose: `allowed_mentions` (bot.app.mentions) is what stops a ping — Discord
enforces it, so a spot this module misses still pings nobody; escaping is what makes the text
*look* as typed (no bold, no masked link, no user chip or highlighted @everyone). Our own
markdown around the text (`**{name}**`) is added after escaping and stays markdown.
"""

from __future__ import annotations

import re

import discord

_MENTION = re.compile(r"@(everyone|here|[!&]?[0-9]+)")
"""`@everyone`, `@here` and the `@id` / `@!id` / `@&id` inside `<…>` user and role mentions."""
_ZERO_WIDTH = "\u200b"
BACKTICK_STANDIN = "\u02cb"
"""MODIFIER LETTER GRAVE ACCENT (ˋ): a backtick inside code, where no escape exists — a
backslash would show as typed and a backtick would close the code."""


def user_text(text: str) -> str:
    """`text` for ordinary message markdown (content, embed descriptions and fields): markdown
    characters, masked links and line-start headings / quotes / lists escaped with a
    backslash, and mentions broken by a zero-width space after `@` (so they show, and never
    render as a chip or ping)."""
    escaped = discord.utils.escape_markdown(text)
    return _MENTION.sub(lambda m: f"@{_ZERO_WIDTH}{m.group(1)}", escaped)


def code_text(text: str) -> str:
    """`text` for inside a code block or inline code: everything there shows as typed except
    the backtick, which would close the code, so it is shown as ˋ (one character for one,
    keeping monospace columns aligned)."""
    return text.replace("`", BACKTICK_STANDIN)


def inline_code(text: str) -> str:
    """`text` as inline code (`` `text` ``), safe whatever it holds."""
    return f"`{code_text(text)}`"


TITLE_LIMIT = 256
"""Discord's limit on an embed title and a field name (a longer one is refused: HTTP 400)."""
FIELD_LIMIT = 1024
"""Discord's limit on an embed field's value."""


def cut(markdown: str, limit: int) -> str:
    """`markdown` (escaped text, with our markdown around it) within `limit` characters: cut
    with "…", never leaving half an escape — a lone trailing backslash would escape the "…"
    or our own markdown after it (`**{title}**`)."""
    if len(markdown) <= limit:
        return markdown
    kept = markdown[: limit - 1]
    if (len(kept) - len(kept.rstrip("\\"))) % 2:
        kept = kept[:-1]
    return kept + "…"
