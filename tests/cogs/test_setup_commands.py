"""`/setup` and `/help` through the real command tree, and guild isolation end to end."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.arbiter import ArbiterBot
from storage.guild import GuildStore
from storage.guild_settings import GuildSettings
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
    reply = await harness.command(
        "setup set",
        user=admin,
        hq_role=harness.role("HQ"),
        director_role=harness.role("Director"),
        arbiter_role=harness.role("Arbiter"),
        announcements=harness.channel("announcements"),
    )
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


class _Closed(app_commands.Group):
    """A group whose own check refuses everyone."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return False


class _ClosedCog(commands.Cog):
    """A cog whose cog-wide check refuses everyone."""

    @app_commands.command(name="cogcheck", description="Refused by its cog's check.")
    async def cogcheck(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ran")

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return False


async def test_help_honours_group_and_cog_wide_checks(
    harness: DiscordHarness, bot: ArbiterBot
) -> None:
    # discord.py runs a group's and a cog's interaction_check before a command's own checks;
    # /help must not list a command those refuse.
    async def callback(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("ran")

    closed = _Closed(name="closed", description="Refused by its group's check.")
    closed.add_command(app_commands.Command(name="inside", description="d", callback=callback))
    bot.tree.add_command(closed)
    await bot.add_cog(_ClosedCog())

    member = harness.member()
    for path in ("closed inside", "cogcheck"):
        refused = await harness.command(path, user=member)
        assert refused.ephemeral, path
        assert refused.content == "You are not allowed to use this command here.", path
    listed = (await harness.command("help", user=member)).reply.text()
    assert "/help" in listed
    assert "/closed" not in listed and "/cogcheck" not in listed


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
