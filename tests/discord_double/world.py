"""What the Discord double knows: the application and its bot user, guilds with their roles,
text channels and members, the bot's DM channels, the messages in each channel, and the
interactions it sent.

Everything is built as Discord's API v10 sends it (object shapes from Discord's developer
documentation: Guild, Role, Channel, Guild Member, User, Message, Attachment); users, roles
and members reuse the offline stub's builders (`bot.offline.discord_stub`) so the double
and the stub hand the bot the same shapes. Ids are snowflakes: each new id takes the next
millisecond of its own clock, so consecutive guilds fall on consecutive shards
(`(guild_id >> 22) % shard_count`).
"""

from __future__ import annotations

import itertools
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.offline.discord_members import Member as StubMember
from bot.offline.discord_members import role_payload, user_payload
from bot.offline.discord_messages import EPHEMERAL

DISCORD_EPOCH_MS = 1_420_070_400_000
"""Discord's epoch (2015-01-01T00:00:00Z) in Unix milliseconds."""
TEXT = 0
LOADING = 128
"""Message flag of a deferred response's "thinking…" message."""
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    use_application_commands=True,
    send_messages_in_threads=True,
    manage_messages=True,
)
"""What the bot's own role grants (about what the README's invite link asks for)."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events on."""
    return (guild_id >> 22) % shard_count


def iso(seconds: float) -> str:
    """A Unix time as Discord's ISO 8601 timestamps."""
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + "+00:00"


class Snowflakes:
    """Snowflake ids: the current millisecond, or the one after the last id's, whichever is
    later (so no two ids share a timestamp), with a counter in the low bits."""

    def __init__(self) -> None:
        self._last_ms = 0
        self._count = itertools.count()

    def next(self) -> int:
        """A new id."""
        now = int(time.time() * 1000) - DISCORD_EPOCH_MS
        self._last_ms = max(now, self._last_ms + 1)
        return (self._last_ms << 22) | (next(self._count) & 0xFFF)


@dataclass
class Role:
    """A guild role."""

    id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False

    def payload(self) -> dict[str, Any]:
        """As Discord sends it."""
        data = role_payload(self.id, self.name, self.position, self.permissions)
        data["managed"] = self.managed
        return data


@dataclass
class Channel:
    """A guild text channel; `bot_denied` is an overwrite taking Send Messages from the bot."""

    id: int
    guild_id: int
    name: str
    position: int = 0
    bot_denied: bool = False

    def payload(self, bot_id: int, *, with_guild: bool = True) -> dict[str, Any]:
        """As Discord sends it (GUILD_CREATE leaves `guild_id` out)."""
        overwrites = []
        if self.bot_denied:
            deny = discord.Permissions(send_messages=True).value
            overwrites.append({"id": str(bot_id), "type": 1, "allow": "0", "deny": str(deny)})
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": TEXT,
            "name": self.name,
            "position": self.position,
            "permission_overwrites": overwrites,
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if with_guild:
            data["guild_id"] = str(self.guild_id)
        return data


@dataclass
class DirectChannel:
    """The bot's DM channel with one user. It is in no guild, and Discord refuses messages into
    it with 50007 while the user's direct messages are closed."""

    id: int
    user: dict[str, Any]
    guild_id: None = None
    bot_denied: bool = False

    def payload(self, bot_id: int, *, with_guild: bool = True) -> dict[str, Any]:
        """As Discord sends it: type 1, the user as its one recipient."""
        return {"id": str(self.id), "type": 1, "last_message_id": None, "recipients": [self.user]}


@dataclass
class Member:
    """A member of one guild."""

    id: int
    name: str
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    bot: bool = False
    joined_at: str = "2026-01-01T00:00:00+00:00"

    def payload(self, permissions: int | None = None) -> dict[str, Any]:
        """The guild member object (`permissions` only inside interactions)."""
        stub = StubMember(
            self.id,
            self.name,
            self.guild_id,
            tuple(self.role_ids),
            discord.Permissions(permissions or 0),
        )
        data = stub.payload()
        data["user"] = user_payload(self.id, self.name, bot=self.bot)
        data["joined_at"] = self.joined_at
        data["pending"] = False
        data["avatar"] = None
        data["premium_since"] = None
        if permissions is None:
            del data["permissions"]
        return data


