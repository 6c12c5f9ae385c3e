"""The one gate for names and texts that people or chess.com give Arbiter.

These are club, season and division names, chess.com usernames, reasons and notes, whichever door
they come in by: a slash command, a season file, a boards CSV, chess.com data or a replay script.

A name is refused when it is longer than its bound or holds a character that shows nothing or
changes how the text around it shows. Those are control characters, Unicode format characters of
category Cf, line and paragraph separators, private-use, surrogate and unassigned code points, and
the other default-ignorable characters. Category Cf holds the direction overrides from U+202E, the
word joiner U+2060, the byte-order mark U+FEFF and the zero-width space. Default-ignorable ones
include variation selectors and Hangul fillers.

Names are compared by `name_key`: the NFKC compatibility form, case-folded, with spaces collapsed,
so `Ｂ`, `b` and `B` are one name.
"""

from __future__ import annotations

import re
import unicodedata

NAME_LIMIT = 100
"""Characters of a club, season or division name."""
NOTE_LIMIT = 500
"""Characters of a reason or a note."""
USERNAME_LIMIT = 50
"""Characters of a chess.com username. Chess.com allows 3–25 and older accounts are longer."""

_USERNAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,49}")
"""A chess.com username: ASCII letters, digits, `_` and `-`.

A Cyrillic `а` or a full-width `ａ` look-alike is thus refused rather than counted as
another player.
"""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_IGNORABLE = (
    (0x034F, 0x034F),  # COMBINING GRAPHEME JOINER
    (0x115F, 0x1160),  # HANGUL CHOSEONG / JUNGSEONG FILLER
    (0x17B4, 0x17B5),  # KHMER VOWEL INHERENT AQ / AA
    (0x180B, 0x180F),  # MONGOLIAN FREE VARIATION SELECTORS
    (0x2800, 0x2800),  # BRAILLE PATTERN BLANK (shows as a space)
    (0x3164, 0x3164),  # HANGUL FILLER
    (0xFE00, 0xFE0F),  # VARIATION SELECTORS
    (0xFFA0, 0xFFA0),  # HALFWIDTH HANGUL FILLER
    (0xE0100, 0xE01EF),  # VARIATION SELECTORS SUPPLEMENT
)
"""Default-ignorable characters outside the refused categories, by Unicode's
Default_Ignorable_Code_Point.

Each draws nothing, so two names differing by one look the same.
"""


def invisible(char: str) -> bool:
    """Whether `char` shows nothing or changes how the text shows. The module docstring lists
    them.
    """
    if unicodedata.category(char) in _REFUSED_CATEGORIES:
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


_EMOJI_JOINERS = frozenset({"\u200d", "\ufe0e", "\ufe0f"})
"""The zero-width joiner and the text and emoji variation selectors.

They are invisible, but part of an emoji sequence such as `❤️` or `👨‍👩‍👧` when they follow a symbol,
as chess.com club names hold.
"""


def _in_emoji(text: str, index: int) -> bool:
    """Whether the joiner or selector at `index` follows a symbol or another selector of a sequence.

    It is allowed there, and dropped when names are compared.
    """
    previous = text[index - 1] if index > 0 else ""
    return bool(previous) and (unicodedata.category(previous) == "So" or previous in _EMOJI_JOINERS)


def _spaces_only_plain(text: str) -> bool:
    """Whether every whitespace character of `text` is a plain space."""
    return all(c == " " or not c.isspace() for c in text)


def text_problem(text: str, limit: int) -> str | None:
    """What is wrong with `text` as a name or note of at most `limit` characters, or None.

    `text` is already trimmed. The words follow "The <what> …", as in `is empty`, `is too long …` or
    `holds the invisible character U+202E …`.
    """
    if not text:
        return "cannot be empty"
    if len(text) > limit:
        return f"is too long ({len(text)} characters; at most {limit})"
    if text.isascii() and text.isprintable():
        return None  # printable ASCII holds no control, invisible or odd space character
    for index, char in enumerate(text):
        if char in _EMOJI_JOINERS and _in_emoji(text, index):
            continue
        if unicodedata.category(char) == "Cc":
            return f"holds the control character U+{ord(char):04X}"
        if invisible(char):
            what = unicodedata.name(char, "").lower() or "unassigned"
            return f"holds the invisible character U+{ord(char):04X} ({what})"
    if not _spaces_only_plain(text):
        odd = next(c for c in text if c.isspace() and c != " ")
        return f"holds the space character U+{ord(odd):04X}: use a plain space"
    return None


def folded(text: str) -> str:
    """`text` as names are compared.

    It takes the NFKC form and case-folds it, then applies NFKC again as Unicode's NFKC_Casefold
    does. Emoji joiners and selectors are dropped, so `❤️` is `❤`. Runs of spaces become one and the
    result is trimmed. Empty stays empty.
    """
    text = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
    text = "".join(c for c in text if c not in _EMOJI_JOINERS)
    return " ".join(text.split())


def name_key(name: str) -> str:
    """A name as compared and kept unique per guild in `folded`.

    Look-alikes by compatibility collide, so `Ｃｌｕｂ`, `club` and `CLUB` are one name. Raises
    ValueError for an empty name.
    """
    key = folded(name)
    if not key:
        raise ValueError("a name cannot be empty")
    return key


def username_problem(text: str) -> str | None:
    """What is wrong with the trimmed `text` as a chess.com username, worded as `text_problem` words
    it.

    Returns None when it is one: ASCII letters, digits, `_` and `-`, at most 50 characters.
    """
    problem = text_problem(text, USERNAME_LIMIT)
    if problem is not None:
        return problem
    if not _USERNAME.fullmatch(text):
        return "is not a chess.com username (letters, digits, _ and -)"
    return None
