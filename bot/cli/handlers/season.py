"""What `arbiter season import|export|list|standings|calendar` do, once `bot.cli.season` has
read their arguments: open the database, store or read the guild's seasons and render them."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from bot.cli.config_option import config_from_args
from bot.cli.errors import CliError
from bot.cli.league import as_of_date, print_report
from bot.cli.output_file import write_output
from bot.cli.season_file import read_season
from bot.formats.season_file import dump_season
from bot.league.seasons.phase import phase_of
from bot.league.store import LeagueStoreError, StandingsCache, import_season, load_season
from bot.rendering.league.calendar_ics import calendar_matches, season_calendar
from core.league import league_report
from core.league.season import quoted
from storage.engine.database import DatabaseUnavailable
from storage.engine.errors import DatabaseError
from storage.guild import GuildStore, GuildView
from storage.league.seasons import SeasonRecord

T = TypeVar("T")


def _run(args: argparse.Namespace, work: Callable[[GuildStore], Awaitable[T]], write: bool) -> T:
    """Opens and migrates the configured database and runs `work` on the guild's store.

    The database is a SQLite file, or PostgreSQL at `database.url`.
    """
    from storage.engine.locations import open_database, shown

    config = config_from_args(args)
    chosen: Path | None = args.db
    location: Path | str = chosen if chosen is not None else config.database.location
    key = "--db" if chosen is not None else config.database.key
    where = shown(location)
    if not write and isinstance(location, Path) and not location.exists():
        raise CliError(f"no database at {where}: nothing has been stored yet")

    async def main() -> T:
        database = await open_database(location, busy_timeout_ms=config.database.busy_timeout_ms)
        try:
            await database.migrate()
            store = GuildStore(database, args.guild)
            if not write:
                async with store.read() as view:
                    if not await view.audit.recent(1):
                        raise CliError(f"no guild {args.guild} in {where}")
            return await work(store)
        finally:
            await database.close()

    try:
        return asyncio.run(main())
    except DatabaseUnavailable as error:
        raise CliError(f"{key}: {error}") from None
    except DatabaseError as error:  # a runtime failure (locked, disk full): one line, exit 1
        raise CliError(f"database {where}: {error}", 1) from None


async def _season(view: GuildView, name: str, guild: int) -> SeasonRecord:
    record = await view.seasons.by_name(name)
    if record is None:
        raise CliError(f"no season {quoted(name)} in guild {guild}")
    return record


def _write(output: Path | None, data: bytes) -> None:
    if output is None:
        sys.stdout.buffer.write(data)
        return
    write_output(output, data)


def run_import(args: argparse.Namespace) -> int:
    """Validate the file, then store it in one audited unit of work."""
    season = read_season(args.file)

    async def work(store: GuildStore) -> SeasonRecord:
        name = args.name or season.name
        details = {"actor": "cli", "file": str(args.file), "replace": args.replace}
        async with store.league_change(None, "season.import", f"season:{name}", details) as uow:
            return await import_season(uow, season, name=name, replace=args.replace)

    try:
        record = _run(args, work, write=True)
    except LeagueStoreError as error:
        raise CliError(str(error)) from None
    print(f"imported {quoted(record.name)} into guild {args.guild} ({len(season.matches)} matches)")
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Writes the stored season as a plain JSON season file."""

    async def work(store: GuildStore) -> dict[str, Any]:
        async with store.read() as view:
            return dump_season(await load_season(view, await _season(view, args.name, args.guild)))

    data = _run(args, work, write=False)
    _write(args.output, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    if args.output is not None:  # said, as `import` says what it stored
        matches = len(data.get("matches") or [])
        print(f"exported {quoted(data['name'])} ({matches} matches) to {args.output}")
    return 0


def _counted(count: int, noun: str) -> str:
    """'1 division', '2 divisions', '1 match', '4 matches': the listing reads as English."""
    plural = noun + ("es" if noun.endswith("ch") else "s")
    return f"{count} {noun if count == 1 else plural}"


def run_list(args: argparse.Namespace) -> int:
    """One line per season: name, status, divisions, matches, version."""

    async def work(store: GuildStore) -> list[str]:
        lines = []
        now = dt.datetime.now(dt.UTC)
        async with store.read() as view:
            for record in await view.seasons.all():
                divisions = await view.seasons.divisions(record.id)
                matches = await view.matches.of_season(record.id)
                status = (await phase_of(view, record, now)).value
                lines.append(
                    f"{record.name}\t{status}\t{_counted(len(divisions), 'division')}"
                    f"\t{_counted(len(matches), 'match')}\tversion {record.version}"
                )
        return lines

    for line in _run(args, work, write=False):
        print(line)
    return 0


def run_standings(args: argparse.Namespace) -> int:
    """The standings exactly as `arbiter league` prints them for the exported file."""
    as_of = None if args.as_of is None else as_of_date(args.as_of)

    async def work(store: GuildStore) -> Any:
        async with store.read() as view:
            record = await _season(view, args.name, args.guild)
        now = None if as_of else dt.datetime.now(dt.UTC)
        return await StandingsCache().report(store, record, as_of=as_of, now=now)

    report = _run(args, work, write=False)
    print_report(report, args.json)
    return 0


def run_calendar(args: argparse.Namespace) -> int:
    """The season's matches as an .ics file, only one club's with --club."""

    async def work(store: GuildStore) -> bytes:
        async with store.read() as view:
            record = await _season(view, args.name, args.guild)
            season = await load_season(view, record)
        only = None
        if args.club is not None:
            names = {c.casefold(): c for d in season.divisions for c in d.clubs}
            club = names.get(args.club.strip().casefold())
            if club is None:
                raise CliError(f"no club {quoted(args.club)} in season {quoted(record.name)}")
            only = [club]
        now = dt.datetime.now(dt.UTC)
        entries = calendar_matches(season, league_report(season, now=now), now, only)
        return season_calendar(record.name, entries, now, guild=store.guild_id, season_id=record.id)

    data = _run(args, work, write=False)
    _write(args.output, data)
    if args.output is not None:
        print(
            f"wrote {data.count(b'BEGIN:VEVENT')} matches of {quoted(args.name)} to {args.output}"
        )
    return 0
