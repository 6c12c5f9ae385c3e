"""The `arbiter` argument parser: argparse's, but a refusal is one line on stderr.

This is the project's standard for bad input, rather than usage lines and then `error:`. `--help` is
unchanged. A refusal names the subcommand that refused, as in `arbiter standings: error: …`, and so
do unknown arguments after a subcommand.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from bot.rendering.common.text import cut
from core.league.season import quoted

MESSAGE_LIMIT = 300
"""Characters of argparse's message shown.

Its own messages, such as `unrecognized arguments: …` and `invalid choice: …`, repeat user text
whole.
"""


def escaped(message: str) -> str:
    """`message` on one line, with control characters and newlines written as escapes."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def one_line(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """`message` on one line: control characters escaped, cut at `limit` characters."""
    text = escaped(message)
    return cut(text, limit)


def guild_option(text: str) -> int:
    """A guild id from the command line. It is a positive integer, since 0 would mean "global"."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a guild id (a number)") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a guild id (ids are positive)")
    if value >= 2**64:
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a guild id (ids are 64-bit)")
    return value


class ArgumentParser(argparse.ArgumentParser):
    """The top-level parser, whose subcommands' parsers are `SubcommandParser`s.

    Every parser records its `prog` as the `cli_prog` default, so the subcommand that ran is
    `args.cli_prog`.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_defaults(cli_prog=self.prog)
        self.subcommands: list[tuple[str, str, ArgumentParser]] = []
        """Each subcommand added, as (name, help, parser), in order.

        argparse keeps them only in private attributes, and the README's list of subcommands is
        generated from them.
        """

    def add_subparsers(self, **kwargs: Any) -> Any:
        """argparse's, making subcommand parsers `SubcommandParser`s and noting each one
        added in `subcommands`."""
        kwargs.setdefault("parser_class", SubcommandParser)
        action = super().add_subparsers(**kwargs)
        add_parser = action.add_parser

        def noted(name: str, **options: Any) -> ArgumentParser:
            sub: ArgumentParser = add_parser(name, **options)
            self.subcommands.append((name, options.get("help") or "", sub))
            return sub

        # argparse has no public list of its subcommands: note them on the way in instead
        action.add_parser = noted  # type: ignore[method-assign]  # same signature, wrapped
        return action

    def error(self, message: str) -> NoReturn:
        """Prints `PROG: error: MESSAGE` and a pointer to `PROG --help` on stderr, and exits 2."""
        print(f"{self.prog}: error: {one_line(message)}; see {self.prog} --help", file=sys.stderr)
        raise SystemExit(2)


class SubcommandParser(ArgumentParser):
    """A subcommand's parser, which refuses the arguments it does not know itself so that the
    refusal names it.

    argparse would hand them up and the top level would say `arbiter: error`.
    """

    def parse_known_args(  # type: ignore[override]  # typeshed overloads it; one signature here
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        """argparse's, but leftovers such as `unrecognized arguments` are an error here."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras
