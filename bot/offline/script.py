"""A replay script, as docs/replay.md describes it, read into values: a header, then steps.

It is JSON Lines. Blank lines and lines starting with `//` are skipped. The first other line is the
header, and each later one a step. Anything wrong raises `ScriptError` naming the line and the
problem, before anything runs. Files a step names, such as attachments and chess.com payloads, are
read here, relative to the script's folder.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.offline.discord_messages import ATTACHMENT_LIMIT, Upload
from bot.rendering.common.text import cut
from core.league.season import QUOTE_LIMIT, quoted
from core.names import NAME_LIMIT, text_problem

VERSION = 1
MAX_FILE_BYTES = 16 * 1024 * 1024
UNSET: Any = object()
"""An `expect` key the script did not give. `"error": null` is a real expectation."""


def _quoted(value: object) -> str:
    """Script text as a message quotes it, escaped and cut by `core.league.season.quoted`.

    A 1 MB key or a terminal escape in a script is thus not echoed whole.
    """
    if isinstance(value, str):
        return quoted(value)
    return cut(repr(value), QUOTE_LIMIT)


class ScriptError(Exception):
    """A script that cannot run: the 1-based `line` and what is wrong there."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


@dataclass(frozen=True)
class MemberSpec:
    """A guild member of the script: name, role names and whether it may manage the server."""

    name: str
    roles: tuple[str, ...] = ()
    manage_guild: bool = False


@dataclass(frozen=True)
class Header:
    """The script's world: the clock's first instant, the guild, its members and config."""

    start: datetime
    guild: str
    roles: tuple[str, ...]
    channels: tuple[str, ...]
    members: tuple[MemberSpec, ...]
    config: dict[str, Any]
    line: int = 1


@dataclass(frozen=True)
class Step:
    """A step: its number and its line in the script. Number 1 is the first step after the
    header.
    """

    number: int
    line: int


@dataclass(frozen=True)
class At(Step):
    """Advance the clock to `instant`."""

    instant: datetime


@dataclass(frozen=True)
class Command(Step):
    """`/path` by `member` with `options` in channel `channel`.

    The options are raw script values such as `@name`, `&name`, `#name` or `Upload`. The channel is
    None for the guild's first channel.
    """

    member: str
    path: str
    options: dict[str, Any]
    channel: str | None


@dataclass(frozen=True)
class Autocomplete(Step):
    """`member` typing `value` into option `option` of `/path`, with the other options filled."""

    member: str
    path: str
    option: str
    value: Any
    options: dict[str, Any]
    channel: str | None


@dataclass(frozen=True)
class Click(Step):
    """`member` clicking the button labelled `button` on a message of step `target`.

    When `target` is None it is the latest message with such a button, and with `dm` the latest
    direct message the bot sent `member` with one. `containing` keeps only the messages whose text
    contains each of its texts. When the button opens a form, `fields` fills it in by label and
    submits it. None leaves the form open.
    """

    member: str
    button: str
    target: int | None
    dm: bool = False
    fields: dict[str, str] | None = None
    containing: tuple[str, ...] = ()


@dataclass(frozen=True)
class DirectMessages(Step):
    """`member` closes their direct messages from the server's members, or opens them again.

    While closed, Discord refuses the bot's direct messages to them.
    """

    member: str
    closed: bool


@dataclass(frozen=True)
class ChessCom(Step):
    """From now on the stand-in answers `path` with `body` or `status`.

    `body` is JSON bytes. With `game` and no path, it adds a finished game to both players' monthly
    archives instead.
    """

    path: str | None
    body: bytes | None
    status: int | None
    game: dict[str, Any] | None = None


@dataclass(frozen=True)
class Lichess(Step):
    """From now on the lichess stand-in serves `games` in its export, or answers `path` with
    `status`.

    `games` are exported JSON objects.
    """

    games: tuple[dict[str, Any], ...] = ()
    path: str | None = None
    status: int | None = None


