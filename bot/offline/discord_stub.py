"""Discord, offline: real interactions in, recorded replies and channel posts out.

`DiscordStub` builds a real `discord.Interaction` from a raw interaction payload and hands it to the
bot the way the gateway does. The real `bot.app.tree` thus runs its checks, transformers,
autocomplete, views and error handler. The stub answers at Discord's HTTP boundary. Interaction
replies go through the webhook adapter in the context variable
`discord.webhook.async_.async_context`, which it replaces with a recorder. Messages posted or edited
in channels go through `bot.http.request`, which it answers as Discord would, with nonces, a 404 for
an unknown channel or message, a 403 for a denied channel, and a 400 over Discord's limits. Direct
messages open a member's DM channel and land in `dms`, refused with 50007 once the member closed
them (`close_dms`). A guild's member is looked up by id, and one who `leave`s is a 404.
Attachments are read from it through `bot.http.get_from_cdn`. Any other REST call is recorded as
unanswered. Guilds, roles, channels and members live in the bot's connection state. Their ids are
derived from their names by `stable_id`, and message and interaction ids come from a counter of the
stub, so the same interactions give the same ids.

The discord.py internals it touches are used here only, so a discord.py upgrade breaks one place.
They are `_connection.parse_interaction_create`, `_add_guild_from_data`, `http.request` and
`http.get_from_cdn`. The webhook adapter that records replies is in `bot.offline.discord_http`,
the recorded replies and posts in `bot.offline.discord_messages`. The replay in
`bot.offline.replay` and the tests' harness in `tests/support/discord_harness.py` are both built
on it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import discord
from discord import app_commands
from discord.webhook.async_ import async_context

from bot.offline.discord_http import (
    REASONS,
    RecordingAdapter,
    http_error,
    message_body,
    refuse_over_limits,
)
from bot.offline.discord_members import Member, role_payload, user_payload
from bot.offline.discord_messages import (
    APPLICATION_ID,
    ATTACHMENT_LIMIT,
    BOT_USER_ID,
    FIRST_ID,
    TIMESTAMP,
    Outcome,
    Post,
    Upload,
    stable_id,
)
from bot.offline.discord_tasks import logged_errors, settle, started_tasks


def find_command(
    tree: app_commands.CommandTree, path: str
) -> tuple[list[str], app_commands.Command[Any, ..., Any]]:
    """The slash command `/path` of `tree` and its names, or LookupError if there is none.

    Subcommands are separated by spaces.
    """
    names = path.split()
    node: Any = tree.get_command(names[0]) if names else None
    for name in names[1:]:
        node = node.get_command(name) if isinstance(node, app_commands.Group) else None
    if not isinstance(node, app_commands.Command):
        raise LookupError(f"no slash command /{path}")
    return names, node


class DiscordStub:
    """Discord as the bot sees it, offline: guilds in its cache, interactions delivered,
    replies and channel messages recorded."""

    MANAGE_SERVER = discord.Permissions(manage_guild=True)

    def __init__(self, bot: discord.Client) -> None:
        self._ids = itertools.count(FIRST_ID)
        self.posts: list[Post] = []
        self.sent: dict[int, Post] = {}  # every channel message, by message id (latest edit)
        self.requests: list[tuple[str, int]] = []  # (method, channel id) of each message call
        self.unanswered: list[str] = []
        self.denied: set[int] = set()
        self.roles: dict[int, dict[str, int]] = {}
        self.channels: dict[int, dict[str, int]] = {}
        self.guild_names: dict[int, str] = {}
        self.members: dict[int, set[int]] = {}  # guild id → the ids of its members
        self.direct: list[Post] = []  # every direct message, in order
        self.closed: set[int] = set()  # users whose direct messages are closed
        self._nonces: dict[str, Post] = {}
        self._dm_channels: dict[int, int] = {}  # DM channel id → its user
        self._answers: list[tuple[str, int | None, discord.HTTPException]] = []
        self._files: dict[str, bytes] = {}
        self.attach(bot)

    def attach(self, bot: discord.Client) -> None:
        """Answers for `bot`: its application and user are set, and its REST calls and CDN reads
        served here.

        A second bot, as after a restart, finds Discord as the first left it, with its messages, ids
        and uploads. Put the guilds in its cache again with `add_guild` and `seat`.
        """
        self.bot = bot
        self.tree: app_commands.CommandTree = bot.tree  # type: ignore[attr-defined]
        state = bot._connection
        state.application_id = APPLICATION_ID
        state.user = discord.ClientUser(
            state=state,
            data=user_payload(BOT_USER_ID, "Arbiter", bot=True),  # type: ignore[arg-type]
        )
        bot.http.request = self._rest_request  # type: ignore[method-assign]
        bot.http.get_from_cdn = self._cdn  # type: ignore[method-assign]

    def fresh_id(self) -> int:
        """A new id for messages, interactions and anonymous members, counted so it is
        deterministic.
        """
        return next(self._ids)

    # -- Discord's REST API ------------------------------------------------------------------

    async def _rest_request(
        self, route: Any, *, json: Any = None, form: Any = None, **_: Any
    ) -> dict[str, Any]:
        # This is discord.py's one door to the REST API, `HTTPClient.request`. Channel messages
        # are posted and edited as Discord would. A repeated nonce with enforce_nonce returns the
        # message already created, and an unknown channel or message is 404. DM channels open
        # and members are looked up. Any other call is recorded as unanswered and raises.
        key = (route.method, route.path)
        if key == ("POST", "/users/@me/channels"):
            return self._dm_channel_payload(int(json["recipient_id"]))
        if key == ("GET", "/guilds/{guild_id}/members/{member_id}"):
            return self._member_payload(int(route.guild_id), int(route.url.rsplit("/", 1)[1]))
        if key not in (
            ("POST", "/channels/{channel_id}/messages"),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ):
            self.unanswered.append(f"{route.method} {route.path}")
            raise NotImplementedError(
                f"the offline Discord has no answer for {route.method} {route.path}"
            )
        channel_id = int(route.channel_id)
        self.requests.append((route.method, channel_id))
        for index, (method, channel, answer) in enumerate(self._answers):
            if method == route.method and channel in (None, channel_id):
                del self._answers[index]
                raise answer
        recipient = self._dm_recipient(channel_id)
        if recipient is not None:
            return self._direct_message(recipient, channel_id, route.method, json, form)
        if channel_id not in self.channel_names():
            raise http_error(404, {"code": 10003, "message": "Unknown Channel"})
        if channel_id in self.denied:
            raise http_error(403, {"code": 50013, "message": "Missing Permissions"})
        body = message_body(json, form)
        refuse_over_limits(body)
        if route.method == "PATCH":
            message_id = int(route.url.rsplit("/", 1)[1])
            previous = self.sent.get(message_id)
            if previous is None or previous.channel_id != channel_id:
                raise http_error(404, {"code": 10008, "message": "Unknown Message"})
            post = Post(channel_id, previous.payload | body, message_id, edited=True)
        else:
            nonce = body.get("nonce")
            if body.get("enforce_nonce") and nonce in self._nonces:
                return self._channel_message(self._nonces[nonce])  # Discord: the same message
            post = Post(channel_id, body, self.fresh_id())
            if nonce is not None:
                self._nonces[nonce] = post
        self.sent[post.message_id] = post
        self.posts.append(post)
        return self._channel_message(post)

    def _direct_message(
        self, user_id: int, channel_id: int, method: str, json: Any, form: Any
    ) -> dict[str, Any]:
        # A message into a member's DM channel: refused with 50007 while their DMs are closed,
        # kept once per nonce as in a guild channel.
        if method != "POST":
            raise http_error(404, {"code": 10008, "message": "Unknown Message"})
        if user_id in self.closed:
            raise http_error(403, {"code": 50007, "message": "Cannot send messages to this user"})
        body = message_body(json, form)
        refuse_over_limits(body)
        nonce = body.get("nonce")
        if body.get("enforce_nonce") and nonce in self._nonces:
            return self._channel_message(self._nonces[nonce])
        post = Post(channel_id, body, self.fresh_id(), to=user_id)
        if nonce is not None:
            self._nonces[nonce] = post
        self.sent[post.message_id] = post
        self.direct.append(post)
        return self._channel_message(post)

    def _dm_channel_payload(self, user_id: int) -> dict[str, Any]:
        # POST /users/@me/channels: Discord opens the DM channel even when the user's DMs are
        # closed, and refuses the message sent into it.
        return {
            "id": str(self.dm_channel(user_id)),
            "type": 1,
            "last_message_id": None,
            "recipients": [user_payload(user_id, "member")],
        }

    def _member_payload(self, guild_id: int, user_id: int) -> dict[str, Any]:
        # GET /guilds/{guild_id}/members/{user_id}: a member of the guild, else 404 10007.
        if user_id not in self.members.get(guild_id, set()):
            raise http_error(404, {"code": 10007, "message": "Unknown Member"})
        return Member(id=user_id, name="member", guild_id=guild_id).payload()

    def _dm_recipient(self, channel_id: int) -> int | None:
        # The user whose DM channel `channel_id` is, if it is one the stub opened.
        return self._dm_channels.get(channel_id)

    async def _cdn(self, url: str) -> bytes:
        # Attachments a member uploaded with a command, read back by `Attachment.read()`.
        data = self._files.get(url)
        if data is None:
            raise http_error(404, {"code": 0, "message": "404: Not Found"})
        return data

    def _channel_message(self, post: Post) -> dict[str, Any]:
        return self.message_payload(post.message_id, post.payload, post.channel_id)

    def answer_next(
        self,
        method: str,
        status: int,
        *,
        channel_id: int | None = None,
        retry_after: float | None = None,
        times: int = 1,
    ) -> None:
        """Makes Discord answer the next `times` `method` message calls with the error `status`.

        The calls are those to `channel_id`, or to any channel. The status may be 503, or 429 with a
        Retry-After header.
        """
        data = {"code": 0, "message": REASONS.get(status, "Error")}
        for _ in range(times):
            error = http_error(status, data, retry_after=retry_after)
            self._answers.append((method, channel_id, error))

    def deny(self, channel_id: int) -> None:
        """Takes the bot's permission to post in `channel_id` away, so Discord answers 403."""
        self.denied.add(channel_id)

    # -- direct messages ---------------------------------------------------------------------

    def dm_channel(self, user_id: int) -> int:
        """The id of the bot's DM channel with `user_id`, the same in every run."""
        channel_id = stable_id("dm", user_id)
        self._dm_channels[channel_id] = user_id
        return channel_id

    @property
    def dms(self) -> dict[int, list[Post]]:
        """The direct messages each user received, in order: `stub.dms[user_id]`."""
        received: dict[int, list[Post]] = {}
        for post in self.direct:
            assert post.to is not None
            received.setdefault(post.to, []).append(post)
        return received

    def close_dms(self, user_id: int) -> None:
        """Closes `user_id`'s direct messages, so Discord refuses the bot's with 403 50007."""
        self.closed.add(user_id)

    def open_dms(self, user_id: int) -> None:
        """Opens `user_id`'s direct messages again."""
        self.closed.discard(user_id)

    def leave(self, user_id: int, guild_id: int) -> None:
        """`user_id` leaves `guild_id`: gone from its member cache, and a 404 when looked up."""
        self.members.get(guild_id, set()).discard(user_id)
        guild = self.bot.get_guild(guild_id)
        member = guild.get_member(user_id) if guild is not None else None
        if guild is not None and member is not None:
            guild._remove_member(member)
            guild._member_count = len(guild._members)

    # -- the world ---------------------------------------------------------------------------

    def add_guild(
        self,
        guild_id: int,
        *,
        name: str | None = None,
        roles: tuple[str, ...] = (),
        channels: tuple[str, ...] = ("general", "announcements"),
    ) -> discord.Guild:
        """Puts a guild with named roles and text channels into the bot's cache.

        The ids are derived from the guild id and the names.
        """
        name = name or f"Guild {guild_id}"
        self.guild_names[guild_id] = name
        self.roles[guild_id] = {"@everyone": guild_id} | {
            role: stable_id(guild_id, "role", role) for role in roles
        }
        self.channels[guild_id] = {
            channel: stable_id(guild_id, "channel", channel) for channel in channels
        }
        data = {
            "id": str(guild_id),
            "name": name,
            "owner_id": str(BOT_USER_ID),
            "roles": [
                role_payload(role_id, role, position)
                for position, (role, role_id) in enumerate(self.roles[guild_id].items())
            ],
            "channels": [
                {
                    "id": str(channel_id),
                    "type": 0,
                    "name": channel,
                    "position": position,
                    "permission_overwrites": [],
                    "guild_id": str(guild_id),
                }
                for position, (channel, channel_id) in enumerate(self.channels[guild_id].items())
            ],
            "members": [],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": 2,
            "unavailable": False,
        }
        return self.bot._connection._add_guild_from_data(data)  # type: ignore[arg-type]

    def role(self, name: str, guild_id: int) -> int:
        """The id of the role `name` in `guild_id`."""
        return self.roles[guild_id][name]

    def channel(self, name: str, guild_id: int) -> int:
        """The id of the text channel `name` in `guild_id`."""
        return self.channels[guild_id][name]

    def channel_names(self) -> dict[int, str]:
        """Every known text channel: id → name."""
        return {cid: name for named in self.channels.values() for name, cid in named.items()}

    def member(
        self,
        *roles: str,
        guild_id: int,
        permissions: discord.Permissions | None = None,
        user_id: int | None = None,
        name: str = "member",
    ) -> Member:
        """A member of `guild_id` holding the named roles and `permissions`, none by default.

        The guild knows them as its member from then on, until they `leave`.
        """
        member_id = user_id or self.fresh_id()
        self.members.setdefault(guild_id, set()).add(member_id)
        return Member(
            id=member_id,
            name=name,
            guild_id=guild_id,
            role_ids=tuple(self.role(r, guild_id) for r in roles),
            permissions=permissions or discord.Permissions.none(),
        )

    def seat(self, guild_id: int, members: list[Member]) -> None:
        """Puts `members` and the bot into the guild's member cache, fully chunked.

        This is how the Server Members intent gives it, so `role.members` lists who holds a role.
        """
        guild = self.bot.get_guild(guild_id)
        assert guild is not None
        state = self.bot._connection
        for member in members:
            self.members.setdefault(guild_id, set()).add(member.id)
            guild._add_member(discord.Member(data=member.payload(), guild=guild, state=state))  # type: ignore[arg-type]
        if self.bot.user is not None:
            guild._add_member(
                discord.Member._from_client_user(user=self.bot.user, guild=guild, state=state)
            )
        guild._member_count = len(guild._members)

    def message_payload(
        self, message_id: int, body: dict[str, Any], channel_id: int | None = None
    ) -> dict[str, Any]:
        """A message the bot sent, as Discord returns it."""
        if channel_id is None:
            channel_id = next(iter(self.channel_names()), 0)
        return {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": user_payload(BOT_USER_ID, "Arbiter", bot=True),
            "content": body.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": body.get("flags") or 0,
        }

    # -- building payloads -------------------------------------------------------------------

    def find_command(self, path: str) -> tuple[list[str], app_commands.Command[Any, ..., Any]]:
        """The slash command `/path`, with subcommands separated by spaces, or LookupError if
        there is none.
        """
        return find_command(self.tree, path)

    def _upload(self, upload: Upload, guild_id: int | None) -> dict[str, Any]:
        attachment_id = self.fresh_id()
        url = f"https://cdn.discordapp.com/attachments/{guild_id}/{attachment_id}/{upload.filename}"
        self._files[url] = upload.data
        return {
            "id": str(attachment_id),
            "filename": upload.filename,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
        }

    def _options(
        self,
        command: app_commands.Command[Any, ..., Any],
        user: Member,
        values: dict[str, Any],
        focused: str,
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        params = {p.name: p for p in command.parameters}
        options: list[dict[str, Any]] = []
        resolved: dict[str, dict[str, Any]] = {}
        kind = discord.AppCommandOptionType
        for name, value in values.items():
            if name not in params:
                raise LookupError(f"/{command.qualified_name} has no option {name!r}")
            param = params[name]
            option: dict[str, Any] = {"name": param.display_name, "type": param.type.value}
            if param.type is kind.role:
                role_id = int(value)
                guild = self.bot.get_guild(user.guild_id)
                role = guild.get_role(role_id) if guild else None
                role_name = role.name if role else "role"
                resolved.setdefault("roles", {})[str(role_id)] = role_payload(role_id, role_name, 1)
                option["value"] = str(role_id)
            elif param.type is kind.channel:
                channel_id = int(value)
                resolved.setdefault("channels", {})[str(channel_id)] = {
                    "id": str(channel_id),
                    "type": 0,
                    "name": self.channel_names().get(channel_id, "channel"),
                    "permissions": str(discord.Permissions.all().value),
                    "guild_id": str(user.guild_id),
                }
                option["value"] = str(channel_id)
            elif param.type in (kind.user, kind.mentionable):
                other = value if isinstance(value, Member) else None
                other_id = other.id if other else int(value)
                resolved.setdefault("users", {})[str(other_id)] = user_payload(
                    other_id, other.name if other else "user"
                )
                if other is not None:
                    member = other.payload()
                    member.pop("user")
                    resolved.setdefault("members", {})[str(other_id)] = member
                option["value"] = str(other_id)
            elif param.type is kind.attachment:
                if not isinstance(value, Upload):
                    raise TypeError(f"option {name!r} takes a file (an Upload)")
                attachment = self._upload(value, user.guild_id)
                resolved.setdefault("attachments", {})[attachment["id"]] = attachment
                option["value"] = attachment["id"]
            elif name == focused and param.type in (kind.integer, kind.number):
                option["value"] = str(value)  # Discord sends what is typed so far, as text
            elif param.type is kind.integer:
                option["value"] = int(value)
            elif param.type is kind.number:
                option["value"] = float(value)
            elif param.type is kind.boolean:
                option["value"] = bool(value)
            else:
                option["value"] = str(value)
            if name == focused:
                option["focused"] = True
            options.append(option)
        return options, resolved

    def interaction_payload(
        self,
        kind: int,
        data: dict[str, Any],
        user: Member,
        *,
        message: dict[str, Any] | None = None,
        dm: bool = False,
        channel_id: int | None = None,
    ) -> dict[str, Any]:
        """A raw INTERACTION_CREATE payload of type `kind` by `user` in `channel_id`.

        The channel is by default the first channel of its guild. With `dm` it is in a direct
        message with the bot, as Discord sends it: `user`, no guild and no member. Its channel is
        then `channel_id`, the DM channel of a message clicked, or by default a new one.
        """
        common = {
            "id": str(self.fresh_id()),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": "interaction-token",
            "version": 1,
            "data": data,
            "locale": "en-US",
            "app_permissions": str(discord.Permissions.all().value),
            "attachment_size_limit": ATTACHMENT_LIMIT,
        }
        if dm:
            channel_id = channel_id or self.fresh_id()
            payload = common | {
                "channel_id": str(channel_id),
                "channel": {"id": str(channel_id), "type": 1},
                "user": user_payload(user.id, user.name),
                "context": 1,
            }
        else:
            if channel_id is None:
                channel_id = next(iter(self.channels[user.guild_id].values()))
            self.members.setdefault(user.guild_id, set()).add(user.id)
            payload = common | {
                "guild_id": str(user.guild_id),
                "channel_id": str(channel_id),
                "channel": {"id": str(channel_id), "type": 0, "guild_id": str(user.guild_id)},
                "member": user.payload(),
                "guild_locale": "en-US",
            }
        if message is not None:
            payload["message"] = message
        return payload

    def command_payload(
        self,
        path: str,
        user: Member,
        options: dict[str, Any],
        *,
        kind: int = 2,
        focused: str = "",
        dm: bool = False,
        channel_id: int | None = None,
    ) -> dict[str, Any]:
        """The payload of `/path` with `options`. Subcommands are separated by spaces."""
        names, command = self.find_command(path)
        leaf, resolved = self._options(command, user, options, focused)
        for depth in range(len(names) - 1, 0, -1):
            is_group = depth < len(names) - 1
            leaf = [{"name": names[depth], "type": 2 if is_group else 1, "options": leaf}]
        data: dict[str, Any] = {"id": str(stable_id("command", path)), "name": names[0]}
        data["type"] = 1
        data["options"] = leaf
        if resolved:
            data["resolved"] = resolved
        return self.interaction_payload(kind, data, user, dm=dm, channel_id=channel_id)

    def click_payload(
        self,
        custom_id: str,
        user: Member,
        message_id: int,
        *,
        message: dict[str, Any] | None = None,
        channel_id: int | None = None,
        component_type: int = 2,
        values: list[str] | None = None,
    ) -> dict[str, Any]:
        """The payload of a click on component `custom_id` of the bot's message `message_id`.

        Components are buttons of type 2, selects of type 3 and so on. `message` is the message's
        body, if known.
        """
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        shown = self.message_payload(message_id, message or {}, channel_id)
        return self.interaction_payload(3, data, user, message=shown, channel_id=channel_id)

    # -- running -----------------------------------------------------------------------------

    @contextmanager
    def _recording(self, channel_id: int) -> Iterator[Outcome]:
        outcome = Outcome()
        adapter = RecordingAdapter(self, channel_id)
        token = async_context.set(adapter)
        posted, direct = len(self.posts), len(self.direct)
        try:
            yield outcome
        finally:
            async_context.reset(token)
            outcome.replies.extend(adapter.replies)
            outcome.posts.extend(self.posts[posted:])
            outcome.dms.extend(self.direct[direct:])

    async def run(self, payload: dict[str, Any]) -> Outcome:
        """Delivers one raw interaction payload the way the gateway does, and waits for the bot to
        finish with it.

        The payload is a command, an autocomplete or a component click. It returns what the bot
        sent, with a background outbox drained, the errors it logged, the tasks it left pending or
        failing, which are cancelled, and the REST calls nobody answered.

        Commands reach the real `tree._call` through discord.py's own invoker. Errors raised before
        the command runs, such as an unknown command or a signature out of sync with Discord, thus
        reach the tree's error handler as they do in production.
        """
        unanswered = len(self.unanswered)
        channel_id = int(payload["channel_id"])
        with (
            self._recording(channel_id) as outcome,
            logged_errors() as errors,
            started_tasks() as tasks,
        ):
            self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
            outcome.stray = await settle(tasks, len(tasks))
        outbox = getattr(self.bot, "outbox", None)
        if outbox is not None:
            before, direct = len(self.posts), len(self.direct)
            await outbox.drained()
            outcome.posts.extend(self.posts[before:])
            outcome.dms.extend(self.direct[direct:])
        outcome.errors = list(errors)
        outcome.unanswered = self.unanswered[unanswered:]
        return outcome
