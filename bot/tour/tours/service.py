"""Tour use cases: a tour created with the config's rules frozen (CCT-16), Tour Ambassadors
named and un-named (CCT-3, CCT-5), a member linked to a tour player (and the player's
chess.com / lichess usernames). Each is one unit of work, audited."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bot.app.actor import Actor, Role
from bot.app.config import Config
from bot.app.errors import UserError
from bot.app.inputs import NAME_LIMIT, clean_text, named, optional_text
from bot.tour.points_input import scoring_option, table_option
from bot.tour.references import find_player, find_tour
from core.berger import MAX_PLAYERS
from core.tour.ranking import EventType
from storage.errors import IntegrityError
from storage.guild import GuildStore, GuildView
from storage.tours import TourPlayer, TourRecord

_USERNAME = re.compile(r"^[A-Za-z0-9_-]{2,50}$")


@dataclass(frozen=True)
class PlayerLinked:
    """A tour player's link changed: the player as now stored."""

    tour: TourRecord
    player: TourPlayer


def username(value: str | None, site: str) -> str | None:
    """A chess.com or lichess username as stored (lower-case), or None; refused when it
    cannot be one."""
    text = optional_text(value, f"{site} username", 50)
    if text is None:
        return None
    if not _USERNAME.fullmatch(text):
        raise UserError(f"{named(text)} is not a {site} username (letters, digits, _ and -).")
    return text.lower()


async def create_tour(
    store: GuildStore,
    actor: Actor,
    config: Config,
    name: str,
    *,
    regular_points: str | None = None,
    major_points: str | None = None,
    scoring: str | None = None,
) -> TourRecord:
    """CCT-2/CCT-16: a new tour with the `[rules.cct]` values (and the appeals zone) frozen;
    the Regular and Major tour points tables (CCT-6) and the preliminaries' game scoring
    (CCT-8a) given here replace the config's."""
    actor.require(Role.HQ)
    shown = clean_text(name, "tour name", NAME_LIMIT)
    try:
        rules = config.rules.cct.tour_rules(config.timezones.appeals)
    except ValueError as error:
        raise UserError(f"The configuration's [rules.cct] cannot make a tour: {error}.") from None
    tables = dict(rules.points)
    for kind, text, option in (
        (EventType.REGULAR, regular_points, "regular_points"),
        (EventType.MAJOR, major_points, "major_points"),
    ):
        table = table_option(
            text,
            option,
            label=f"{shown} {kind.value} table",
            players=MAX_PLAYERS,
            who="an event has at most",
        )
        if table is not None:
            tables[kind] = table
    rules = replace(rules, points=tables, scoring=scoring_option(scoring) or rules.scoring)
    async with store.change(actor.user_id, "tour.create", f"tour:{shown}") as uow:
        if await uow.tours.by_name(shown) is not None:
            raise UserError(f"A tour named {named(shown)} exists already.")
        return await uow.tours.create(shown, rules, created_by=actor.user_id)


async def set_ambassador(
    store: GuildStore, actor: Actor, tour: str, player: str, ambassador: bool
) -> PlayerLinked:
    """CCT-3/CCT-5: make a player of the tour a Tour Ambassador (or no longer one); a name
    the tour does not know yet becomes a new player."""
    actor.require(Role.HQ)
    action = "tour.ambassador_add" if ambassador else "tour.ambassador_remove"
    async with store.change(actor.user_id, action, f"tour:{tour}") as uow:
        record = await find_tour(uow.view(), tour)
        found = await uow.tours.player_by_name(record.id, clean_text(player, "player", NAME_LIMIT))
        if found is None:
            if not ambassador:
                raise UserError(f"No player {named(player.strip())} in {named(record.name)}.")
            found = await uow.tours.add_player(record.id, clean_text(player, "player"))
        if found.ambassador == ambassador:
            state = "is a Tour Ambassador" if ambassador else "is not a Tour Ambassador"
            raise UserError(f"{named(found.name)} {state} already.")
        await uow.tours.set_ambassador(found.id, ambassador)
        updated = await uow.tours.player(found.id)
        assert updated is not None
        return PlayerLinked(record, updated)


async def link_player(
    store: GuildStore,
    actor: Actor,
    player: str,
    user_id: int | None,
    *,
    tour: str | None = None,
    chesscom: str | None = None,
    lichess: str | None = None,
) -> PlayerLinked:
    """Link a member to a tour player, setting usernames when given; the organiser's (a
    player's report and confirmation go by this link). No member and no username unlinks
    the member; usernames alone keep the member linked as they were."""
    actor.require(Role.HQ)
    chesscom_name, lichess_name = username(chesscom, "chess.com"), username(lichess, "lichess")
    async with store.change(actor.user_id, "tour.link", f"player:{player}") as uow:
        view = uow.view()
        record = await find_tour(view, tour) if tour is not None else await _tour_of(view, player)
        found = await find_player(view, record, player)
        if user_id is not None:
            other = await uow.tours.player_of_user(record.id, user_id)
            if other is not None and other.id != found.id:
                raise UserError(
                    f"<@{user_id}> is linked to {named(other.name)} in this tour already."
                )
        usernames_only = user_id is None and (chesscom_name or lichess_name) is not None
        try:
            if not usernames_only:
                await uow.tours.link(found.id, user_id)
        except IntegrityError:
            raise UserError("That member is linked to another player of this tour.") from None
        if chesscom_name is not None or lichess_name is not None:
            await uow.tours.set_usernames(
                found.id, chesscom_name or found.chesscom, lichess_name or found.lichess
            )
        for event_id in await uow.tour_events.events_of_player(found.id):
            uow.tour_events.bump(event_id)  # the event's players (their links) changed
        updated = await uow.tours.player(found.id)
        assert updated is not None
        return PlayerLinked(record, updated)


async def _tour_of(view: GuildView, player: str) -> TourRecord:
    """The newest tour having a player of this name (when no tour is named)."""
    name = clean_text(player, "player", NAME_LIMIT)
    for record in reversed(await view.tours.all()):
        if await view.tours.player_by_name(record.id, name) is not None:
            return record
    raise UserError(f"No tour has a player {named(name)}.")
