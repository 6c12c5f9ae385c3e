"""The tour's player use cases called directly over a real SQLite unit of work: Tour
Ambassadors named (CCT-3, CCT-5) and members linked to and unlinked from tour players, each
one audited unit of work. A refusal writes nothing."""

from __future__ import annotations

import pytest

from bot.tour.tours import service as tours
from storage.guild import GuildStore
from tests.support.services_world import dump, refused
from tests.support.tour_units import written
from tests.support.tour_world import ARBITER, ORGANISER, player_names, tour_with_event

pytestmark = pytest.mark.on_clock


async def test_cct_5_a_tour_ambassador_is_named_once_and_un_named(store: GuildStore) -> None:
    """CCT-3, CCT-5: HQ names a new player a Tour Ambassador (the player made with it) and
    un-names them, each audited. Naming twice, an arbiter naming, and un-naming a player the
    tour does not know are refused, writing nothing."""
    await tour_with_event(store, players=player_names(8), seed=None)
    named, unit = await written(store, tours.set_ambassador(store, ORGANISER, "Tour", "Amb", True))
    assert named.player.ambassador and unit.audit.action == "tour.ambassador_add"
    assert unit.tables == {"tour_players", "audit"} and unit.posts == ()
    await refused(store.database, tours.set_ambassador(store, ORGANISER, "Tour", "amb", True))
    await refused(store.database, tours.set_ambassador(store, ARBITER, "Tour", "P01", True), "HQ")
    await refused(store.database, tours.set_ambassador(store, ORGANISER, "Tour", "Nobody", False))
    removed, unit = await written(
        store, tours.set_ambassador(store, ORGANISER, "Tour", "Amb", False)
    )
    assert not removed.player.ambassador and unit.audit.action == "tour.ambassador_remove"


async def test_a_member_is_linked_to_one_player_and_unlinked_after_a_preview(
    store: GuildStore,
) -> None:
    """A member and a chess.com username linked to a player (audited). The same member for
    another player, a bad username and nothing to link are refused. The unlink's preview
    writes nothing and its Confirm removes the member. A second unlink is refused. Each
    refusal writes nothing."""
    await tour_with_event(store, players=player_names(8), seed=None)
    await tours.set_ambassador(store, ORGANISER, "Tour", "Amb", True)
    linked, unit = await written(
        store, tours.link_player(store, ORGANISER, "Amb", 4242, chesscom="Amb_Player")
    )
    assert (linked.player.user_id, linked.player.chesscom) == (4242, "amb_player")
    assert unit.audit.action == "tour.link"
    await refused(store.database, tours.link_player(store, ORGANISER, "P01", 4242), "<@4242>")
    await refused(store.database, tours.link_player(store, ORGANISER, "P01", None, chesscom="a b"))
    await refused(store.database, tours.link_player(store, ORGANISER, "P01", None), "member")
    before = await dump(store.database)
    preview = await tours.unlink_player(store, ORGANISER, "Amb", confirm=False)
    assert await dump(store.database) == before and preview.value == "4242"
    gone, unit = await written(
        store, tours.unlink_player(store, ORGANISER, "Amb", confirm=True, previewed="4242")
    )
    assert gone.stored and unit.audit.action == "tour.unlink"
    assert unit.audit.details["removed"] == "member"
    await refused(
        store.database, tours.unlink_player(store, ORGANISER, "Amb", confirm=True), "nothing"
    )