@dataclass(frozen=True)
class Restart(Step):
    """The bot stops as on SIGTERM and a new one starts on the same database and clock.

    The clock moves to `instant` while no bot runs. None leaves it where it is.
    """

    instant: datetime | None = None


@dataclass(frozen=True)
class Expect(Step):
    """Assertions on the previous step's output. UNSET means not asserted."""

    ephemeral: Any = UNSET
    contains: Any = UNSET
    posts_contain: Any = UNSET
    dms_contain: Any = UNSET
    error: Any = UNSET


@dataclass(frozen=True)
class Script:
    """A parsed script: header, steps, and the folder its file names are relative to."""

    header: Header
    steps: tuple[Step, ...]
    folder: Path = field(default=Path("."))


def parse_instant(value: Any, line: int, key: str) -> datetime:
    """An ISO 8601 instant with a time zone, such as `2017-08-01T09:00:00Z`, in UTC."""
    if not isinstance(value, str):
        raise ScriptError(line, f"{key}: expected an instant such as 2017-08-01T09:00:00Z")
    try:
        instant = datetime.fromisoformat(value)
    except ValueError:
        raise ScriptError(line, f"{key}: {_quoted(value)} is not an ISO 8601 instant") from None
    if instant.tzinfo is None:
        raise ScriptError(line, f"{key}: {_quoted(value)} has no time zone (add Z for UTC)")
    return instant.astimezone(UTC)


def _keys(obj: dict[str, Any], line: int, allowed: set[str], what: str) -> None:
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise ScriptError(
            line,
            f"{what}: unknown key {_quoted(unknown[0])} (allowed: {', '.join(sorted(allowed))})",
        )


def _name(value: Any, line: int, key: str) -> str:
    """A guild, role, channel or member name of the header, through the one name gate in
    `core.names`.

    It has no invisible or control character and is at most 100 characters.
    """
    if not isinstance(value, str) or not value.strip():
        raise ScriptError(line, f"{key}: expected a non-empty name")
    problem = text_problem(value.strip(), NAME_LIMIT)
    if problem is not None:
        raise ScriptError(line, f"{key}: the name {_quoted(value)} {problem}")
    return value


