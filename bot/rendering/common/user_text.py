r"""The one way Arbiter shows text from a user or from chess.com in a Discord message.

Such text is a club, season or division name, a username, a reason, a note or chess.com's words.
It shows exactly as typed, never as markdown, a link, a mention, a timestamp or a command.

`user_text` neutralises every Discord construct that "Markdown Text 101" and the
message-formatting reference document:

- Markdown characters, `\ * _ ~ | ` [ ] < >`, are escaped with a backslash, which Discord
  hides. Bold, italics, underline, strike-through, spoilers, code and every masked link show as
  typed. Each `[` of each link is escaped, not only the first.
- Everything in angle brackets is escaped at its `<`. That covers user, role and channel
  mentions such as `<@1>`, `<@&1>` and `<#1>`, timestamps such as `<t:0:R>`, slash-command
  mentions such as `</vote open:1>`, custom emoji, guild links and `<url>` links.
- A bare link neither links nor embeds a preview, since the `:` of its `://` is escaped.
- Line-start markup is escaped at the start of the text and after each line break. That is
  headings `#`, subtext `-#`, lists `-`, `+` and `1.`, and block quotes `>`.
- `@everyone` and `@here` get a zero-width space after `@`, so they show and never highlight.
  The `allowed_mentions` of bot.kernel.mentions already stops every ping.

The result is an `Escaped`, so our markdown around it, as in `f"**{user_text(name)}**"`, stays
markdown. `user_text` of an `Escaped` returns it unchanged, so text is neutralised exactly once
however often it is passed on, and no backslash shows. Text the bot stores for later, such as a
motion's outcome, is stored as typed and neutralised when shown.

Where Discord shows no markdown, text is shown with `plain`. That is in embed footers and author
names, autocomplete choices, button labels and images. Inside code it is shown with `code_text`.
"""

from __future__ import annotations

import re

_INLINE = re.compile(r"[\\*_~|`\[\]<>]")
"""Characters that open or close markdown, links or angle-bracket constructs anywhere."""
_LINK = re.compile(r"(?<=[A-Za-z0-9+.-]):(?=//)")
"""The `:` of a bare link's `scheme://`. Discord links `https://…` and `http://…`."""
_LINE_START = re.compile(r"(^|\n)([ \t]*)(#|-|\+|\d+(?=\.))(\.?)")
"""Line-start markup: a heading or subtext `#` / `-#`, a list `-` / `+` / `1.`."""
_EVERYONE = re.compile(r"@(everyone|here)")
ZERO_WIDTH_SPACE = "\u200b"
BACKTICK_STANDIN = "\u02cb"
"""MODIFIER LETTER GRAVE ACCENT ˋ, standing for a backtick inside code, where no escape exists.

A backslash would show as typed and a backtick would close the code.
"""


class Escaped(str):
    """Discord markdown whose user parts are neutralised: what `user_text` returns, or the
    bot's own text marked with `ours`. Given to `user_text` again it is left as it is."""

    __slots__ = ()


def _line_start(found: re.Match[str]) -> str:
    start, indent, mark, dot = found.groups()
    if mark[0].isdigit():  # `1.` is a list only with its dot: escape the dot
        return f"{start}{indent}{mark}\\{dot}" if dot else found.group(0)
    return f"{start}{indent}\\{mark}{dot}"


def user_text(text: str) -> Escaped:
    """`text` as typed, for message content, embed titles, descriptions and fields.

    Every Discord construct in it is neutralised, as the module docstring lists. An `Escaped` is
    returned as is.
    """
    if isinstance(text, Escaped):
        return text
    escaped = _INLINE.sub(lambda found: "\\" + found.group(), text)
    escaped = _LINK.sub(r"\\:", escaped)
    escaped = _LINE_START.sub(_line_start, escaped)
    escaped = _EVERYONE.sub(lambda found: f"@{ZERO_WIDTH_SPACE}{found.group(1)}", escaped)
    return Escaped(escaped)


def ours(markdown: str) -> Escaped:
    """The bot's own markdown, whose user parts went through `user_text`, marked so that passing
    it on never escapes it again.
    """
    return Escaped(markdown)


def plain(text: str) -> str:
    """`text` for where Discord shows no markdown, as typed, with a line break as a space.

    Such places are embed footers and author names, autocomplete choices and button labels.
    """
    return " ".join(text.splitlines()) if "\n" in text or "\r" in text else text


def code_text(text: str) -> str:
    """`text` for inside a code block or inline code.

    Everything there shows as typed except the backtick, which would close the code. It is shown as
    ˋ instead, one character for one, keeping monospace columns aligned.
    """
    return text.replace("`", BACKTICK_STANDIN)


def inline_code(text: str) -> Escaped:
    """`text` as inline code, safe whatever it holds."""
    return Escaped(f"`{code_text(text)}`")
