"""Issue 36: `/my matches` and `/my votes` through the real tree, and the buttons they and the
direct messages carry, clicked in a guild and from a DM with real payloads. A DM click names its
guild: a clicker who is not a member of it, or who may not act, is refused with one private line
and the database stays as it was."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.app.ui.my_buttons import NOT_A_MEMBER
from bot.rendering.league.match_buttons import dm_match_buttons
from bot.rendering.league.motions import dm_vote_buttons
from tests.support.command_world import (
    ADMINS,
    DIRECTORS,
    CommandWorld,
    copy_world,
    dump,
    league_bot,
    members,
)
from tests.support.discord_harness import (
    DEFAULT_GUILD_ID,
    OTHER_GUILD_ID,
    DiscordHarness,
    Member,
    Outcome,
)

STAMP = re.compile(r"<t:\d+:R>")
"""A Discord timestamp's live countdown."""


def _custom_ids(components: list[dict[str, Any]]) -> list[str]:
    return [str(b["custom_id"]) for row in components for b in row["components"]]


def _labels(components: list[dict[str, Any]]) -> list[str]:
    return [str(b["label"]) for row in components for b in row["components"]]


async def _click(
    harness: DiscordHarness,
    custom_id: str,
    user: Member,
    components: list[dict[str, Any]],
    *,
    dm: bool = False,
) -> Outcome:
    """A click on `custom_id` of a message of the bot holding `components`, in the guild of
    `user`, or in a direct message with no guild at all."""
    message = harness.message_payload(harness.fresh_id(), {"components": components})
    data = {"custom_id": custom_id, "component_type": 2}
    payload = harness.interaction_payload(3, data, user, message=message, dm=dm)
    return await harness.run(payload)


async def _submit(
    harness: DiscordHarness, opened: Outcome, user: Member, value: str, dm: bool
) -> Outcome:
    """Submits the form the click `opened` showed, typing `value` in its one field."""
    form = opened.reply
    assert form.type == 9, form.payload  # a modal
    fields = [c for row in form.data["components"] for c in row["components"]]
    assert len(fields) == 1 and fields[0]["type"] == 4, fields
    typed = {"type": 4, "custom_id": fields[0]["custom_id"], "value": value}
    data = {"custom_id": form.data["custom_id"], "components": [{"type": 1, "components": [typed]}]}
    return await harness.run(harness.interaction_payload(5, data, user, dm=dm))


def _admin(harness: DiscordHarness, club: str, index: int = 0) -> Member:
    return harness.member(user_id=ADMINS[club][index], name=f"admin-{club.lower()}")


