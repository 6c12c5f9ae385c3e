"""What `arbiter tour export` does once `bot.cli.tour` has read its arguments.

It writes the stored tour as its tour file, on stdout or in a file. It goes through the door that
`/tour export` uses, in bot/tour/files.py.
"""

from __future__ import annotations

import argparse
import json
import sys

from bot.cli.errors import CliError
from bot.cli.handlers.season import _run
from bot.cli.output_file import write_output
from bot.kernel.errors import UserError
from bot.tour.files import export_tour_file
from core.league.season import quoted
from storage.guild import GuildStore


def export_tour(args: argparse.Namespace) -> None:
    """Write the stored tour `args.tour` of guild `args.guild` as its tour file."""

    async def work(store: GuildStore) -> bytes:
        try:
            _, data = await export_tour_file(store, args.tour)
        except UserError as error:
            raise CliError(error.message) from None
        return data

    data = _run(args, work, write=False)
    if args.output is None:
        sys.stdout.buffer.write(data)
        return
    write_output(args.output, data)
    events = len(json.loads(data).get("events") or [])
    print(f"exported {quoted(args.tour)} ({events} events) to {args.output}")
