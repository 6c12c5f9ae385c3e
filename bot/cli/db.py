"""`arbiter db migrate`, `arbiter db backup PATH` and `arbiter db copy --from A --to B`.

They maintain the configured database, a SQLite file in `database.path` or PostgreSQL in
`database.url`. The copy moves every row of one database into another, empty one, for instance a
league from SQLite to PostgreSQL.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from bot.cli.config_option import add_config_option, config_from_args
from bot.cli.errors import CliError
from bot.cli.input_file import shown


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `db` with its `migrate` and `backup` subcommands."""
    parser = subparsers.add_parser("db", help="database maintenance (migrate, backup, copy)")
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
    copy = actions.add_parser(
        "copy",
        help="copy every row of one database into another, empty one (SQLite to PostgreSQL)",
    )
    copy.add_argument(
        "--from",
        dest="source",
        type=location,
        required=True,
        metavar="FROM",
        help="the database to copy: sqlite:PATH, or postgresql://…",
    )
    copy.add_argument(
        "--to",
        dest="target",
        type=location,
        required=True,
        metavar="TO",
        help="an empty database (migrated first): postgresql://…, or sqlite:PATH",
    )
    copy.set_defaults(handler=run_copy)


def location(text: str) -> str:
    """The argparse type of a database: `sqlite:PATH` or a `postgresql://` URL, printable."""
    if not all(c.isprintable() for c in text) or not text.strip():
        raise argparse.ArgumentTypeError(f"{shown(text)}: not a database location")
    if text.startswith(("postgresql://", "postgres://")):
        return text
    if text.startswith("sqlite:") and text.removeprefix("sqlite:").strip():
        return text
    raise argparse.ArgumentTypeError(f"{shown(text)}: give sqlite:PATH or a postgresql:// URL")


def backup_path(text: str) -> Path:
    """The argparse type of the backup file: a new file's name, not empty, not a folder, without
    control characters.

    A folder is written like `new.db/`, and Path would drop the slash.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("the backup file name is empty")
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"{shown(text)} names a folder; give a new file's name")
    if not all(c.isprintable() for c in text):
        raise argparse.ArgumentTypeError(f"{shown(text)}: control characters in the file name")
    return Path(text)


async def _migrate(location: Path | str, busy_timeout_ms: int) -> tuple[list[int], int]:
    from storage.engine.locations import (
        open_database,  # the drivers: imported when `db migrate` runs
    )

    database = await open_database(location, busy_timeout_ms=busy_timeout_ms)
    try:
        applied = await database.migrate()
        return applied, await database.schema_version()
    finally:
        await database.close()


def run_migrate(args: argparse.Namespace) -> int:
    """Migrate the configured database and say what changed."""
    import asyncio

    from storage.engine.database import DatabaseUnavailable
    from storage.engine.errors import DatabaseError
    from storage.engine.locations import shown as shown_location

    config = config_from_args(args)
    where = shown_location(config.database.location)
    try:
        applied, version = asyncio.run(
            _migrate(config.database.location, config.database.busy_timeout_ms)
        )
    except DatabaseUnavailable as error:
        raise CliError(f"{config.database.key}: {error}", 2) from None
    except (OSError, RuntimeError, DatabaseError) as error:
        raise CliError(f"cannot migrate {where}: {error}", 1) from None
    if applied:
        print(f"{where}: migrated to schema version {version} (applied {applied})")
    else:
        print(f"{where}: already at schema version {version}; nothing to do")
    return 0


def run_backup(args: argparse.Namespace) -> int:
    """Backs up the configured database to PATH.

    A refused request exits 2, and a copy that could not be written or finished exits 1. Nothing is
    left behind either way. A SQLite file is copied page by page. A PostgreSQL database becomes a
    SQLite file of the same rows.
    """
    from storage.engine.backup import BackupError, BackupFailed, backup_database

    config = config_from_args(args)
    try:
        if config.database.url is not None:
            rows = _backup_postgres(config.database.url, args.path)
            print(f"backed up {_shown_url(config.database.url)} to {args.path} ({rows} rows)")
            return 0
        pages = backup_database(config.database.path, args.path)
    except BackupFailed as error:
        raise CliError(str(error), 1) from None
    except BackupError as error:
        raise CliError(str(error), 2) from None
    print(f"backed up {config.database.path} to {args.path} ({pages} pages)")
    return 0


def _shown_url(url: str) -> str:
    from storage.engine.postgresql import shown_url

    return shown_url(url)


def _backup_postgres(url: str, target: Path) -> int:
    """`storage.engine.backup.backup_to_sqlite` of the database at `url`. No server means exit 2."""
    import asyncio

    from storage.engine.backup import backup_to_sqlite
    from storage.engine.database import DatabaseUnavailable
    from storage.engine.locations import open_database

    async def work() -> int:
        database = await open_database(url)
        try:
            return await backup_to_sqlite(database, target)
        finally:
            await database.close()

    try:
        return asyncio.run(work())
    except DatabaseUnavailable as error:
        raise CliError(f"database.url: {error}", 2) from None


def run_copy(args: argparse.Namespace) -> int:
    """Copies every row of --from into --to, then compares the row counts of every table on both
    sides.

    The target is migrated first and refused unless empty. A refusal exits 2 and a failure 1, and
    nothing is left in the target either way.
    """
    import asyncio

    from storage.engine.copy import CopyMismatch, CopyRefused, copy_database, row_counts
    from storage.engine.database import DatabaseUnavailable
    from storage.engine.errors import DatabaseError
    from storage.engine.locations import open_database, sqlite_path
    from storage.engine.locations import shown as shown_location

    source_path = sqlite_path(args.source)
    if source_path is not None and not source_path.is_file():
        raise CliError(f"--from: no database at {shown(str(source_path))}", 2)
    if args.source == args.target:
        raise CliError("--from and --to are the same database", 2)

    async def work() -> tuple[int, int, int]:
        source = await open_database(args.source)
        try:
            target = await open_database(args.target)
            try:
                report = await copy_database(source, target)
                if await row_counts(source) != await row_counts(target):
                    raise CopyMismatch("the row counts differ after the copy")
                return report.total, len(report.rows), report.version
            finally:
                await target.close()
        finally:
            await source.close()

    try:
        rows, tables, version = asyncio.run(work())
    except DatabaseUnavailable as error:
        raise CliError(str(error), 2) from None
    except CopyRefused as error:
        raise CliError(str(error), 2) from None
    except (CopyMismatch, DatabaseError, OSError) as error:
        raise CliError(f"copy failed, nothing copied: {error}", 1) from None
    print(
        f"copied {rows} rows in {tables} tables from {shown_location(args.source)} to"
        f" {shown_location(args.target)} (schema version {version}; every table's count equal)"
    )
    return 0
