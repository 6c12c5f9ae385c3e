"""`arbiter db migrate` and `arbiter db backup PATH`: maintain the SQLite database."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from bot.cli.config_option import add_config_option, config_from_args
from bot.cli.errors import CliError
from bot.cli.input_file import shown


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `db` with its `migrate` and `backup` subcommands."""
    parser = subparsers.add_parser("db", help="database maintenance (migrate, backup)")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    migrate = actions.add_parser("migrate", help="apply pending schema migrations")
    add_config_option(migrate)
    migrate.set_defaults(handler=run_migrate)
    backup = actions.add_parser(
        "backup", help="copy the database to a new file (safe while the bot runs)"
    )
    backup.add_argument("path", type=backup_path, metavar="PATH", help="the new backup file")
    add_config_option(backup)
    backup.set_defaults(handler=run_backup)


def backup_path(text: str) -> Path:
    """The argparse type of the backup file: a new file's name, not empty, not a folder
    (`new.db/`; Path would drop the slash), without control characters."""
    if not text.strip():
        raise argparse.ArgumentTypeError("the backup file name is empty")
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{shown(text)} names a folder; give a new file's name")
    if not all(c.isprintable() for c in text):
        raise argparse.ArgumentTypeError(f"{shown(text)}: control characters in the file name")
    return Path(text)


async def _migrate(path: Path, busy_timeout_ms: int) -> tuple[list[int], int]:
    from storage.database import Database  # aiosqlite: imported when `db migrate` runs

    database = await Database.open(path, busy_timeout_ms=busy_timeout_ms)
    try:
        applied = await database.migrate()
        return applied, await database.schema_version()
    finally:
        await database.close()


def run_migrate(args: argparse.Namespace) -> int:
    """Migrate the configured database and say what changed."""
    import asyncio

    from storage.database import DatabaseUnavailable

    config = config_from_args(args)
    path = config.database.path
    try:
        applied, version = asyncio.run(_migrate(path, config.database.busy_timeout_ms))
    except DatabaseUnavailable as error:
        raise CliError(f"database.path: {error}", 2) from None
    except (OSError, RuntimeError) as error:
        raise CliError(f"cannot migrate {path}: {error}", 1) from None
    if applied:
        print(f"{path}: migrated to schema version {version} (applied {applied})")
    else:
        print(f"{path}: already at schema version {version}; nothing to do")
    return 0


def run_backup(args: argparse.Namespace) -> int:
    """Back up the configured database to PATH: a refused request exits 2, a copy that could
    not be written or finished exits 1 (nothing is left behind either way)."""
    from storage.backup import BackupError, BackupFailed, backup_database

    config = config_from_args(args)
    try:
        pages = backup_database(config.database.path, args.path)
    except BackupFailed as error:
        raise CliError(str(error), 1) from None
    except BackupError as error:
        raise CliError(str(error), 2) from None
    print(f"backed up {config.database.path} to {args.path} ({pages} pages)")
    return 0
