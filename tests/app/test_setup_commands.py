"""`/setup` and `/help` through the real command tree, and guild isolation end to end."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.arbiter import ArbiterBot
from bot.app.permissions import requirements
from storage.guild import GuildStore
from storage.shared.guild_settings import GuildSettings
from tests.support.discord_harness import OTHER_GUILD_ID, DiscordHarness


async def test_setup_without_manage_server_is_refused_and_changes_nothing(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    member = harness.member("HQ")
    reply = await harness.command("setup set", user=member, hq_role=harness.role("HQ"))
    assert reply.type == 4
    assert reply.ephemeral
    assert "Manage Server" in reply.content
    async with GuildStore(bot.database, member.guild_id).read() as view:
        assert (await view.settings.get()).hq_role_id is None
        assert await view.audit.recent() == []

    shown = await harness.command("setup show", user=member)
    assert shown.ephemeral and "Manage Server" in shown.content


async def test_setup_set_stores_roles_and_show_reports_them(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    admin = harness.member(permissions=harness.MANAGE_SERVER)
    reply = await harness.set_up(admin, announcements="announcements")
    assert reply.ephemeral and reply.embeds[0]["title"] == "Arbiter set-up saved"

    async with GuildStore(bot.database, admin.guild_id).read() as view:
        settings = await view.settings.get()
        [entry] = await view.audit.recent()
    assert (entry.actor_id, entry.action) == (admin.id, "setup.set")
    assert settings.hq_role_id == harness.role("HQ")
    assert settings.director_role_id == harness.role("Director")
    assert settings.arbiter_role_id == harness.role("Arbiter")
    assert settings.announcements_channel_id == harness.channel("announcements")

    shown = await harness.command("setup show", user=admin)
    assert shown.ephemeral
    fields = {field["name"]: field["value"] for field in shown.embeds[0]["fields"]}
    assert fields == {
        "League HQ role": f"<@&{harness.role('HQ')}>",
        "Director role": f"<@&{harness.role('Director')}>",
        "Arbiter role": f"<@&{harness.role('Arbiter')}>",
        "Announcements channel": f"<#{harness.channel('announcements')}>",
        "Directors' channel (motions)": "the announcements channel",
        "Arbiters' channel (disputed tour results)": "the announcements channel",
    }


async def test_setup_set_changes_only_the_options_given(harness: DiscordHarness) -> None:
    admin = harness.member(permissions=harness.MANAGE_SERVER)
    await harness.command("setup set", user=admin, hq_role=harness.role("HQ"))
    await harness.command("setup set", user=admin, arbiter_role=harness.role("Arbiter"))
    fields = {
        f["name"]: f["value"]
        for f in (await harness.command("setup show", user=admin)).embeds[0]["fields"]
    }
    assert fields["League HQ role"] == f"<@&{harness.role('HQ')}>"
    assert fields["Arbiter role"] == f"<@&{harness.role('Arbiter')}>"
    assert fields["Director role"] == "not set"


async def test_setup_set_with_no_option_says_what_to_give(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    admin = harness.member(permissions=harness.MANAGE_SERVER)
    reply = await harness.command("setup set", user=admin)
    assert reply.ephemeral and "Nothing to change" in reply.content
    assert "error id" not in reply.content
    async with GuildStore(bot.database, admin.guild_id).read() as view:
        assert await view.audit.recent() == []


async def test_one_guilds_setup_is_invisible_to_another(harness: DiscordHarness) -> None:
    admin = harness.member(permissions=harness.MANAGE_SERVER)
    await harness.command("setup set", user=admin, hq_role=harness.role("HQ"))
    other_admin = harness.member(permissions=harness.MANAGE_SERVER, guild_id=OTHER_GUILD_ID)
    shown = await harness.command("setup show", user=other_admin)
    values = [field["value"] for field in shown.embeds[0]["fields"]]
    assert values == ["not set"] * 4 + ["the announcements channel"] * 2


async def test_help_lists_only_the_commands_the_caller_may_use(harness: DiscordHarness) -> None:
    member = harness.member()
    text = (await harness.command("help", user=member)).reply.text()
    assert "/help" in text
    assert "/setup" not in text

    admin = harness.member(permissions=harness.MANAGE_SERVER)
    reply = await harness.command("help", user=admin)
    assert reply.ephemeral
    assert "/setup show" in reply.text() and "/setup set" in reply.text()


async def test_setup_in_a_direct_message_is_refused_as_server_only_and_writes_nothing(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    # No one holds Manage Server in a DM: the refusal must say the command needs a server.
    admin = harness.member(permissions=harness.MANAGE_SERVER)
    for path, options in (("setup show", {}), ("setup set", {"hq_role": harness.role("HQ")})):
        refused = await harness.command(path, user=admin, dm=True, **options)
        assert refused.ephemeral
        assert refused.content == "This command only works in a server.", path
    async with bot.database.read() as connection:
        for table in ("guild_settings", "audit"):
            cursor = await connection.execute(f"SELECT COUNT(*) FROM {table}")
            assert (await cursor.fetchone())[0] == 0, table

    listed = (await harness.command("help", user=admin, dm=True)).reply.text()
    assert "/help" in listed and "/setup" not in listed


async def test_help_with_many_commands_fits_discords_embed_limits(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    # Discord refuses an embed description over 4096 characters (and a message whose embeds
    # total over 6000): a long command list must be split, with every command still listed.
    async def callback(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ok")

    names = []
    for group_number in range(3):
        group = app_commands.Group(name=f"many{group_number}", description="Many commands.")
        for number in range(20):
            group.add_command(
                app_commands.Command(name=f"c{number:02}", description="d" * 100, callback=callback)
            )
            names.append(f"/many{group_number} c{number:02}")
        bot.tree.add_command(group)

    outcome = await harness.command("help", user=harness.member())
    assert len(outcome.replies) > 1
    listed = ""
    for reply in outcome.replies:
        assert reply.ephemeral
        [embed] = reply.embeds
        assert len(embed["description"]) <= 4096
        assert sum(len(embed.get(key, "")) for key in ("title", "description")) <= 6000
        listed += embed["description"] + "\n"
    assert all(f"`{name}`" in listed for name in names)
    assert "`/help`" in listed


def test_every_check_of_a_command_is_a_requirement_it_declares(bot: ArbiterBot) -> None:
    """/help decides from what each command declares (`@requires`, kept in its `extras`), so
    the tree and /help agree only if a command has no other check — no check added apart
    from its requirements, and no group or cog of Arbiter with an `interaction_check` of its
    own (discord.py would run that first, unseen by /help)."""
    commands_ = [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)]
    assert commands_
    for command in commands_:
        assert list(command.checks) == list(requirements(command)), command.qualified_name
    groups = [c for c in bot.tree.walk_commands() if isinstance(c, app_commands.Group)]
    for group in groups:
        own = type(group).interaction_check is app_commands.Group.interaction_check
        assert own, f"/{group.qualified_name} has its own interaction_check"
    for name, cog in bot.cogs.items():
        own = type(cog).interaction_check is commands.Cog.interaction_check
        assert own, f"cog {name} has its own interaction_check"


async def test_help_lists_exactly_the_commands_whose_requirements_the_caller_meets(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    """A plain member sees no command needing a role; HQ sees HQ's commands but not the
    director's, the arbiter's or Manage Server's; /help asks the same requirement objects the
    tree runs."""
    admin = harness.member(permissions=harness.MANAGE_SERVER)
    await harness.command("setup set", user=admin, hq_role=harness.role("HQ"))
    member, hq = harness.member(), harness.member("HQ")
    shown = {}
    for who, user in (("member", member), ("hq", hq)):
        outcome = await harness.command("help", user=user)
        shown[who] = "\n".join(reply.text() for reply in outcome.replies)
    assert "`/club approve`" not in shown["member"] and "`/club approve`" in shown["hq"]
    assert "`/match reschedule`" not in shown["hq"] and "`/setup set`" not in shown["hq"]
    assert "`/standings`" in shown["member"] and "`/help`" in shown["member"]
    refused = await harness.command("club approve", user=member, club="A")
    assert refused.ephemeral and "league HQ" in refused.content


async def test_setup_refuses_everyone_as_a_role_and_writes_nothing(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    # @everyone as the director role would give every member a director's powers.
    admin = harness.member(permissions=harness.MANAGE_SERVER)
    everyone = harness.role("@everyone")
    reply = await harness.command(
        "setup set", user=admin, director_role=everyone, hq_role=harness.role("HQ")
    )
    assert reply.ephemeral
    assert reply.content == (
        "@everyone cannot be the director role: choose a role only directors hold."
    )
    async with GuildStore(bot.database, admin.guild_id).read() as view:
        assert await view.settings.get() == GuildSettings(admin.guild_id)
        assert await view.audit.recent() == []
