"""Names from other programs' files made safe to print in a terminal."""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""Characters a terminal acts on (C0/C1 controls such as ESC and BEL, line separators, bidi
overrides) rather than shows."""


def shown_text(text: str) -> str:
    """`text` with every control character escaped (`\\x1b`): names come from other programs'
    files and are printed, so an ESC sequence in one must not clear or retitle the terminal."""
    return _UNSAFE.sub(lambda found: repr(found.group())[1:-1], text)
