"""How many examples a property test tries: a few by default, so that the suite stays short,
and many more with ARBITER_LONG_PROPERTIES set (to anything but empty)."""

from __future__ import annotations

import os

LONG = bool(os.environ.get("ARBITER_LONG_PROPERTIES"))
"""Whether this run asks for the long property runs."""

QUICK = 25
"""A property test's examples in a default run."""


def examples(long: int) -> int:
    """`long` examples with ARBITER_LONG_PROPERTIES set, otherwise QUICK (or `long` if less)."""
    return long if LONG else min(long, QUICK)