async def test_my_matches_lists_the_clubs_open_matches_with_the_buttons_to_act(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """A's admin sees A - D to challenge and E - A to accept, with their deadlines and buttons;
    D's admin sees A - D only, to challenge; a member of no club sees an empty view, plainly."""
    _, world = world_file
    async with league_bot(copy_world(world_file, tmp_path)) as (_bot, harness, _clock):
        reply = (await harness.command("my matches", user=_admin(harness, "A"))).reply
        assert reply.ephemeral
        text = reply.text()
        assert f"#{world.open_match}" in text and f"#{world.to_accept}" in text
        assert "either club issues before" in text
        assert "your club's acceptance of E's challenge" in text
        assert len(STAMP.findall(text)) >= 4, text  # each start and each deadline
        assert _custom_ids(reply.components) == [  # in start order
            f"clmatch:{world.to_accept}:accept",
            f"clmatch:{world.open_match}:challenge",
        ]
        assert f"#{world.open_match} Record our challenge" in _labels(reply.components)

        d_admin = (await harness.command("my matches", user=_admin(harness, "D"))).reply
        assert f"#{world.open_match}" in d_admin.text()
        assert f"#{world.to_accept}" not in d_admin.text()
        assert _custom_ids(d_admin.components) == [f"clmatch:{world.open_match}:challenge"]

        nobody = (await harness.command("my matches", user=members(harness)["player"])).reply
        assert nobody.ephemeral and not nobody.components
        assert "No open match of a club you administer" in nobody.text()


async def test_issuers_view_says_it_awaits_the_other_clubs_acceptance_without_a_button(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (_bot, harness, _clock):
        reply = (await harness.command("my matches", user=_admin(harness, "E"))).reply
        assert "awaits A's acceptance of your club's challenge" in reply.text()
        assert not reply.components


async def test_accept_button_in_the_guild_records_the_acceptance_and_refuses_another_club(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    _, world = world_file
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_bot, harness, _clock):
        shown = (await harness.command("my matches", user=_admin(harness, "A"))).reply
        button = f"clmatch:{world.to_accept}:accept"
        before = dump(path)
        refused = await _click(harness, button, _admin(harness, "B"), shown.components)
        assert refused.reply.ephemeral and "\n" not in (refused.reply.content or "")
        assert "admin" in (refused.reply.content or "").lower()
        assert dump(path) == before

        accepted = await _click(harness, button, _admin(harness, "A"), shown.components)
        assert accepted.reply.ephemeral
        assert f"Challenge of match #{world.to_accept} (E – A) accepted." in (
            accepted.reply.content or ""
        )
        after = (await harness.command("my matches", user=_admin(harness, "A"))).reply
        assert "the challenge is complete" in after.text()
        assert _custom_ids(after.components) == [f"clmatch:{world.open_match}:challenge"]


async def test_challenge_button_opens_a_form_whose_answer_records_the_challenge(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    _, world = world_file
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_bot, harness, _clock):
        admin = _admin(harness, "D")
        shown = (await harness.command("my matches", user=admin)).reply
        button = f"clmatch:{world.open_match}:challenge"
        before = dump(path)
        opened = await _click(harness, button, admin, shown.components)
        bad = await _submit(harness, opened, admin, "not a match", dm=False)
        assert bad.reply.ephemeral and "is not a chess.com match id or URL" in (
            bad.reply.content or ""
        )
        assert dump(path) == before

        b_admin = _admin(harness, "B")  # an admin of neither club of A - D
        opened = await _click(harness, button, b_admin, shown.components)
        refused = await _submit(harness, opened, b_admin, "12803", dm=False)
        assert refused.reply.ephemeral and "admin" in (refused.reply.content or "").lower()
        assert dump(path) == before

        opened = await _click(harness, button, admin, shown.components)
        done = await _submit(
            harness, opened, admin, "https://www.chess.com/club/matches/12803", dm=False
        )
        assert done.reply.ephemeral
        text = done.reply.content or ""
        assert f"Challenge of match #{world.open_match} (A – D) recorded" in text
        assert STAMP.search(text), text
        async with _bot.database.read() as connection:
            cursor = await connection.execute(
                "SELECT chesscom_match_id FROM matches WHERE id = ?", (world.open_match,)
            )
            assert (await cursor.fetchone())[0] == 12803


async def test_dm_match_buttons_act_for_a_member_of_the_named_guild_only(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """A DM click carries no guild: the custom id names it, the clicker must be its member, and
    the club admin's step is the same as `/match accept` and `/match challenge`."""
    _, world = world_file
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_bot, harness, _clock):
        admin = _admin(harness, "A")
        d_admin = _admin(harness, "D")
        harness.seat(DEFAULT_GUILD_ID, [admin, d_admin, _admin(harness, "B")])
        harness.seat(OTHER_GUILD_ID, [])  # its member list is complete: A's admin is not in it
        accept = dm_match_buttons(DEFAULT_GUILD_ID, world.to_accept, "accept")
        challenge = dm_match_buttons(DEFAULT_GUILD_ID, world.open_match, "challenge")
        before = dump(path)

        # A member of another server only, whatever their id: refused, nothing written.
        stranger = harness.member(guild_id=OTHER_GUILD_ID, user_id=777)
        for components in (accept, challenge):
            (custom_id,) = _custom_ids(components)
            refused = await _click(harness, custom_id, stranger, components, dm=True)
            assert refused.reply.ephemeral and refused.reply.content == NOT_A_MEMBER
        # The other guild named in the id: A's admin is no member of it.
        elsewhere = dm_match_buttons(OTHER_GUILD_ID, world.to_accept, "accept")
        (custom_id,) = _custom_ids(elsewhere)
        refused = await _click(harness, custom_id, admin, elsewhere, dm=True)
        assert refused.reply.content == NOT_A_MEMBER
        # A member who may not act: B's admin on E - A.
        (custom_id,) = _custom_ids(accept)
        refused = await _click(harness, custom_id, _admin(harness, "B"), accept, dm=True)
        assert refused.reply.ephemeral and "admin" in (refused.reply.content or "").lower()
        assert dump(path) == before

        accepted = await _click(harness, custom_id, admin, accept, dm=True)
        assert accepted.reply.ephemeral
        assert f"#{world.to_accept} (E – A) accepted." in (accepted.reply.content or "")

        (custom_id,) = _custom_ids(challenge)
        opened = await _click(harness, custom_id, d_admin, challenge, dm=True)
        done = await _submit(harness, opened, d_admin, "12803", dm=True)
        assert f"#{world.open_match} (A – D) recorded" in (done.reply.content or "")


async def test_my_votes_lists_the_open_motion_until_the_director_voted(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    _, world = world_file
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_bot, harness, _clock):
        director = harness.member("Director", user_id=DIRECTORS[1])
        reply = (await harness.command("my votes", user=director)).reply
        assert reply.ephemeral
        assert f"#{world.motion}" in reply.text() and STAMP.search(reply.text())
        assert "0 of 3 voted" in reply.text()
        assert _custom_ids(reply.components) == [
            f"motion:{world.motion}:yes",
            f"motion:{world.motion}:no",
        ]
        assert _labels(reply.components) == [f"Yes #{world.motion}", f"No #{world.motion}"]

        voted = await _click(harness, f"motion:{world.motion}:yes", director, reply.components)
        assert f"Your vote on motion {world.motion}: yes." in (voted.reply.content or "")
        again = (await harness.command("my votes", user=director)).reply
        assert "No open motion awaits your vote" in again.text() and not again.components

        hq = members(harness)["HQ"]  # not of the electorate
        assert "No open motion" in (await harness.command("my votes", user=hq)).reply.text()


async def test_dm_vote_buttons_vote_for_an_elector_and_refuse_others(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    _, world = world_file
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (_bot, harness, _clock):
        components = dm_vote_buttons(DEFAULT_GUILD_ID, world.motion)
        yes, _no = _custom_ids(components)
        hq = members(harness)["HQ"]
        harness.seat(DEFAULT_GUILD_ID, [hq])
        harness.seat(OTHER_GUILD_ID, [])
        before = dump(path)
        stranger = harness.member("Director", guild_id=OTHER_GUILD_ID, user_id=DIRECTORS[2] + 1000)
        refused = await _click(harness, yes, stranger, components, dm=True)
        assert refused.reply.ephemeral and refused.reply.content == NOT_A_MEMBER
        refused = await _click(harness, yes, hq, components, dm=True)
        assert refused.reply.ephemeral and "Only the directors" in (refused.reply.content or "")
        other = dm_vote_buttons(OTHER_GUILD_ID, world.motion)
        director = harness.member("Director", user_id=DIRECTORS[2])
        refused = await _click(harness, _custom_ids(other)[0], director, other, dm=True)
        assert refused.reply.content == NOT_A_MEMBER
        unknown = dm_vote_buttons(123, world.motion)  # a server the bot is not in
        refused = await _click(harness, _custom_ids(unknown)[0], director, unknown, dm=True)
        assert refused.reply.content == NOT_A_MEMBER
        assert dump(path) == before

        voted = await _click(harness, yes, director, components, dm=True)
        assert voted.reply.ephemeral
        assert f"Your vote on motion {world.motion}: yes." in (voted.reply.content or "")
        listed = (await harness.command("my votes", user=director)).reply
        assert "No open motion awaits your vote" in listed.text()


async def test_my_is_refused_in_a_direct_message_and_listed_by_help(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (_bot, harness, _clock):
        player = members(harness)["player"]
        for path in ("my matches", "my games", "my votes"):
            refused = (await harness.command(path, user=player, dm=True)).reply
            assert refused.ephemeral
            assert refused.content == "This command only works in a server.", path
        listed = "".join(r.text() for r in (await harness.command("help", user=player)).replies)
        for path in ("/my matches", "/my games", "/my votes"):
            assert path in listed
