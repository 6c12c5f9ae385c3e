"""`/club info` as a read use case: a club's card.

It shows the club's admins, its division in the season it plays now, the forfeits counted there by
CL-15, CL-20 and CL-21, and its chess.com figures. The season it plays now is its running one, from
`club_current_season`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.chesscom.client import ChessComClient
from bot.league.references import find_club
from bot.league.seasons.phase import club_current_season
from bot.league.store import StandingsCache
from bot.rendering.league.embeds import ClubInfo
from bot.runtime.polite_http import ApiError
from storage.guild import GuildStore

FORFEIT_RULES = ("CL-15", "CL-20", "CL-21")
"""The forfeits a club's card counts: challenge deadline, too few players, a removal."""


async def club_card(
    store: GuildStore,
    standings: StandingsCache,
    chesscom: ChessComClient | None,
    reference: str,
    ready: Callable[[], Awaitable[None]],
) -> ClubInfo:
    """The card of the club `reference` names.

    `ready` is awaited once the club is found, before chess.com is read through `chesscom`, the
    bot's one client. chess.com is read only for a club with a chess.com id, and an unknown club is
    refused before that. When chess.com is unreachable, or there is no client because no contact is
    configured, the card shows what the database knows.
    """
    async with store.read() as view:
        found = await find_club(view.clubs, reference)
        admins = tuple(await view.club_admins.admins_of(found.id))
        division = None
        playing = await club_current_season(view, found.id, store.database.clock())
        current = None if playing is None else playing[0]
        if current is not None:
            place = [m for m in await view.seasons.members(current.id) if m.club_id == found.id]
            names = {d.id: d.name for d in await view.seasons.divisions(current.id)}
            division = f"{names[place[0].division_id]} ({current.name})"
    forfeits: dict[str, int] = {}
    if current is not None:
        report = await standings.report(store, current, now=store.database.clock())
        for rule in FORFEIT_RULES:
            count = sum(1 for b in report.forfeits if b.club == found.name and b.rule == rule)
            if count:
                forfeits[rule] = count
    await ready()
    members = average = None
    if found.chesscom_id and chesscom is not None:
        try:
            profile = await chesscom.club(found.chesscom_id)
            members, average = profile.members_count, profile.average_daily_rating
        except ApiError:
            pass
    return ClubInfo(
        found.name,
        found.chesscom_id,
        found.status,
        admins,
        division,
        found.reminder_channel_id,
        members,
        average,
        forfeits,
    )
