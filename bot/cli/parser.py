"""The `arbiter` argument parser: argparse's, but a refusal is ONE line on stderr (the
project's standard for bad input), not usage lines and then `error:`; `--help` is unchanged."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

MESSAGE_LIMIT = 300
"""Characters of argparse's message shown; its own (`unrecognized arguments: …`,
`invalid choice: …`) repeat user text whole."""


def one_line(message: str) -> str:
    """`message` on one line: control characters (a newline too) escaped, cut at the limit."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)
    return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT] + "…"


class ArgumentParser(argparse.ArgumentParser):
    """An ArgumentParser whose subparsers are of this class too (argparse's default)."""

    def error(self, message: str) -> NoReturn:
        """Print `PROG: error: MESSAGE; see PROG --help` on stderr and exit 2."""
        print(f"{self.prog}: error: {one_line(message)}; see {self.prog} --help", file=sys.stderr)
        raise SystemExit(2)
