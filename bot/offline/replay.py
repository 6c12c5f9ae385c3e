"""`arbiter replay`: a script of Discord interactions run through the real bot, offline.

The real `ArbiterBot`, with its cogs, tree, checks, services, database, scheduler and outbox sender,
runs on a `VirtualClock`. The clock gives the database's "now", the scheduler's timer and the
sender's passes. The Discord boundary is `DiscordStub`, which records replies and channel posts and
derives ids from names or counts them. chess.com is `ChessComStandIn` on 127.0.0.1, and the
configured `chesscom.base_url` points at it. Steps run in order and each gives a `StepRecord`.
Nothing depends on real time or randomness, since error ids are counted, so the same script gives
the same transcript.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager, AsyncExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import discord
from pydantic import ValidationError

import bot.app.tree as tree_module
import bot.tour.events.service as tour_events
from bot.app.arbiter import ArbiterBot, offline_bot
from bot.kernel.config import Config
from bot.offline.chesscom_standin import ChessComStandIn
from bot.offline.discord_members import Member
from bot.offline.discord_messages import Outcome, Post, Upload, find_button, stable_id
from bot.offline.discord_stub import DiscordStub, find_command
from bot.offline.discord_tasks import logged_errors
from bot.offline.expectations import ReplayFailure, check_expectation
from bot.offline.lichess_standin import LichessStandIn
from bot.offline.script import (
    At,
    Autocomplete,
    ChessCom,
    Click,
    Command,
    DirectMessages,
    Expect,
    Lichess,
    Restart,
    Script,
    ScriptError,
    Step,
)
from bot.offline.script_check import check_against_tree
from bot.offline.transcript import (
    StepRecord,
    dm_view,
    form_inputs,
    mentions_by_name,
    post_view,
    reply_text,
    reply_view,
)
from bot.runtime.clock import VirtualClock
from storage.engine.database import Database
from storage.shared.ownership import OwnerLock

PLACEHOLDER_URL = "http://127.0.0.1/pub"
LICHESS_PLACEHOLDER_URL = "http://127.0.0.1"
CONTACT = "arbiter replay"


def replay_config(
    script: Script,
    db_path: Path,
    chesscom_url: str = PLACEHOLDER_URL,
    lichess_url: str = LICHESS_PLACEHOLDER_URL,
) -> Config:
    """The bot's configuration, or ScriptError on the header line if it is bad.

    It takes the header's `config` as config.toml, the database at `db_path`, and chess.com and
    lichess at their stand-ins. There are no retries unless the script sets them, since a retry
    would wait real seconds.
    """
    data = dict(script.header.config)
    line = script.header.line
    for key in ("database", "token"):
        if key in data:
            raise ScriptError(line, f"config.{key}: not set by a script (the database is --db)")
    for site, url in (("chesscom", chesscom_url), ("lichess", lichess_url)):
        section = data.get(site, {})
        if not isinstance(section, dict):
            raise ScriptError(line, f"config.{site}: expected an object")
        data[site] = {"contact": CONTACT, "max_retries": 0} | section | {"base_url": url}
    data["database"] = {"path": str(db_path)}
    try:
        return Config.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        key = ".".join(str(part) for part in first["loc"])
        message = "unknown key" if first["type"] == "extra_forbidden" else first["msg"]
        raise ScriptError(line, f"config.{key}: {message}") from None


def _describe(record: logging.LogRecord) -> str:
    text = f"{record.name}: {record.getMessage()}"
    if record.exc_info and record.exc_info[1] is not None:
        error = record.exc_info[1]
        text += f" ({type(error).__name__}: {error})"
    return text


@contextmanager
def _counted(module: ModuleType, name: str, spell: Callable[[int], str]) -> Iterator[None]:
    """`module.name` gives `spell(1)`, `spell(2)` and so on instead of random values while the
    replay runs."""
    counter = itertools.count(1)
    original = getattr(module, name)
    setattr(module, name, lambda: spell(next(counter)))
    try:
        yield
    finally:
        setattr(module, name, original)


def _counted_error_ids() -> AbstractContextManager[None]:
    """Error ids 00000001, 00000002 … instead of random ones, for a deterministic transcript."""
    return _counted(tree_module, "new_error_id", lambda n: f"{n:08x}")


def _counted_seeds() -> AbstractContextManager[None]:
    """Draws seeds `replay-1`, `replay-2` and so on instead of random ones.

    A `/event draw` without a seed shows the one it made, so the same script gives the same draw.
    """
    return _counted(tour_events, "new_seed", lambda n: f"replay-{n}")


@contextmanager
def _quiet_logs() -> Iterator[None]:
    """Keeps log records off stderr. Errors reach the transcript through each step."""
    handler = logging.NullHandler()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)


@dataclass
class _Message:
    """A message the bot sent during the replay, for clicks: where, and its latest body.

    `to` is the member a direct message went to, None for a message in the guild.
    """

    message_id: int
    channel_id: int
    body: dict[str, Any]
    to: int | None = None


@dataclass
class _Form:
    """The form (a modal) a click opened: its body, and where and on which message it opened."""

    body: dict[str, Any]
    message: _Message


class _Run:
    """One replay in progress: the bot, its Discord, the clock, the stand-ins and what the steps
    made.

    There is a new bot after each restart.
    """

    def __init__(
        self,
        script: Script,
        config: Config,
        db_path: Path,
        clock: VirtualClock,
        standin: ChessComStandIn,
        lichess: LichessStandIn,
    ) -> None:
        self.script = script
        self.config = config
        self.db_path = db_path
        self.clock = clock
        self.standin = standin
        self.lichess = lichess
        self._bot: ArbiterBot | None = None
        self._stub: DiscordStub | None = None
        self._running = AsyncExitStack()
        header = script.header
        self.guild_id = stable_id("guild", header.guild)
        self.members: dict[str, Member] = {}
        self.messages: dict[int, _Message] = {}
        self.by_step: dict[int, list[int]] = {}
        self.order: list[int] = []
        self.last: StepRecord | None = None
        self.form: _Form | None = None

    @property
    def bot(self) -> ArbiterBot:
        """The bot running now."""
        assert self._bot is not None, "no bot is running"
        return self._bot

    @property
    def stub(self) -> DiscordStub:
        """Discord, as every bot of the replay sees it."""
        assert self._stub is not None, "no bot has started"
        return self._stub

    async def start_bot(self) -> None:
        """Starts a bot on the database file and the clock, as a process start-up would.

        Its setup hook runs migrations, cogs, the outbox and the scheduler, and jobs missed while
        down run now, in due order. Then the gateway delivers the guild with its members.
        """
        database = await Database.open(self.db_path, clock=self.clock)
        bot = ArbiterBot(self.config, database=database, timer=self.clock)
        await self._running.enter_async_context(bot)
        self._bot = bot
        if self._stub is None:
            self._stub = DiscordStub(bot)
        else:
            self._stub.attach(bot)
        self._deliver_guild()
        await bot.setup_hook()
        guild = bot.get_guild(self.guild_id)
        assert guild is not None
        await bot.on_guild_available(guild)

    async def stop_bot(self) -> None:
        """Stops the bot as on SIGTERM, closing the scheduler, outbox and database.

        The timers it left on the clock go with it, as a process's do.
        """
        await self._running.aclose()
        self._running = AsyncExitStack()
        self._bot = None
        for _, key in self.clock.due():
            self.clock.remove(key)

    def _deliver_guild(self) -> None:
        """Put the header's guild, roles, channels and members into the bot's cache."""
        header = self.script.header
        stub = self.stub
        stub.add_guild(
            self.guild_id, name=header.guild, roles=header.roles, channels=header.channels
        )
        self.members = {
            spec.name: stub.member(
                *spec.roles,
                guild_id=self.guild_id,
                user_id=stable_id(self.guild_id, "member", spec.name),
                name=spec.name,
                permissions=discord.Permissions(manage_guild=spec.manage_guild),
            )
            for spec in header.members
        }
        stub.seat(self.guild_id, list(self.members.values()))
        self.names = {member.id: name for name, member in self.members.items()}
        self.shown = mentions_by_name(
            {role_id: name for name, role_id in stub.roles[self.guild_id].items()},
            stub.channel_names(),
            {member.id: name for name, member in self.members.items()},
        )

    # -- values ------------------------------------------------------------------------------

    def _value(self, kind: discord.AppCommandOptionType, value: Any) -> Any:
        types = discord.AppCommandOptionType
        if kind in (types.role, types.mentionable) and value.startswith("&"):
            return self.stub.role(value[1:], self.guild_id)
        if kind is types.channel:
            return self.stub.channel(value[1:], self.guild_id)
        if kind in (types.user, types.mentionable):
            return self.members[value[1:]]
        return value

    def _values(self, path: str, options: dict[str, Any]) -> dict[str, Any]:
        _, command = find_command(self.bot.tree, path)
        params = {p.name: p for p in command.parameters}
        return {name: self._value(params[name].type, value) for name, value in options.items()}

    def _channel(self, name: str | None) -> int | None:
        return None if name is None else self.stub.channel(name, self.guild_id)

    # -- steps -------------------------------------------------------------------------------

    async def step(self, step: Step) -> StepRecord:
        if isinstance(step, At):
            return await self._advance(step)
        if isinstance(step, Command):
            values = self._values(step.path, step.options)
            payload = self.stub.command_payload(
                step.path,
                self.members[step.member],
                values,
                channel_id=self._channel(step.channel),
            )
            return await self._interact(step, payload, _command_title(step))
        if isinstance(step, Autocomplete):
            values = self._values(step.path, step.options | {step.option: step.value})
            payload = self.stub.command_payload(
                step.path,
                self.members[step.member],
                values,
                kind=4,
                focused=step.option,
                channel_id=self._channel(step.channel),
            )
            title = f"{step.member}: typing {step.option}:{step.value} in /{step.path}"
            return await self._interact(step, payload, title)
        if isinstance(step, Click):
            return await self._click(step)
        if isinstance(step, DirectMessages):
            return self._direct_messages(step)
        if isinstance(step, ChessCom):
            return StepRecord(
                step.number, step.line, self._chesscom(step), self.clock(), backstage=True
            )
        if isinstance(step, Lichess):
            return StepRecord(
                step.number, step.line, self._lichess(step), self.clock(), backstage=True
            )
        if isinstance(step, Restart):
            return await self._restart(step)
        if isinstance(step, Expect):
            assert self.last is not None
            check_expectation(step, self.last)
            return StepRecord(
                step.number, step.line, f"expect on step {self.last.step}: ok", self.clock()
            )
        raise TypeError(f"unknown step {step!r}")

    def _chesscom(self, step: ChessCom) -> str:
        """Sets what the chess.com stand-in answers, and returns the step's title."""
        if step.game is not None:
            self.standin.add_game(step.game)
            white, black = step.game["white"]["username"], step.game["black"]["username"]
            return f"chess.com archives: a game {white} v {black} added"
        assert step.path is not None
        if step.status is not None:
            self.standin.serve_status(step.path, step.status)
            return f"chess.com {step.path} answers {step.status}"
        self.standin.serve_bytes(step.path, step.body or b"")
        return f"chess.com {step.path} serves {len(step.body or b'')} bytes"

    def _lichess(self, step: Lichess) -> str:
        """Sets what the lichess stand-in answers, and returns the step's title."""
        if step.path is not None and step.status is not None:
            self.lichess.serve_status(step.path, step.status)
            return f"lichess {step.path} answers {step.status}"
        for game in step.games:
            self.lichess.add_game(game)
        return f"lichess export: {len(step.games)} game(s) added"

    async def _restart(self, step: Restart) -> StepRecord:
        """Stop the bot, move the clock while none runs, start a new one; what the new one
        did at start-up (missed jobs, their messages) is the step's output."""

        async def restart() -> None:
            await self.stop_bot()
            if step.instant is not None:
                await self.clock.advance_to(step.instant)  # nothing runs: no bot is up
            await self.start_bot()
            await self.clock.advance_to(self.clock())  # the outbox, and jobs due now

        return await self._bot_step(step, "the bot restarted", "the restart failed", restart)

    async def _advance(self, step: At) -> StepRecord:
        async def advance() -> None:
            await self.clock.advance_to(step.instant)

        return await self._bot_step(step, "clock advanced", "a job stopped the clock", advance)

    async def _bot_step(
        self, step: Step, title: str, failed: str, run: Callable[[], Awaitable[None]]
    ) -> StepRecord:
        """Run a step of the bot's own, not a user's: the messages it posted are its output and
        the errors it logged its error. An exception stops the replay, named as `failed`."""
        before = self._sent()
        with logged_errors() as errors:
            try:
                await run()
            except Exception as error:
                raise ReplayFailure(
                    f"step {step.number} (line {step.line}): {failed}:"
                    f" {type(error).__name__}: {error}"
                ) from error
        record = StepRecord(step.number, step.line, title, self.clock())
        self._posts(record, before)
        record.error = "; ".join(_describe(r) for r in errors) or None
        return record

    async def _interact(
        self, step: Step, payload: dict[str, Any], title: str, clicked: _Message | None = None
    ) -> StepRecord:
        before = self._sent()
        outcome = await self.stub.run(payload)
        with logged_errors() as later:
            await self.clock.advance_to(self.clock())  # the outbox, and jobs due now
        record = StepRecord(step.number, step.line, title, self.clock())
        self.form = None
        in_dm = None if "guild_id" in payload else int(payload["user"]["id"])
        for reply in outcome.replies:
            view = reply_view(reply, self.shown)
            if view is None:
                continue
            record.replies.append(view)
            if reply.type == 9 and clicked is not None:
                self.form = _Form(reply.data, clicked)
            if reply.type in (8, 9):
                continue
            if reply.type == 7 and clicked is not None:
                self._remember(step.number, clicked.message_id, clicked.channel_id, reply.data)
                continue
            message_id, channel_id = reply.message_id or 0, reply.channel_id or 0
            self._remember(step.number, message_id, channel_id, reply.data, in_dm)
        self._posts(record, before)
        record.error = _problems(outcome, later)
        return record

    def _sent(self) -> tuple[int, int]:
        """How many channel messages and direct messages Discord has received so far."""
        return len(self.stub.posts), len(self.stub.direct)

    def _posts(self, record: StepRecord, before: tuple[int, int]) -> None:
        channels = self.stub.channel_names()
        for post in self.stub.posts[before[0] :]:
            record.posts.append(post_view(post, channels, self.shown))
            self._remember(record.step, post.message_id, post.channel_id, post.payload)
        for post in self.stub.direct[before[1] :]:
            to = self.names.get(post.to or 0, str(post.to))
            record.dms.append(dm_view(post, to, self.shown))
            self._remember(record.step, post.message_id, post.channel_id, post.payload, post.to)

    def _remember(
        self,
        step: int,
        message_id: int,
        channel_id: int,
        body: dict[str, Any],
        to: int | None = None,
    ) -> None:
        known = self.messages.get(message_id)
        if known is None:
            self.messages[message_id] = _Message(message_id, channel_id, dict(body), to)
        else:
            known.body = known.body | body
        self.by_step.setdefault(step, []).append(message_id)
        self.order.append(message_id)

    def _direct_messages(self, step: DirectMessages) -> StepRecord:
        """Closes or opens a member's direct messages, as their privacy setting does."""
        member = self.members[step.member]
        if step.closed:
            self.stub.close_dms(member.id)
            title = f"{step.member} closes direct messages from the server's members"
        else:
            self.stub.open_dms(member.id)
            title = f"{step.member} opens direct messages from the server's members"
        return StepRecord(step.number, step.line, title, self.clock())

    def _payload(
        self, kind: int, data: dict[str, Any], member: str, message: _Message
    ) -> dict[str, Any]:
        """An interaction by `member` on `message`: in its channel, or in a direct message."""
        shown = self.stub.message_payload(message.message_id, message.body, message.channel_id)
        return self.stub.interaction_payload(
            kind,
            data,
            self.members[member],
            message=shown,
            dm=message.to is not None,
            channel_id=message.channel_id,
        )

    async def _click(self, step: Click) -> StepRecord:
        if step.dm:
            user = self.members[step.member].id
            candidates = [m for m in self.order if self.messages[m].to == user]
            where = f"the direct messages to {step.member}"
        elif step.target is None:
            candidates, where = self.order, "any earlier message"
        else:
            candidates, where = (
                self.by_step.get(step.target, []),
                f"the messages of step {step.target}",
            )
        if step.containing:
            candidates = [
                m for m in candidates if all(text in self._text(m) for text in step.containing)
            ]
            where += " containing " + " and ".join(repr(text) for text in step.containing)
        for message_id in reversed(candidates):
            message = self.messages[message_id]
            button = find_button(message.body.get("components") or [], step.button)
            if button is not None and button.get("custom_id"):
                data = {"custom_id": str(button["custom_id"]), "component_type": 2}
                payload = self._payload(3, data, step.member, message)
                title = f"{step.member}: click [{step.button}]"
                record = await self._interact(step, payload, title, clicked=message)
                if step.fields is not None:
                    await self._submit(step, record)
                return record
        labels = sorted(
            {
                label
                for message_id in candidates
                for label in _labels(self.messages[message_id].body)
            }
        )
        raise ReplayFailure(
            f"step {step.number} (line {step.line}): no button {step.button!r} on {where}"
            f" (buttons there: {', '.join(labels) or 'none'})"
        )

    def _text(self, message_id: int) -> str:
        """What a message says, as a member reads it: content, embeds and buttons."""
        view = dm_view(Post(0, self.messages[message_id].body, message_id), "", self.shown)
        return reply_text(view)

    async def _submit(self, step: Click, record: StepRecord) -> None:
        """Fills in the form the click opened with the step's fields and submits it.

        What the submission brought is added to the click's record.
        """
        form, fields = self.form, step.fields or {}
        where = f"step {step.number} (line {step.line})"
        if form is None:
            raise ReplayFailure(f"{where}: [{step.button}] opened no form to fill in")
        inputs = form_inputs(form.body.get("components") or [])
        labels = [label for label, _ in inputs]
        unknown = sorted(set(fields) - set(labels))
        if unknown:
            raise ReplayFailure(
                f"{where}: the form has no field {unknown[0]!r} (fields: {', '.join(labels)})"
            )
        missing = [label for label, item in inputs if item.get("required", True)]
        missing = [label for label in missing if label not in fields]
        if missing:
            raise ReplayFailure(f"{where}: the form's field {missing[0]!r} is required")
        components = []
        for label, item in inputs:
            value = {"type": 4, "custom_id": item.get("custom_id"), "value": fields.get(label, "")}
            components.append({"type": 1, "components": [value]})
        data = {"custom_id": form.body.get("custom_id"), "components": components}
        payload = self._payload(5, data, step.member, form.message)
        submitted = await self._interact(step, payload, record.title, clicked=form.message)
        filled = ", ".join(f"{label}: {value}" for label, value in fields.items())
        record.title += f", fill in {filled} and submit"
        record.replies += submitted.replies
        record.posts += submitted.posts
        record.dms += submitted.dms
        record.at = submitted.at
        record.error = "; ".join(e for e in (record.error, submitted.error) if e) or None