@dataclass
class Guild:
    """A guild: roles (the first is @everyone, its id the guild's), channels and members."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)

    def role(self, name: str) -> Role:
        """The role called `name`; KeyError if none."""
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"{self.name} has no role {name!r}")

    def channel(self, name: str) -> Channel:
        """The text channel called `name`; KeyError if none."""
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"{self.name} has no channel #{name}")

    def member(self, name: str) -> Member:
        """The member called `name`; KeyError if none."""
        for member in self.members.values():
            if member.name == name:
                return member
        raise KeyError(f"{self.name} has no member {name!r}")

    def permissions(self, member: Member, channel: Channel | None = None) -> int:
        """Discord's computed permissions of `member` (in `channel`): the union of its roles'
        (with @everyone), everything for the owner or an administrator, less the channel's
        overwrite for the bot."""
        value = self.roles[self.id].permissions
        for role_id in member.role_ids:
            value |= self.roles[role_id].permissions
        if member.id == self.owner_id or value & discord.Permissions(administrator=True).value:
            return discord.Permissions.all().value
        if channel is not None and channel.bot_denied and member.bot:
            value &= ~discord.Permissions(send_messages=True).value
        return value

    def create_payload(self, bot_id: int, *, members: bool, large_threshold: int) -> dict[str, Any]:
        """GUILD_CREATE's data: the whole guild. `members` (the member list is sent): only
        with the Presences intent and, for a guild larger than `large_threshold`, not at all
        here (Discord: "if you don't have the GUILD_PRESENCES intent … members … will only
        contain your bot and users in voice channels"); the bot itself is always listed."""
        large = len(self.members) > large_threshold
        listed = [
            m.payload() for m in self.members.values() if m.id == bot_id or (members and not large)
        ]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "max_members": 500_000,
            "vanity_url_code": None,
            "features": [],
            "roles": [role.payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "channels": [c.payload(bot_id, with_guild=False) for c in self.channels.values()],
            "threads": [],
            "members": listed,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "member_count": len(self.members),
            "large": large,
            "unavailable": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
        }


@dataclass
class Attachment:
    """A file the bot sent with a message."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None

    def payload(self, base: str) -> dict[str, Any]:
        """As Discord returns it."""
        url = f"{base}/attachments/{self.id}/{self.filename}"
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }


@dataclass
class Message:
    """A message the bot sent: posted to a channel, or an interaction's response or follow-up
    (`interaction_id`); `edits` holds every later body, `deleted` whether it is gone."""

    id: int
    channel_id: int
    guild_id: int | None
    body: dict[str, Any]
    attachments: list[Attachment] = field(default_factory=list)
    nonce: str | None = None
    interaction_id: int | None = None
    webhook_id: int | None = None
    edits: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False
    created: float = field(default_factory=time.time)

    @property
    def content(self) -> str:
        """The text."""
        return str(self.body.get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The embeds."""
        return list(self.body.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        """The component rows."""
        return list(self.body.get("components") or [])

    @property
    def flags(self) -> int:
        """Message flags (64 ephemeral, 128 loading)."""
        return int(self.body.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        """Whether only the invoking member sees it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def files(self) -> dict[str, bytes]:
        """The attached files by name."""
        return {a.filename: a.data for a in self.attachments}

    def edit(self, body: dict[str, Any], attachments: list[Attachment] | None) -> None:
        """Apply an edit: the keys given replace the old ones (as Discord's PATCH)."""
        self.body = self.body | body
        if attachments is not None:
            self.attachments = attachments
        self.edits.append(body)

    def text(self) -> str:
        """Content plus every embed's title, description, fields and footer."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("title", ""), embed.get("description", "")]
            for item in embed.get("fields", []):
                parts += [item["name"], item["value"]]
            parts.append((embed.get("footer") or {}).get("text", ""))
        return "\n".join(p for p in parts if p)

    def payload(self, author: dict[str, Any], base: str) -> dict[str, Any]:
        """The message object as Discord returns it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": author,
            "content": self.content,
            "timestamp": iso(self.created),
            "edited_timestamp": iso(time.time()) if self.edits else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(base) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": 0 if self.interaction_id is None else 20,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.nonce is not None:
            data["nonce"] = self.nonce
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        return data


def interaction_token() -> str:
    """A fresh interaction token (URL-safe, as Discord's)."""
    return "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48)
