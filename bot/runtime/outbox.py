"""The outbox sender: delivers the messages that units of work queued with `uow.outbox.post`.

It delivers them in order per channel and marks one sent only once Discord accepted it, keeping the
message id.

Messages go through discord.py's public API: `PartialMessageable.send` for a new message and
`PartialMessage.edit` for an edit. The stored component rows are rebuilt as a view of buttons that
is never listened to, since the clicks go to the persistent items the bot registered at start-up.
Each new message carries the nonce `outbox-<row id>`, which discord.py sends with `enforce_nonce`.
Discord answers a repeated send of the same nonce with the message it already created, so a crash
between "accepted by Discord" and "marked sent" does not post twice.

5xx, 429 and network errors are retried with exponential back-off, honouring a 429's retry-after. A
missing channel or message with 404, a missing permission with 403, or a refused body with another
4xx is recorded as a permanent failure, which `/setup show` reports. A message pings exactly the
users stored with it in `ping_users`, usually none, whatever its text says.

A direct message, a row with `dm_user_id`, goes only to a member of the row's own guild: one who
left it gets nothing and the row fails. It opens the member's DM channel and is sent with its nonce
like any other. When Discord refuses it with 50007 because the member closed their direct
messages, or refused one before and they have not run /notify since, one unit of work fails the
row, marks the member's DMs closed and queues one mention of them in the row's channel instead, if
it has one. Direct messages are held back per recipient as
channel messages are per channel.

On a virtual clock, given as `timer=` by the offline replay, there is no background task. A wake
puts a pass on the clock at "now" and a pass puts the next one at the earliest retry, so the clock's
`advance_to` drives delivery and nothing waits for real time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.kernel.mentions import pinging
from bot.runtime.notify import closed_mention, from_server, jump_link
from bot.runtime.wake_loop import WakeLoop
from storage.engine.database import Database
from storage.engine.shards import Shards
from storage.guild import Committed, GuildStore, GuildUnit
from storage.shared.outbox import OutboxMessage, pending_messages

if TYPE_CHECKING:
    from bot.runtime.scheduler import Timer

log = logging.getLogger(__name__)

PASS_TIMER = "outbox-pass"
"""The key of the sender's next pass on a virtual clock."""

FIRST_RETRY = timedelta(seconds=2)
LONGEST_RETRY = timedelta(minutes=15)
IDLE_CHECK = timedelta(minutes=5)