def _labels(body: dict[str, Any]) -> list[str]:
    return [
        str(item.get("label"))
        for row in body.get("components") or []
        for item in row.get("components") or []
        if item.get("type") == 2
    ]


def _problems(outcome: Outcome, later: list[logging.LogRecord]) -> str | None:
    problems = [_describe(r) for r in outcome.errors]
    problems += outcome.stray
    if outcome.unanswered:
        problems.append(
            f"Discord REST calls the offline Discord cannot answer: {outcome.unanswered}"
        )
    problems += [_describe(r) for r in later]
    return "; ".join(problems) or None


def _command_title(step: Command) -> str:
    shown = []
    for name, value in step.options.items():
        shown.append(f"{name}:{value.filename if isinstance(value, Upload) else value}")
    return " ".join([f"{step.member}: /{step.path}", *shown])


async def validate(script: Script, db_path: Path) -> None:
    """Everything that can be checked before a step runs.

    That is the config, and every command and option against the real command tree, loaded on an
    in-memory database.
    """
    config = replay_config(script, db_path)
    with _quiet_logs():
        checker = await offline_bot(config)
        async with checker:
            await checker.setup_hook()
            check_against_tree(script, checker.tree)


async def replay(script: Script, db_path: Path, emit: Callable[[StepRecord], None]) -> None:
    """Runs `script` on a new database at `db_path`, handing each step's record to `emit`.

    It first checks what `validate` checks, on the tree of the bot it starts, and raises
    ScriptError before any step runs. A refused script leaves no database behind.
    Raises ReplayFailure if an expectation fails or a step cannot run.
    """
    replay_config(script, db_path)  # a bad config is refused before anything is made
    made = _missing_folders(db_path.parent)
    try:
        await _replay(script, db_path, emit)
    except ScriptError:
        _remove_database(db_path, made)
        raise


