"""Tour use cases, each one audited unit of work.

A tour is created with the config's rules frozen by CCT-16. Tour Ambassadors are named and un-named
by CCT-3 and CCT-5. A member is linked to a tour player, and the player's chess.com and lichess
usernames are set.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from bot.kernel.actor import Actor, Role
from bot.kernel.config import Config
from bot.kernel.errors import UserError, changed_since_preview
from bot.kernel.inputs import NAME_LIMIT, clean_text, named, optional_text, shown
from bot.tour.points_input import scoring_option, table_option
from bot.tour.references import find_player, find_tour
from core.berger import MAX_PLAYERS
from core.tour.ranking import EventType
from storage.engine.errors import IntegrityError
from storage.guild import GuildStore, GuildView
from storage.tour.tours import TourPlayer, TourRecord

_USERNAME = re.compile(r"^[A-Za-z0-9_-]{2,50}$")


@dataclass(frozen=True)
class PlayerLinked:
    """A tour player's link changed: the player as now stored."""

    tour: TourRecord
    player: TourPlayer


def username(value: str | None, site: str) -> str | None:
    """A chess.com or lichess username as stored in lower case, or None when not given.

    It is refused when it cannot be one, and so is a blank one, since it would link nothing.
    """
    if value is not None and not value.strip():
        raise UserError(
            f"A blank {site} username links nothing: give the username (to remove one, "
            f"`/tour unlink site: {site}`)."
        )
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
    """CCT-2 and CCT-16: a new tour with the `[rules.cct]` values and the appeals zone frozen.

    The CCT-6 Regular and Major tour points tables and the CCT-8a preliminaries' game scoring given
    here replace the config's.
    """
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
    async with store.tour_change(actor.user_id, "tour.create", f"tour:{shown}") as uow:
        if await uow.tours.by_name(shown) is not None:
            raise UserError(f"A tour named {named(shown)} exists already.")
        return await uow.tours.create(shown, rules, created_by=actor.user_id)


async def set_ambassador(
    store: GuildStore, actor: Actor, tour: str, player: str, ambassador: bool
) -> PlayerLinked:
    """CCT-3 and CCT-5: makes a player of the tour a Tour Ambassador, or no longer one.

    A name the tour does not know yet becomes a new player.
    """
    actor.require(Role.HQ)
    action = "tour.ambassador_add" if ambassador else "tour.ambassador_remove"
    async with store.tour_change(actor.user_id, action, f"tour:{tour}") as uow:
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
    """Links a member to a tour player, setting usernames when given. This is the organiser's
    command.

    A player's report and confirmation go by this link. Usernames alone keep the member linked as
    they were. Giving neither a member nor a username is refused. `unlink_player` removes a link,
    never this.
    """
    actor.require(Role.HQ)
    chesscom_name, lichess_name = username(chesscom, "chess.com"), username(lichess, "lichess")
    if user_id is None and chesscom_name is None and lichess_name is None:
        raise UserError("Give the member or a username to link (to remove a link, `/tour unlink`).")
    async with store.tour_change(actor.user_id, "tour.link", f"player:{player}") as uow:
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
            await uow.tour_events.bump(event_id)  # the event's players (their links) changed
        updated = await uow.tours.player(found.id)
        assert updated is not None
        return PlayerLinked(record, updated)


UnlinkSite = Literal["member", "chess.com", "lichess"]
UNLINK_SITES: tuple[UnlinkSite, ...] = ("member", "chess.com", "lichess")
"""What `/tour unlink` removes: the member, or the chess.com or lichess username."""


@dataclass(frozen=True)
class PlayerUnlinked:
    """A link to remove in the preview, or removed.

    It holds the tour, the player as they were, what is removed in `site`, and its value, which is
    the member's id or the username.
    """

    tour: TourRecord
    player: TourPlayer
    site: UnlinkSite
    value: str
    stored: bool


def _linked_value(player: TourPlayer, site: UnlinkSite) -> str | None:
    if site == "member":
        return None if player.user_id is None else str(player.user_id)
    return player.chesscom if site == "chess.com" else player.lichess


async def unlink_player(
    store: GuildStore,
    actor: Actor,
    player: str,
    *,
    tour: str | int | None = None,
    site: str = "member",
    confirm: bool,
    previewed: str | None = None,
) -> PlayerUnlinked:
    """Removes a tour player's member link or one of their usernames, said explicitly.

    Their reports and confirmations go by the member link, and the bot's game search by the
    usernames. It is refused when there is none. Without `confirm` nothing is stored and a preview
    is given. With it the link is removed, unless it is no longer the `previewed` value. A Confirm
    removes what its preview showed, or nothing.
    """
    actor.require(Role.HQ)
    chosen = next((s for s in UNLINK_SITES if s == site), None)
    if chosen is None:
        raise UserError(
            f"{shown(site)} is not what a link is to: one of {', '.join(UNLINK_SITES)}."
        )
    async with store.tour_change(actor.user_id, "tour.unlink", f"player:{player}") as uow:
        view = uow.view()
        record = await find_tour(view, tour) if tour is not None else await _tour_of(view, player)
        found = await find_player(view, record, player)
        value = _linked_value(found, chosen)
        if value is None:
            what = "no member" if chosen == "member" else f"no {chosen} username"
            raise UserError(f"{named(found.name)} has {what}: nothing to unlink.")
        plan = PlayerUnlinked(record, found, chosen, value, confirm)
        if not confirm:
            uow.abandon()
            return plan
        if previewed is not None and previewed != value:
            raise changed_since_preview(f"The link of {named(found.name)}", "/tour unlink", "it")
        if chosen == "member":
            await uow.tours.link(found.id, None)
        else:
            await uow.tours.set_usernames(
                found.id,
                None if chosen == "chess.com" else found.chesscom,
                None if chosen == "lichess" else found.lichess,
            )
        uow.details["removed"] = chosen
        for event_id in await uow.tour_events.events_of_player(found.id):
            await uow.tour_events.bump(event_id)  # the event's players (their links) changed
        return plan


async def _tour_of(view: GuildView, player: str) -> TourRecord:
    """The newest tour having a player of this name, used when no tour is named."""
    name = clean_text(player, "player", NAME_LIMIT)
    for record in reversed(await view.tours.all()):
        if await view.tours.player_by_name(record.id, name) is not None:
            return record
    raise UserError(f"No tour has a player {named(name)}.")