class Transient(Exception):
    """A send that may succeed later. `retry_after` is Discord's wait, when it gave one."""

    def __init__(self, reason: str, retry_after: float | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after


class Permanent(Exception):
    """A send that cannot succeed as it stands, for a missing channel, permission or a refused
    body.
    """


class Closed(Permanent):
    """A direct message Discord refused with 50007, since the member closed their direct
    messages."""


CLOSED_DMS = 50007
"""Discord's code for "Cannot send messages to this user"."""


def backoff(attempts: int) -> timedelta:
    """The wait after `attempts` failed tries: 2 s, 4 s, 8 s … at most 15 minutes."""
    wait: timedelta = FIRST_RETRY * 2 ** min(attempts, 20)
    return min(LONGEST_RETRY, wait)


def classify(error: Exception) -> Transient | Permanent:
    """Whether a failed send is worth retrying, with a short reason for the record."""
    if isinstance(error, (Transient, Permanent)):
        return error
    if isinstance(error, discord.RateLimited):
        return Transient("429 rate limited", error.retry_after)
    if isinstance(error, discord.HTTPException):
        text = f"{error.status} {error.text or getattr(error.response, 'reason', '')}".strip()
        if error.status == 429:
            return Transient(text, _retry_after(error))
        if error.status >= 500:
            return Transient(text)
        if error.status == 403 and error.code == CLOSED_DMS:
            return Closed(f"direct messages closed: {text}")
        if error.status == 403:
            return Permanent(f"missing permission: {text}")
        if error.status == 404:
            return Permanent(f"missing channel or message: {text}")
        return Permanent(f"refused: {text}")
    if isinstance(error, (aiohttp.ClientError, OSError, asyncio.TimeoutError)):
        return Transient(f"network: {type(error).__name__}: {error}")
    raise error


def _retry_after(error: discord.HTTPException) -> float | None:
    headers = getattr(error.response, "headers", None) or {}
    try:
        return float(headers["Retry-After"])
    except (KeyError, TypeError, ValueError):
        return None


class OutboxSender(WakeLoop):
    """Works through the outbox.

    `deliver_due()` is one pass. `start()` runs passes whenever a unit of work that posted commits,
    through `on_commit`, or a retry falls due. A message in flight at `stop()` stays pending and is
    sent again under its nonce at the next start.
    """

    def __init__(
        self,
        database: Database,
        client: discord.Client,
        *,
        clock: Callable[[], datetime] | None = None,
        timer: Timer | None = None,
        shards: Shards | None = None,
    ) -> None:
        super().__init__(database, timer, shards)
        self.client = client
        """The logged-in client that messages are sent through, which is the bot itself."""
        self.clock = clock or database.clock

    def on_commit(self, committed: Committed) -> None:
        """A unit of work committed: if it posted, deliver now."""
        if committed.messages and self.serves(committed.guild_id):
            self.wake()

    def wake(self) -> None:
        """Runs a delivery pass as soon as possible. On a virtual clock that is at its "now"."""
        if self.timer is not None:
            self.timer.add(PASS_TIMER, self.clock(), self._timed_pass)
        else:
            self._wake.set()

    def start(self) -> None:
        """Delivers in the background until `stop()`. Call it inside the running loop.

        On a virtual clock it puts a first pass on the clock instead.
        """
        if self.timer is not None:
            self.wake()
        elif self._task is None:
            self._spawn("arbiter outbox")
            self.wake()

    async def _background_pass(self) -> None:
        try:
            await self.deliver_due()
        except Exception:  # a database error: keep the loop, try again at the next wake
            log.exception("outbox delivery pass failed")

    async def _timed_pass(self) -> None:
        # One pass on the virtual clock, then the next at the earliest retry (at least a
        # second on, so a zero retry-after cannot hold the clock at one instant).
        assert self.timer is not None
        await self._background_pass()
        retry_at = await self._next_retry()
        if retry_at is not None:
            earliest = self.clock() + timedelta(seconds=1)
            self.timer.add(PASS_TIMER, max(retry_at, earliest), self._timed_pass)

    async def _wait(self) -> None:
        retry_at = await self._next_retry()
        timeout = IDLE_CHECK if retry_at is None else retry_at - self.clock()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._wake.wait(), max(timeout.total_seconds(), 0))
        self._wake.clear()

    async def _next_retry(self) -> datetime | None:
        waits = [
            m.next_attempt_at for m in await pending_messages(self.database, shards=self.shards)
        ]
        return min((w for w in waits if w is not None), default=None)

    async def deliver_due(self) -> list[OutboxMessage]:
        """One pass: sends every pending message that is due, oldest first per channel, and returns
        the sent.

        A channel whose oldest message must wait holds its later ones back, and so does a member
        whose oldest direct message must wait.
        """
        sent: list[OutboxMessage] = []
        held: set[tuple[str, int]] = set()
        for message in await pending_messages(self.database, shards=self.shards):
            queue = _queue(message)
            if queue in held:
                continue
            now = self.clock()
            if message.next_attempt_at is not None and message.next_attempt_at > now:
                held.add(queue)
                continue
            outcome = await self._deliver(message)
            if outcome == "sent":
                sent.append(message)
            elif outcome == "wait":
                held.add(queue)
        return sent

    async def _deliver(self, message: OutboxMessage) -> str:
        """Sends one message and records the outcome: "sent", "failed" for good, or "wait"."""
        store = GuildStore(self.database, message.guild_id)
        try:
            discord_id = await self._send(message)
        except Exception as error:  # classify re-raises anything unexpected
            outcome = classify(error)
            if isinstance(outcome, Permanent):
                log.warning("outbox %d to %s %d failed: %s", message.id, *_queue(message), outcome)
                action = "outbox.closed" if isinstance(outcome, Closed) else "outbox.failed"
                async with store.change(None, action, f"outbox:{message.id}") as uow:
                    await uow.outbox.mark_failed(message.id, str(outcome))
                    if isinstance(outcome, Closed) and message.dm_user_id is not None:
                        await _mention_instead(uow, message, message.dm_user_id)
                return "failed"
            wait = (
                timedelta(seconds=outcome.retry_after)
                if outcome.retry_after is not None
                else backoff(message.attempts)
            )
            async with store.change(None, "outbox.retry", f"outbox:{message.id}") as uow:
                await uow.outbox.retry_later(message.id, self.clock() + wait, str(outcome))
            return "wait"
        async with store.change(None, "outbox.sent", f"outbox:{message.id}") as uow:
            await uow.outbox.mark_sent(message.id, discord_id)
        return "sent"

    async def _send(self, message: OutboxMessage) -> int:
        """Posts the message or makes its edit, and returns Discord's id of the message."""
        channel = self.client.get_partial_messageable(message.channel_id, guild_id=message.guild_id)
        options: dict[str, Any] = {
            "content": message.content,
            "embeds": [discord.Embed.from_dict(embed) for embed in message.embeds],
            "allowed_mentions": pinging(message.ping_users),
        }
        if message.components is not None:  # else an edit keeps the message's own
            options["view"] = _view(message.components)
        if message.dm_user_id is not None:
            direct, server = await self._dm_channel(message.guild_id, message.dm_user_id)
            options["content"] = from_server(server, message.content or "")
            sent_dm = await direct.send(nonce=message.nonce, **options)
            return sent_dm.id
        if message.edit_of is not None:
            edited = await channel.get_partial_message(message.edit_of).edit(**options)
            return edited.id
        sent = await channel.send(nonce=message.nonce, **options)
        return sent.id

    async def _dm_channel(self, guild_id: int, user_id: int) -> tuple[discord.DMChannel, str]:
        """The DM channel with `user_id` if they are a member of `guild_id`, and of no other
        guild's, and the server's name, which the message's first line gives.

        The member cache answers for those it holds. Anyone else is asked of Discord, which
        answers 404 for one who left, and that is a `Permanent` failure. A member whose direct
        messages Discord refused before (`closed_dms`) is not tried again: that is `Closed`, so
        they are mentioned in the channel instead.
        """
        guild = self.client.get_guild(guild_id)
        if guild is None:
            if self.client.is_ready():
                raise Permanent("the bot is not in the server")
            raise Transient("the server is not loaded yet")
        member = guild.get_member(user_id)
        if member is None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.NotFound as error:
                raise Permanent(f"left the server: {error.status} {error.text}") from error
        async with GuildStore(self.database, guild_id).read() as view:
            if await view.notifications.closed([user_id]):
                raise Closed("direct messages closed: refused before, not tried again")
        return await self.client.create_dm(member), guild.name


