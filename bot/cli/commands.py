"""`arbiter commands`: prints the slash-command reference, or refreshes the README's copies.

The README holds generated copies of the reference and of the list of `arbiter` subcommands, each
between its marker lines.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from bot.cli.config_option import add_config_option, config_from_args
from bot.cli.errors import CliError
from bot.cli.input_file import input_path, read_input, shown
from bot.cli.output_file import write_output

if TYPE_CHECKING:  # discord.py and the bot are imported when `commands` runs, not for --help
    from bot.kernel.config import Config


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `commands`."""
    parser = subparsers.add_parser("commands", help="print the slash-command reference (Markdown)")
    parser.add_argument(
        "--readme",
        type=input_path,
        metavar="PATH",
        help="rewrite the reference section of this README instead of printing",
    )
    add_config_option(parser)
    parser.set_defaults(handler=run)


async def reference(config: Config) -> str:
    """The Markdown reference of every command of every cog, built offline."""
    from bot.app.arbiter import offline_bot
    from bot.cli.handlers.reference import render

    bot = await offline_bot(config)
    async with bot:
        await bot.setup_hook()
        return render(bot.tree)


def run(args: argparse.Namespace) -> int:
    """Print the reference or write it into the README."""
    import asyncio

    from bot.cli import build_parser
    from bot.cli.handlers.reference import CLI_END, CLI_START, render_cli, replace_section

    text = asyncio.run(reference(config_from_args(args)))
    if args.readme is None:
        print(text, end="")
        return 0
    try:
        readme = read_input(args.readme).decode("utf-8")
        updated = replace_section(readme, text)
        if CLI_START in updated:  # the list of subcommands, where the README has it
            updated = replace_section(updated, render_cli(build_parser()), CLI_START, CLI_END)
    except UnicodeDecodeError:
        raise CliError(f"{shown(args.readme)}: not UTF-8 text", 2) from None
    except ValueError as error:
        raise CliError(f"{shown(args.readme)}: {error}", 2) from None
    if updated != readme:
        write_output(args.readme, updated.encode("utf-8"))
        print(f"updated the command reference in {args.readme}")
    else:
        print(f"the command reference in {args.readme} is already current")
    return 0
