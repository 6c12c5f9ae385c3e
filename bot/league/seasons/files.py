"""A season as a file, which league HQ imports or anyone exports.

An import is validated by the season-file adapter and written by the league store in one unit of
work.
"""

from __future__ import annotations

import json

from bot.formats.season_file import SeasonFileError, dump_season, load_season
from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError, quote_mark
from bot.kernel.inputs import NAME_LIMIT, clean_text, shown
from bot.league.references import find_season
from bot.league.store import LeagueStoreError, import_season
from bot.league.store import load_season as load_stored
from core.league.season import Season
from storage.guild import GuildStore
from storage.league.seasons import SeasonRecord


def name_problems(season: Season) -> list[tuple[str, str]]:
    """The season's, divisions' and clubs' names, checked as the commands check them, each failing
    one with its path.

    The checks are those of `/season create`, `division-add` and `/club register`: trimmed, not
    empty, at most 100 characters, and no control or direction-changing character.
    """
    named = [("name", "season name", season.name)]
    for d_index, division in enumerate(season.divisions):
        named.append((f"divisions[{d_index}].name", "division name", division.name))
        named += [
            (f"divisions[{d_index}].clubs[{c_index}]", "club name", club)
            for c_index, club in enumerate(division.clubs)
        ]
    found = []
    for path, what, value in named:
        try:
            if clean_text(value, what, NAME_LIMIT) != value:
                found.append((path, f"the {what} {shown(value)} has spaces around it"))
        except UserError as refusal:
            found.append((path, refusal.message.rstrip(".")))
    return found


PROBLEMS_SHOWN = 3
"""Problems of a season file a refusal names, each with its path. The rest are counted."""


async def import_season_file(
    store: GuildStore, actor: Actor, data: bytes, name: str | None = None
) -> SeasonRecord:
    """League HQ imports a season file as a new season named `name`, else the file's name.

    It is refused naming the first problem's path. The checks are the file's own, such as unknown
    keys, rounds or rules below the regulation's floors, and the commands' name checks.
    """
    actor.require(Role.HQ)
    title = None if name is None else clean_text(name, "season name", NAME_LIMIT)
    try:
        season = load_season(data)
        problems = name_problems(season)
        if problems:
            raise SeasonFileError(problems)
    except SeasonFileError as error:
        said = [
            quote_mark(f"{path}: {problem}" if path else problem)  # no path: the whole file
            for path, problem in error.problems[:PROBLEMS_SHOWN]
        ]
        rest = len(error.problems) - len(said)
        more = f" (and {rest} more)" if rest else ""
        raise UserError(f"The season file is not valid: {'; '.join(said)}{more}.") from None
    async with store.read() as view:
        taken = (title or season.name).strip()
        if await view.seasons.by_name(taken) is not None:
            # Said here, in Discord's words: the store's own message names the CLI's --replace.
            raise UserError(
                f"A season named {shown(taken)} exists already: import it under another name"
                " with the `name` option."
            )
    async with store.league_change(
        actor.user_id, "season.import", f"season:{title or season.name}"
    ) as uow:
        try:
            return await import_season(uow, season, name=title)
        except LeagueStoreError as error:
            raise UserError(f"The season cannot be imported: {quote_mark(str(error))}.") from None


async def export_season_file(store: GuildStore, season: str | int) -> tuple[str, bytes]:
    """The season's file name and JSON. Anyone may read a season."""
    async with store.read() as view:
        record = await find_season(view.seasons, season)
        facts = await load_stored(view, record)
    text = json.dumps(dump_season(facts), indent=2, sort_keys=True, ensure_ascii=False)
    safe = "".join(c if c.isalnum() or c in "-_" else "-" for c in record.name)
    return f"{safe or 'season'}.json", (text + "\n").encode()