def _missing_folders(folder: Path) -> list[Path]:
    """`folder` and the folders above it that do not exist yet, deepest first."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _remove_database(db_path: Path, folders: list[Path]) -> None:
    """Removes the SQLite files a refused replay made at `db_path`, then the empty `folders`."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        db_path.with_name(db_path.name + suffix).unlink(missing_ok=True)
    for folder in folders:
        folder.rmdir()


async def _replay(script: Script, db_path: Path, emit: Callable[[StepRecord], None]) -> None:
    standin = ChessComStandIn()
    lichess = LichessStandIn()
    clock = VirtualClock(script.header.start)
    with _quiet_logs(), _counted_error_ids(), _counted_seeds():
        db_path.parent.mkdir(parents=True, exist_ok=True)  # as Database.open would
        url = await standin.start()
        lichess_url = await lichess.start()
        owner = OwnerLock.acquire(db_path)
        try:
            config = replay_config(script, db_path, url, lichess_url)
            run = _Run(script, config, db_path, clock, standin, lichess)
            try:
                await run.start_bot()
                check_against_tree(script, run.bot.tree)
                for step in script.steps:
                    record = await run.step(step)
                    if not isinstance(step, Expect):
                        run.last = record
                    emit(record)
            finally:
                await run.stop_bot()
        finally:
            owner.release()
            await lichess.stop()
            await standin.stop()
