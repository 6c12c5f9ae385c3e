"""/club through the real tree: register (chess.com read from the 127.0.0.1 fake, deferred
first), HQ's approval and rejection, the card, the list, admins added and removed, the
reminder channel — each checked in the database it changed."""

from __future__ import annotations

from pathlib import Path

from storage.guild import GuildStore
from tests.support.chesscom_fake import running_fake
from tests.support.command_world import (
    ADMINS,
    PENDING,
    CommandWorld,
    copy_world,
    dump,
    invoke,
    league_bot,
    members,
)
from tests.support.discord_harness import DEFAULT_GUILD_ID

DEV = "chess-com-developer-community"


async def test_register_reads_chesscom_then_hq_approves_and_the_card_shows_it(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, fixtures_dir: Path
) -> None:
    with running_fake(fixtures_dir) as fake:
        async with league_bot(copy_world(world_file, tmp_path), base_url=fake.base_url) as (
            bot,
            harness,
            _,
        ):
            cast = members(harness)
            player, hq = cast["player"], cast["HQ"]
            second = harness.member(user_id=301, name="second")
            registered = await invoke(
                harness,
                "club register",
                player,
                {"chesscom_club": f"https://www.chess.com/club/{DEV}", "admin2": second},
            )
            assert registered.replies[0].type == 5 and registered.replies[0].ephemeral  # deferred
            assert "Chess.com Developer Community" in registered.replies[-1].text()
            assert "pending" in registered.replies[-1].text()
            pending = await harness.command("club list", user=player, status="pending")
            assert "Chess.com Developer Community" in pending.reply.text()

            approved = await harness.command(
                "club approve", user=hq, club="Chess.com Developer Community"
            )
            assert "approved" in (approved.reply.content or "")
            card = await harness.command(
                "club info", user=player, club="Chess.com Developer Community"
            )
            text = card.reply.text() + "".join(r.text() for r in card.replies[1:])
            assert "14905" in text.replace(",", "") and "928" in text
            store = GuildStore(bot.database, DEFAULT_GUILD_ID)
            async with store.read() as view:
                club = await view.clubs.by_chesscom(DEV)
                assert club is not None and club.status == "approved"
                assert set(await view.club_admins.admins_of(club.id)) == {player.id, 301}


async def test_reject_says_why_and_changes_the_status(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (bot, harness, _):
        hq = members(harness)["HQ"]
        outcome = await harness.command("club reject", user=hq, club=PENDING, reason="No admins.")
        assert "rejected" in (outcome.reply.content or "") and "No admins." in (
            outcome.reply.content or ""
        )
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            club = await view.clubs.by_name(PENDING)
        assert club is not None and club.status == "rejected"


async def test_admins_are_added_and_removed_but_two_remain_and_the_channel_is_set(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    path = copy_world(world_file, tmp_path)
    async with league_bot(path) as (bot, harness, _):
        admin = members(harness)["club admin"]
        added = await invoke(
            harness, "club admin-add", admin, {"club": "A", "user": harness.member(user_id=299)}
        )
        assert added.reply.ephemeral and "now an admin" in (added.reply.content or "")
        for user_id in (299, ADMINS["A"][2]):
            removed = await invoke(
                harness,
                "club admin-remove",
                admin,
                {"club": "A", "user": harness.member(user_id=user_id)},
            )
            assert "no longer an admin" in (removed.reply.content or "")
        before = dump(path)
        kept = await invoke(
            harness,
            "club admin-remove",
            admin,
            {"club": "A", "user": harness.member(user_id=ADMINS["A"][1])},
        )
        assert kept.reply.ephemeral and "2" in (kept.reply.content or "")
        assert dump(path) == before
        channel = harness.channel("general")
        set_to = await harness.command("club channel", user=admin, club="A", channel=channel)
        assert f"<#{channel}>" in (set_to.reply.content or "")
        async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
            club = await view.clubs.by_name("A")
            admins = await view.club_admins.admins_of("A")
        assert club is not None and club.reminder_channel_id == channel
        assert sorted(admins) == list(ADMINS["A"][:2])


async def test_club_autocomplete_offers_the_callers_own_clubs_first(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    async with league_bot(copy_world(world_file, tmp_path)) as (_, harness, _clock):
        admin_b = members(harness)["other club's admin"]
        choices = await harness.autocomplete("club info", user=admin_b, focused="club")
        assert 1 <= len(choices) <= 25 and choices[0]["value"] == "B"


async def test_cl_2_4_a_rejected_club_registers_again_through_the_tree(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, fixtures_dir: Path
) -> None:
    """CL-2..4 (issue 19): HQ rejects a registration; the club registers again with new
    admins — pending once more, the same club row, the rejected admins replaced."""
    with running_fake(fixtures_dir) as fake:
        async with league_bot(copy_world(world_file, tmp_path), base_url=fake.base_url) as (
            bot,
            harness,
            _,
        ):
            cast = members(harness)
            player, hq = cast["player"], cast["HQ"]
            url = f"https://www.chess.com/club/{DEV}"
            first = harness.member(user_id=301, name="first")
            await invoke(harness, "club register", player, {"chesscom_club": url, "admin2": first})
            name = "Chess.com Developer Community"
            rejected = await harness.command("club reject", user=hq, club=name, reason="Why.")
            assert "rejected" in (rejected.reply.content or "")
            again_admin = harness.member(user_id=302, name="again")
            other = harness.member(user_id=303, name="other")
            again = await invoke(
                harness, "club register", again_admin, {"chesscom_club": url, "admin2": other}
            )
            assert "pending" in again.replies[-1].text(), again.replies[-1].text()
            async with GuildStore(bot.database, DEFAULT_GUILD_ID).read() as view:
                club = await view.clubs.by_chesscom(DEV)
                assert club is not None and club.status == "pending"
                assert set(await view.club_admins.admins_of(club.id)) == {302, 303}
            twice = await invoke(
                harness, "club register", player, {"chesscom_club": url, "admin2": first}
            )
            assert "already registered" in twice.replies[-1].text()
