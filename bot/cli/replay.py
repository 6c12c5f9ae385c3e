"""`arbiter replay SCRIPT.jsonl [--db PATH] [--json]` runs a script of Discord interactions through
the real bot, offline.

docs/replay.md describes the script.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from bot.cli.errors import CliError
from bot.cli.input_file import input_path, read_input, shown


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `replay` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="run a script of Discord interactions through the real bot, offline",
        description=(
            "Drive the real bot (cogs, services, database, scheduler, chess.com client) with a "
            "script of interactions on a virtual clock: no token, no network. Prints what the "
            "bot answered and posted at each step; `expect` steps make the script a test "
            "(exit 1 when one fails, 2 for a bad script)."
        ),
    )
    parser.add_argument("script", type=input_path, metavar="SCRIPT.jsonl", help="the script")
    parser.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="leave the database here (a new file); default: a temporary file, removed",
    )
    parser.add_argument("--json", action="store_true", help="one JSON line per step")
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="also show what the chess.com stand-in serves (steps no Discord user sees)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Parses and checks the script, exiting 2 with the line at fault, then replays it step by
    step.
    """
    import asyncio

    from bot.offline.expectations import ReplayFailure
    from bot.offline.replay import replay
    from bot.offline.script import ScriptError, parse_script
    from bot.offline.transcript import StepRecord
    from storage.engine.database import DatabaseUnavailable
    from storage.shared.ownership import DatabaseOwned

    path: Path = args.script
    try:
        text = read_input(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise CliError(f"{shown(path)}: not UTF-8 text", 2) from None
    db_path: Path | None = args.db
    if db_path is not None and (db_path.exists() or db_path.is_symlink()):
        raise CliError(f"--db {shown(db_path)}: already exists; give a new file", 2)
    try:
        script = parse_script(text, path.parent)
    except ScriptError as error:
        raise CliError(f"{shown(path)}: {error}", 2) from None
    temporary: Path | None = None
    if db_path is None:
        temporary = Path(tempfile.mkdtemp(prefix="arbiter-replay-"))
        database = temporary / "replay.db"
    else:
        database = db_path

    def emit(record: StepRecord) -> None:
        if args.json:
            print(record.as_json(), flush=True)
        elif record.shown_in_text(args.verbose):
            print(record.as_text(), flush=True)

    try:
        try:
            asyncio.run(replay(script, database, emit))
        except ScriptError as error:
            raise CliError(f"{shown(path)}: {error}", 2) from None
        except ReplayFailure as failure:
            raise CliError(str(failure), 1) from None
        except (DatabaseOwned, DatabaseUnavailable, OSError) as error:
            raise CliError(f"--db {shown(database)}: {error}", 1) from None
    finally:
        if temporary is not None:
            shutil.rmtree(temporary, ignore_errors=True)
    return 0