def _queue(message: OutboxMessage) -> tuple[str, int]:
    """What a message waits in line with: its recipient's direct messages, or its channel."""
    if message.dm_user_id is not None:
        return ("member", message.dm_user_id)
    return ("channel", message.channel_id)


async def _mention_instead(uow: GuildUnit, message: OutboxMessage, user_id: int) -> None:
    """Marks `user_id`'s direct messages closed and mentions them once in the message's channel
    instead, if it has one, with the same buttons."""
    await uow.notifications.mark_closed(user_id)
    if not message.channel_id:
        return
    link = "\n" + jump_link(message.guild_id, message.channel_id)
    content = (message.content or "").removesuffix(link)
    await uow.outbox.post(
        message.channel_id,
        content=closed_mention(user_id, content),
        components=message.components,
        ping_users=(user_id,),
    )


def _view(rows: tuple[dict[str, Any], ...]) -> discord.ui.View:
    """The stored component rows, Discord's JSON, as a view of buttons stopped at once.

    It never listens, so discord.py keeps no per-message copy of it. The persistent dynamic items
    registered at start-up answer the clicks. A row of anything but buttons is refused for good as
    `Permanent`, since nothing in Arbiter stores one.
    """
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for item in row.get("components", ()):
            if row.get("type") != 1 or item.get("type") != 2:
                raise Permanent(f"refused: component type {item.get('type')} is not a button")
            emoji = item.get("emoji")
            view.add_item(
                discord.ui.Button(
                    style=discord.ButtonStyle(int(item.get("style", 2))),
                    label=item.get("label"),
                    custom_id=item.get("custom_id"),
                    url=item.get("url"),
                    disabled=bool(item.get("disabled", False)),
                    emoji=None if emoji is None else discord.PartialEmoji.from_dict(emoji),
                    row=number,
                )
            )
    view.stop()
    return view
