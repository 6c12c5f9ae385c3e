"""The one guard on text cells of Arbiter's CSV files, against formula injection.

A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, so a club named
`=HYPERLINK("http://x","y")` would become a live link. By the OWASP advice, such a cell, or one
that starts with a tab or a carriage return, gets a leading `'`, which a spreadsheet shows as text.
Only text from users or chess.com goes through it, such as names and notes, never a number.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula."""


def csv_text(text: str) -> str:
    """`text` as a CSV cell a spreadsheet shows as text, with a leading `'` where it needs one."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text
