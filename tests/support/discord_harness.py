"""Drive Arbiter the way Discord does, in tests: `bot.offline.discord_stub` with the tests'
world (two guilds) and loud failures.

The stub (in the product, since `arbiter replay` uses it too) builds real interactions from
raw payloads, runs them through the real `bot.app.tree` and records what the bot sent at the HTTP
boundary; see its docstring. The harness adds what a test wants: two guilds
(`DEFAULT_GUILD_ID`, `OTHER_GUILD_ID`) with roles `HQ`, `Director`, `Arbiter` and channels
`general`, `announcements`, keyword helpers, and assertions: a command that logs an error
(unless `errors_expected`), leaves a task pending or failing, or makes a REST call nobody
answers fails the test.

    async def test_show(harness):
        admin = harness.member(permissions=harness.MANAGE_SERVER)
        reply = await harness.command("setup show", user=admin)
        assert reply.ephemeral and reply.embeds[0]["title"] == "Arbiter set-up"

    reply = await harness.command("setup set", user=admin, hq_role=harness.role("HQ"))
    reply = await harness.command("help", user=admin, dm=True)  # in a direct message
    choices = await harness.autocomplete("standings", user=admin, focused="division", division="Pr")
    reply = await harness.click("vote:yes", message_id=reply.message_id, user=admin)
    reply.posts  # messages it posted to channels (an announcement): .channel_id, .content
"""

from __future__ import annotations

from typing import Any

import discord

from bot.offline.discord_members import Member
from bot.offline.discord_messages import Outcome, Post, Reply, Upload, message_limit_problems
from bot.offline.discord_stub import DiscordStub

__all__ = [
    "DEFAULT_GUILD_ID",
    "OTHER_GUILD_ID",
    "DiscordHarness",
    "Member",
    "Outcome",
    "Post",
    "Reply",
    "Upload",
    "message_limit_problems",
]

DEFAULT_GUILD_ID = 800_000_000_000_000_001
OTHER_GUILD_ID = 800_000_000_000_000_002
ROLES = ("HQ", "Director", "Arbiter")


class DiscordHarness(DiscordStub):
    """The offline Discord with two guilds; every run is checked."""

    def __init__(self, bot: discord.Client) -> None:
        super().__init__(bot)
        self.add_guild(DEFAULT_GUILD_ID, roles=ROLES)
        self.add_guild(OTHER_GUILD_ID, roles=ROLES)

    def check(self) -> None:
        """Fail the test if a REST call got no answer (it would have reached the network)."""
        assert not self.unanswered, f"REST calls without a recorded answer: {self.unanswered}"

    def role(self, name: str, guild_id: int = DEFAULT_GUILD_ID) -> int:
        """The id of the role `name` in `guild_id`."""
        return super().role(name, guild_id)

    def channel(self, name: str, guild_id: int = DEFAULT_GUILD_ID) -> int:
        """The id of the text channel `name` in `guild_id`."""
        return super().channel(name, guild_id)

    def member(  # type: ignore[override]
        self,
        *roles: str,
        permissions: discord.Permissions | None = None,
        guild_id: int = DEFAULT_GUILD_ID,
        user_id: int | None = None,
        name: str = "member",
    ) -> Member:
        """A member of `guild_id` holding the named roles and `permissions` (none by default)."""
        return super().member(
            *roles, guild_id=guild_id, permissions=permissions, user_id=user_id, name=name
        )

    async def run(  # type: ignore[override]
        self, payload: dict[str, Any], *, errors_expected: bool = False
    ) -> Outcome:
        """Deliver one raw interaction payload and return what the bot sent; fails the test if
        a task it started is left pending or raised, if an error was logged (unless
        `errors_expected`, then at least one is required and `outcome.errors` holds them), or
        if a REST call had no recorded answer."""
        outcome = await super().run(payload)
        assert not outcome.stray, "; ".join(outcome.stray)
        if errors_expected:
            assert outcome.errors, "an error was expected to be logged, but none was"
        else:
            assert not outcome.errors, "unexpected errors logged: " + "; ".join(
                f"{record.name}: {record.getMessage()}" for record in outcome.errors
            )
        assert not outcome.unanswered, f"REST calls without a recorded answer: {outcome.unanswered}"
        return outcome

    async def command(
        self,
        path: str,
        *,
        user: Member,
        dm: bool = False,
        errors_expected: bool = False,
        **options: Any,
    ) -> Outcome:
        """Invoke `/path` as `user` with `options` (in a DM with `dm=True`); returns what the
        bot sent. A logged error fails the test unless `errors_expected`."""
        payload = self.command_payload(path, user, options, dm=dm)
        return await self.run(payload, errors_expected=errors_expected)

    async def set_up(self, user: Member | None = None, **channels: str) -> Outcome:
        """`/setup set` the HQ, Director and Arbiter roles and each channel option named here
        (e.g. `announcements="announcements"`), as `user` (default: a server manager)."""
        manager = user or self.member(permissions=self.MANAGE_SERVER)
        return await self.command(
            "setup set",
            user=manager,
            hq_role=self.role("HQ"),
            director_role=self.role("Director"),
            arbiter_role=self.role("Arbiter"),
            **{option: self.channel(name) for option, name in channels.items()},
        )

    async def autocomplete(
        self, path: str, *, user: Member, focused: str, **options: Any
    ) -> list[dict[str, Any]]:
        """The choices the bot offers while `user` types option `focused` of `/path`."""
        options.setdefault(focused, "")
        outcome = await self.run(self.command_payload(path, user, options, kind=4, focused=focused))
        assert outcome.reply.type == 8, f"expected autocomplete choices, got {outcome.replies}"
        return outcome.reply.choices

    async def click(
        self,
        custom_id: str,
        *,
        user: Member,
        message_id: int,
        component_type: int = 2,
        values: list[str] | None = None,
    ) -> Outcome:
        """Click a component (button 2, select 3…) on the bot's message `message_id`."""
        # The clicked message as Discord sends it: with its components (persistent
        # DynamicItems are matched against them), when the bot posted it to a channel.
        posted = self.sent.get(message_id)
        payload = self.click_payload(
            custom_id,
            user,
            message_id,
            message=posted.payload if posted else None,
            channel_id=posted.channel_id if posted else None,
            component_type=component_type,
            values=values,
        )
        return await self.run(payload)
