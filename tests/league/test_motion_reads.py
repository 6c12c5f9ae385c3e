"""CL-23 motions read as services on a real SQLite file: `/vote list` (newest first, one
status, each with its votes read in one statement), `/vote show` (another guild's motion is
not found) and the motion autocomplete (open motions only for a vote, what is typed, at most
25); reads write nothing."""

from __future__ import annotations

import pytest

from bot.league.motions.reads import motion_card, motion_choices, motion_list
from bot.rendering.league.motions import motion_title
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.motion_world import stored_motion
from tests.support.services_world import dump, refused

pytestmark = pytest.mark.on_clock
"""Every test's `database` runs on the services' clock (the `clock` fixture, at `NOW`)."""

GUILD, OTHER_GUILD = 10, 11


async def _motions(store: GuildStore) -> dict[str, int]:
    """An open division-makeup motion (directors 1 yes, 3 no), a passed one, a rejected
    'other' one and an open 'other' one titled 'Adopt the logo'; their ids by name."""
    ids = {
        "makeup": await stored_motion(store, "division-makeup", None),
        "passed": await stored_motion(store, "division-makeup", "passed"),
        "rejected": await stored_motion(store, "other", "rejected"),
        "logo": await stored_motion(store, "other", None, subject={"title": "Adopt the logo"}),
    }
    async with store.change(None, "test.votes", "votes") as uow:
        assert await uow.motions.vote(ids["makeup"], 3, False)
        assert await uow.motions.vote(ids["makeup"], 1, True)
    return ids


async def test_cl_23_motion_list_newest_first_with_votes(database: Database) -> None:
    """Newest first, of one status if asked, each motion with its votes as `get` reads them
    (the one-statement read and the per-motion read agree); nothing written; another guild
    lists only its own."""
    store = GuildStore(database, GUILD)
    ids = await _motions(store)
    other = GuildStore(database, OTHER_GUILD)
    theirs = await stored_motion(other, "other", None)
    before = await dump(database)

    listed = await motion_list(store)
    assert [m.id for m in listed] == sorted(ids.values(), reverse=True)
    async with store.read() as view:
        assert list(listed) == [await view.motions.get(m.id) for m in listed]  # per motion
        makeup = await view.motions.get(ids["makeup"])
    assert makeup is not None and makeup.votes == {1: True, 3: False}
    assert next(m for m in listed if m.id == ids["makeup"]) == makeup
    assert list(next(m for m in listed if m.id == ids["makeup"]).votes) == [1, 3]
    assert [m.id for m in await motion_list(store, "open")] == [ids["logo"], ids["makeup"]]
    assert [m.id for m in await motion_list(store, "rejected")] == [ids["rejected"]]
    assert await motion_list(store, "no-decision") == ()
    assert [m.id for m in await motion_list(other)] == [theirs]
    assert await dump(database) == before


async def test_cl_23_motion_card_of_this_guild_only(database: Database) -> None:
    """The motion with its votes; an unknown, zero, negative or another guild's id is 'No
    motion N on this server.' and writes nothing."""
    store = GuildStore(database, GUILD)
    ids = await _motions(store)
    theirs = await stored_motion(GuildStore(database, OTHER_GUILD), "division-makeup", None)
    before = await dump(database)
    card = await motion_card(store, ids["makeup"])
    assert (card.id, card.status, card.votes) == (ids["makeup"], "open", {1: True, 3: False})
    assert await dump(database) == before
    for wrong in (theirs, 0, -1, 10_000):
        message = await refused(database, motion_card(store, wrong), "no motion")
        assert message == f"No motion {wrong} on this server."


async def test_cl_23_motion_choices_open_only_when_voting_and_what_is_typed(
    database: Database,
) -> None:
    """For a vote only open motions; otherwise every status; the typed text anywhere in the
    title, in any case; another guild's motions never offered; at most 25, newest first."""
    store = GuildStore(database, GUILD)
    ids = await _motions(store)
    await stored_motion(GuildStore(database, OTHER_GUILD), "other", None)
    before = await dump(database)

    voting = await motion_choices(store, "", open_only=True)
    assert [m.id for m in voting] == [ids["logo"], ids["makeup"]]
    every = await motion_choices(store, " ", open_only=False)
    assert [m.id for m in every] == sorted(ids.values(), reverse=True)
    logo = await motion_choices(store, "  LOGO ", open_only=False)
    assert [motion_title(m) for m in logo] == [f"Motion {ids['logo']} · other: Adopt the logo"]
    assert [m.id for m in await motion_choices(store, "MAKEUP", open_only=True)] == [ids["makeup"]]
    assert [m.id for m in await motion_choices(store, "MAKEUP", open_only=False)] == [
        ids["passed"],
        ids["makeup"],
    ]
    assert [m.id for m in await motion_choices(store, str(ids["logo"]), True)] == [ids["logo"]]
    assert await motion_choices(store, "nothing like it", open_only=False) == ()
    assert await dump(database) == before

    for _ in range(30):
        await stored_motion(store, "other", None)
    many = await motion_choices(store, "motion", open_only=True)
    assert len(many) == 25 and [m.id for m in many] == sorted((m.id for m in many), reverse=True)
    assert all(m.status == "open" for m in many)