def _names(value: Any, line: int, key: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise ScriptError(line, f"{key}: expected a list of names")
    names = tuple(_name(item, line, key) for item in value)
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ScriptError(line, f"{key}: {_quoted(twice[0])} is listed twice")
    return names


def _read(folder: Path, value: Any, line: int, key: str, limit: int) -> tuple[str, bytes]:
    """A file named relative to the script, as its name and its bytes."""
    if not isinstance(value, str) or not value:
        raise ScriptError(line, f"{key}: expected a file name relative to the script")
    path = folder / value
    if not path.is_file():
        raise ScriptError(line, f"{key}: no such file {_quoted(value)} (beside the script)")
    if path.stat().st_size > limit:
        raise ScriptError(line, f"{key}: {_quoted(value)} is over {limit // (1024 * 1024)} MiB")
    return path.name, path.read_bytes()


def _header(obj: dict[str, Any], line: int) -> Header:
    _keys(obj, line, {"replay", "start", "guild", "members", "config"}, "header")
    if obj.get("replay") != VERSION:
        raise ScriptError(line, f'the header must say "replay": {VERSION} (the format version)')
    start = parse_instant(obj.get("start"), line, "start")
    guild = obj.get("guild")
    if not isinstance(guild, dict):
        raise ScriptError(line, "guild: expected {name, roles, channels}")
    _keys(guild, line, {"name", "roles", "channels"}, "guild")
    roles = _names(guild.get("roles", []), line, "guild.roles")
    if "@everyone" in roles:
        raise ScriptError(line, "guild.roles: @everyone exists already; do not list it")
    channels = _names(guild.get("channels", []), line, "guild.channels")
    if not channels:
        raise ScriptError(line, "guild.channels: at least one channel is needed")
    members_data = obj.get("members", [])
    if not isinstance(members_data, list):
        raise ScriptError(line, "members: expected a list of {name, roles, manage_guild}")
    members = []
    for index, item in enumerate(members_data):
        where = f"members[{index}]"
        if not isinstance(item, dict):
            raise ScriptError(line, f"{where}: expected {{name, roles, manage_guild}}")
        _keys(item, line, {"name", "roles", "manage_guild"}, where)
        member_roles = _names(item.get("roles", []), line, f"{where}.roles")
        for role in member_roles:
            if role not in roles:
                raise ScriptError(line, f"{where}.roles: no role {_quoted(role)} in guild.roles")
        manage = item.get("manage_guild", False)
        if not isinstance(manage, bool):
            raise ScriptError(line, f"{where}.manage_guild: expected true or false")
        members.append(
            MemberSpec(_name(item.get("name"), line, f"{where}.name"), member_roles, manage)
        )
    _names([m.name for m in members], line, "members")
    config = obj.get("config", {})
    if not isinstance(config, dict):
        raise ScriptError(line, "config: expected an object, as config.toml")
    name = _name(guild.get("name"), line, "guild.name")
    return Header(start, name, roles, channels, tuple(members), config, line)


class _Parser:
    """Reads steps in order, checking each against the header and the steps before it."""

    def __init__(self, header: Header, folder: Path) -> None:
        self.header = header
        self.folder = folder
        self.members = {m.name for m in header.members}
        self.clock = header.start
        self.steps: list[Step] = []

    def member(self, obj: dict[str, Any], line: int) -> str:
        name = obj.get("as")
        if not isinstance(name, str) or name not in self.members:
            known = ", ".join(sorted(self.members)) or "none"
            raise ScriptError(
                line, f"as: {_quoted(name)} is not a member of the header (members: {known})"
            )
        return name

    def channel(self, obj: dict[str, Any], line: int) -> str | None:
        name = obj.get("in")
        if name is None:
            return None
        if name not in self.header.channels:
            raise ScriptError(line, f"in: no channel {_quoted(name)} in guild.channels")
        return str(name)

    def options(self, value: Any, line: int) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ScriptError(line, "options: expected an object of option name → value")
        options: dict[str, Any] = {}
        for name, item in value.items():
            if isinstance(item, dict):
                _keys(item, line, {"file"}, f"options.{name}")
                filename, data = _read(
                    self.folder, item.get("file"), line, f"options.{name}.file", ATTACHMENT_LIMIT
                )
                options[name] = Upload(filename, data)
            elif isinstance(item, (str, int, float, bool)):
                options[name] = item
            else:
                raise ScriptError(
                    line, f'options.{name}: expected text, a number, true/false or {{"file": …}}'
                )
        return options

    def path(self, value: Any, line: int, key: str) -> str:
        if not isinstance(value, str) or not value.split():
            raise ScriptError(line, f'{key}: expected a command such as "setup show"')
        return " ".join(value.removeprefix("/").split())

    def step(self, obj: dict[str, Any], line: int) -> Step:
        number = len(self.steps) + 1
        if "at" in obj:
            _keys(obj, line, {"at"}, "at step")
            instant = parse_instant(obj["at"], line, "at")
            self.advance(instant, obj["at"], line, "at")
            return At(number, line, instant)
        if "command" in obj:
            _keys(obj, line, {"as", "command", "options", "in"}, "command step")
            return Command(
                number,
                line,
                self.member(obj, line),
                self.path(obj["command"], line, "command"),
                self.options(obj.get("options", {}), line),
                self.channel(obj, line),
            )
        if "autocomplete" in obj:
            _keys(
                obj,
                line,
                {"as", "autocomplete", "option", "value", "options", "in"},
                "autocomplete step",
            )
            option = _name(obj.get("option"), line, "option")
            value = obj.get("value", "")
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                raise ScriptError(line, "value: expected what the member has typed so far")
            return Autocomplete(
                number,
                line,
                self.member(obj, line),
                self.path(obj["autocomplete"], line, "autocomplete"),
                option,
                value,
                self.options(obj.get("options", {}), line),
                self.channel(obj, line),
            )
        if "click" in obj:
            return self.click(obj, line, number)
        if "close_dms" in obj or "open_dms" in obj:
            key = "close_dms" if "close_dms" in obj else "open_dms"
            _keys(obj, line, {key}, f"{key} step")
            name = obj[key]
            if not isinstance(name, str) or name not in self.members:
                known = ", ".join(sorted(self.members)) or "none"
                raise ScriptError(
                    line, f"{key}: {_quoted(name)} is not a member of the header (members: {known})"
                )
            return DirectMessages(number, line, name, key == "close_dms")
        if "chesscom" in obj:
            return self.chesscom(obj, line, number)
        if "lichess" in obj:
            return self.lichess(obj, line, number)
        if "restart" in obj:
            _keys(obj, line, {"restart"}, "restart step")
            spec = obj["restart"]
            if not isinstance(spec, dict):
                raise ScriptError(line, 'restart: expected {} or {"at": "<instant>"}')
            _keys(spec, line, {"at"}, "restart")
            if "at" not in spec:
                return Restart(number, line)
            instant = parse_instant(spec["at"], line, "restart.at")
            self.advance(instant, spec["at"], line, "restart.at")
            return Restart(number, line, instant)
        if "expect" in obj:
            return self.expect(obj, line, number)
        raise ScriptError(
            line,
            "unknown step: expected one of at, command, autocomplete, click, close_dms, open_dms,"
            " chesscom, lichess, restart, expect",
        )

    def click(self, obj: dict[str, Any], line: int, number: int) -> Click:
        """A `click` step: a button of an earlier message or of a direct message, and a form."""
        _keys(obj, line, {"as", "click"}, "click step")
        click = obj["click"]
        if not isinstance(click, dict):
            raise ScriptError(line, 'click: expected {"step": N, "button": "label"}')
        _keys(click, line, {"step", "message", "dm", "button", "fields", "containing"}, "click")
        button = click.get("button")
        if not isinstance(button, str) or not button:
            raise ScriptError(line, "click.button: expected the button's label")
        if sum(key in click for key in ("step", "message", "dm")) != 1:
            raise ScriptError(
                line, 'click: give one of "step": N, "message": "last" or "dm": "last"'
            )
        target = click.get("step")
        if "message" in click and click["message"] != "last":
            raise ScriptError(line, 'click.message: the only message by name is "last"')
        if "dm" in click and click["dm"] != "last":
            raise ScriptError(line, 'click.dm: the only direct message by name is "last"')
        if target is not None and (
            not isinstance(target, int) or isinstance(target, bool) or not 1 <= target < number
        ):
            raise ScriptError(
                line, f"click.step: expected the number of an earlier step (1 to {number - 1})"
            )
        fields = click.get("fields")
        if fields is not None and (
            not isinstance(fields, dict)
            or not fields
            or not all(isinstance(value, str) for value in fields.values())
        ):
            raise ScriptError(line, "click.fields: expected an object of field label → text")
        containing = click.get("containing", [])
        if isinstance(containing, str):
            containing = [containing]
        if not isinstance(containing, list) or not all(
            isinstance(text, str) and text for text in containing
        ):
            raise ScriptError(
                line, "click.containing: expected a text the message contains, or a list of them"
            )
        member = self.member(obj, line)
        return Click(number, line, member, button, target, "dm" in click, fields, tuple(containing))

    def expect(self, obj: dict[str, Any], line: int, number: int) -> Expect:
        """An `expect` step: what the step before it must have said, posted or sent."""
        _keys(obj, line, {"expect"}, "expect step")
        spec = obj["expect"]
        keys = ("ephemeral", "contains", "posts_contain", "dms_contain", "error")
        if not isinstance(spec, dict) or not spec:
            raise ScriptError(line, f"expect: expected an object of {', '.join(keys)}")
        _keys(spec, line, set(keys), "expect")
        if "ephemeral" in spec and not isinstance(spec["ephemeral"], bool):
            raise ScriptError(line, "expect.ephemeral: expected true or false")
        for key in ("contains", "posts_contain"):
            if key in spec and not isinstance(spec[key], str):
                raise ScriptError(line, f"expect.{key}: expected text")
        if "dms_contain" in spec:
            self.dms_contain(spec["dms_contain"], line)
        if "error" in spec and spec["error"] is not None and not isinstance(spec["error"], str):
            raise ScriptError(line, "expect.error: expected null or text")
        if not any(not isinstance(step, Expect) for step in self.steps):
            raise ScriptError(line, "expect: there is no earlier step to check")
        return Expect(number, line, **{key: spec.get(key, UNSET) for key in keys})

    def dms_contain(self, value: Any, line: int) -> None:
        """Checks `dms_contain`: text, or an object of member name → text."""
        if isinstance(value, str):
            return
        if not isinstance(value, dict) or not value:
            raise ScriptError(
                line, "expect.dms_contain: expected text, or an object of member → text"
            )
        for name, text in value.items():
            if name not in self.members:
                raise ScriptError(
                    line, f"expect.dms_contain: {_quoted(name)} is not a member of the header"
                )
            if not isinstance(text, str):
                raise ScriptError(line, f"expect.dms_contain.{name}: expected text")

    def advance(self, instant: datetime, given: Any, line: int, key: str) -> None:
        """Moves the script's clock to `instant`. Raises ScriptError if that is backwards."""
        if instant < self.clock:
            raise ScriptError(
                line,
                f"{key}: {given} is before the clock's {self.clock.isoformat()}"
                " (it does not go backwards)",
            )
        self.clock = instant

    def chesscom(self, obj: dict[str, Any], line: int, number: int) -> ChessCom:
        """A `chesscom` step: what a path answers from now on, or a game for the archives."""
        _keys(obj, line, {"chesscom"}, "chesscom step")
        spec = obj["chesscom"]
        if not isinstance(spec, dict):
            raise ScriptError(
                line, 'chesscom: expected {"path": "/pub/…", "json"|"file"|"status": …}'
            )
        _keys(spec, line, {"path", "json", "file", "status", "game"}, "chesscom")
        if "game" in spec:
            if len(spec) != 1:
                raise ScriptError(line, 'chesscom: "game" comes alone (it has no path)')
            return ChessCom(number, line, None, None, None, archive_game(spec["game"], line))
        path = spec.get("path")
        if not isinstance(path, str) or not path.startswith("/pub/") or len(path) <= 5:
            raise ScriptError(
                line, 'chesscom.path: expected an API path such as "/pub/match/12803"'
            )
        given = [key for key in ("json", "file", "status") if key in spec]
        if len(given) != 1:
            raise ScriptError(line, 'chesscom: give exactly one of "json", "file" or "status"')
        if "json" in spec:
            return ChessCom(number, line, path, json.dumps(spec["json"]).encode(), None)
        if "file" in spec:
            _, body = _read(self.folder, spec["file"], line, "chesscom.file", MAX_FILE_BYTES)
            return ChessCom(number, line, path, body, None)
        return ChessCom(number, line, path, None, _status(spec["status"], line, "chesscom"))

    def lichess(self, obj: dict[str, Any], line: int, number: int) -> Lichess:
        """A `lichess` step: games the export serves from now on, or a path's status."""
        _keys(obj, line, {"lichess"}, "lichess step")
        spec = obj["lichess"]
        if not isinstance(spec, dict):
            raise ScriptError(
                line, 'lichess: expected {"games": […]}, {"file": "x.ndjson"} or {"path", "status"}'
            )
        _keys(spec, line, {"games", "file", "path", "status"}, "lichess")
        kinds = [key for key in ("games", "file", "status") if key in spec]
        if len(kinds) != 1 or ("path" in spec) != ("status" in spec):
            raise ScriptError(line, 'lichess: give "games", "file", or "path" with "status"')
        if "status" in spec:
            path = spec["path"]
            if not isinstance(path, str) or not path.startswith("/api/") or len(path) <= 5:
                raise ScriptError(
                    line, 'lichess.path: expected an API path such as "/api/games/user/alice"'
                )
            return Lichess(number, line, path=path, status=_status(spec["status"], line, "lichess"))
        if "file" in spec:
            _, body = _read(self.folder, spec["file"], line, "lichess.file", MAX_FILE_BYTES)
            try:
                items = [json.loads(text) for text in body.decode().splitlines() if text.strip()]
            except (UnicodeDecodeError, ValueError):
                raise ScriptError(
                    line, "lichess.file: not NDJSON (one JSON object a line)"
                ) from None
        else:
            items = spec["games"]
            if not isinstance(items, list):
                raise ScriptError(line, "lichess.games: expected a list of exported games")
        return Lichess(number, line, games=tuple(lichess_game(item, line) for item in items))


def _status(value: Any, line: int, key: str) -> int:
    """An HTTP status a stand-in is to answer."""
    if not isinstance(value, int) or isinstance(value, bool) or not 100 <= value <= 599:
        raise ScriptError(line, f"{key}.status: expected an HTTP status (100-599)")
    return value


def archive_game(value: Any, line: int) -> dict[str, Any]:
    """A chess.com archive game of a script.

    It has white and black usernames and an `end_time` in seconds, which sets the month of the
    archives it goes to.
    """
    if not isinstance(value, dict):
        raise ScriptError(line, "chesscom.game: expected an archive game object")
    for side in ("white", "black"):
        player = value.get(side)
        if not isinstance(player, dict) or not isinstance(player.get("username"), str):
            raise ScriptError(line, f'chesscom.game.{side}: expected {{"username": …}}')
    end = value.get("end_time")
    if not isinstance(end, int) or isinstance(end, bool) or not 0 < end < 2**37:
        raise ScriptError(line, "chesscom.game.end_time: expected seconds since 1970")
    return value


def lichess_game(value: Any, line: int) -> dict[str, Any]:
    """A lichess exported game of a script: an `id`, `createdAt` in milliseconds, players."""
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        raise ScriptError(line, 'lichess: each game needs an "id" (lichess\'s export JSON)')
    created = value.get("createdAt")
    if not isinstance(created, int) or isinstance(created, bool) or created <= 0:
        raise ScriptError(line, f"lichess: game {_quoted(value['id'])}: createdAt in milliseconds")
    if not isinstance(value.get("players"), dict):
        raise ScriptError(line, f"lichess: game {_quoted(value['id'])}: no players")
    return value


def parse_script(text: str, folder: Path) -> Script:
    """The script in `text`, with files it names relative to `folder`. Raises ScriptError if bad."""
    header: Header | None = None
    parser: _Parser | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith("//"):
            continue
        try:
            obj = json.loads(stripped)
        except json.JSONDecodeError as error:
            raise ScriptError(number, f"not JSON: {error.msg} (column {error.colno})") from None
        except RecursionError:
            raise ScriptError(number, "not JSON this program reads: nested too deeply") from None
        if not isinstance(obj, dict):
            raise ScriptError(number, "expected a JSON object")
        if parser is None:
            header = _header(obj, number)
            parser = _Parser(header, folder)
        else:
            parser.steps.append(parser.step(obj, number))
    if parser is None or header is None:
        raise ScriptError(1, 'the script is empty: it needs a header line {"replay": 1, …}')
    return Script(header, tuple(parser.steps), folder)
