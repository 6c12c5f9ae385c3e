"""The tour's permission matrix, generated from the tree: every `/tour`, `/event`, `/game`,
`/series`, `/finals`, `/incident` and `/appeal` command is either read-only or a changing
command with the roles of docs/tour.md's roles list that may run it (Player = a member linked
to a player of the game or event; Organiser = the HQ role; Arbiter). Every other role gets
one private line naming the role it needs and the database is unchanged; organisers are not
arbiters, players cannot report others' games, nobody acts in another guild. One bot serves
every case (a refusal writes nothing), so the matrix costs one world, not one per case."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import pytest_asyncio

from bot.app.arbiter import ArbiterBot
from bot.kernel.config import CctDefaults, Config, RuleDefaults
from bot.runtime.clock import VirtualClock
from bot.tour.appeals.service import lodge_appeal
from bot.tour.events import service as events
from bot.tour.game_targets import open_targets
from bot.tour.store import load_event
from bot.tour.tours import service as tours
from core.tour.ranking import EventType
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.command_tree import Options, Rule, is_tour_command, rule, tree_commands
from tests.support.command_world import config_for
from tests.support.discord_harness import (
    DEFAULT_GUILD_ID,
    OTHER_GUILD_ID,
    DiscordHarness,
    Member,
    Upload,
)
from tests.support.tour_world import (
    ORGANISER,
    by_order,
    member,
    player_names,
    settle_preliminary,
    tour_with_event,
    user_of,
)

IN_MODULE_LOOP = pytest.mark.asyncio(loop_scope="module")
"""The async tests share the module's loop (and its one bot)."""

ROLES = (
    "player",
    "event player",
    "other event player",
    "HQ",
    "director",
    "arbiter",
    "server manager",
)
"""docs/tour.md's roles: any member; the member linked to the game's White player (P01);
the member linked to P16 (a player of the event, not of the game); the organiser; a
director; an arbiter; a server manager."""
NOW = dt.datetime(2026, 5, 1, 12, tzinfo=dt.UTC)
NAMES = player_names(16)
SMALL_TOUR = json.dumps(
    {
        "name": "Imported",
        "events": [
            {
                "name": "Old",
                "type": "regular",
                "preliminary": {"order": ["A", "B", "C", "D", "E", "F", "G", "H"]},
                "knockout": [
                    {"round": r, "a": a, "b": b, "winner": a}
                    for r, a, b in (
                        ("QF1", "A", "H"),
                        ("QF2", "B", "G"),
                        ("QF3", "C", "F"),
                        ("QF4", "D", "E"),
                        ("SF1", "A", "D"),
                        ("SF2", "B", "C"),
                        ("F", "A", "B"),
                        ("3rd", "D", "C"),
                    )
                ],
            }
        ],
    }
).encode()


@dataclass(frozen=True)
class World:
    """The names a case needs: the open game of P01 (White), the open appeal's number."""

    game: str
    appeal: int


HQ = ("league HQ",)
ARBITER = ("arbiter",)
TOUR_MUTATING: dict[str, Rule[World]] = {
    "tour create": rule({"HQ"}, HQ, lambda w, h: {"name": "Tour 2"}),
    "tour ambassador-add": rule({"HQ"}, HQ, lambda w, h: {"tour": "Tour", "player": "P02"}),
    "tour ambassador-remove": rule({"HQ"}, HQ, lambda w, h: {"tour": "Tour", "player": "P03"}),
    "tour link": rule(
        {"HQ"}, HQ, lambda w, h: {"player": "P05", "user": h.member(user_id=9999), "tour": "Tour"}
    ),
    "tour unlink": rule({"HQ"}, HQ, lambda w, h: {"player": "P05", "tour": "Tour"}),
    "tour import": rule({"HQ"}, HQ, lambda w, h: {"file": Upload("t.json", SMALL_TOUR)}),
    "event create": rule(
        {"HQ"},
        HQ,
        lambda w, h: {"tour": "Tour", "name": "Second", "type": "regular", "start": "2026-06-01"},
    ),
    "event player-add": rule({"HQ"}, HQ, lambda w, h: {"event": "Setup", "player": "New"}),
    "event player-remove": rule({"HQ"}, HQ, lambda w, h: {"event": "Setup", "player": "P02"}),
    "event draw": rule({"HQ"}, HQ, lambda w, h: {"event": "Setup", "seed": "x"}),
    "event pin": rule({"HQ"}, HQ, lambda w, h: {"event": "Open"}),
    "event points": rule({"HQ"}, HQ, lambda w, h: {"event": "Setup", "scoring": "3/1/0"}),
    "event start-knockout": rule({"HQ"}, HQ, lambda w, h: {"event": "Open"}),
    "finals decline": rule({"HQ"}, HQ, lambda w, h: {"event": "Open", "player": "P01"}),
    "finals decline-undo": rule({"HQ"}, HQ, lambda w, h: {"event": "Open", "player": "P01"}),
    "finals cancel-draw": rule({"HQ"}, HQ, lambda w, h: {"event": "Open"}),
    "game report": rule(
        {"event player", "arbiter"},
        ("player", "arbiter"),
        lambda w, h: {"event": "Open", "game": w.game, "result": "1-0"},
    ),
    "game correct": rule(
        {"arbiter"},
        ARBITER,
        lambda w, h: {"event": "Open", "game": w.game, "result": "0-1", "reason": "Left."},
    ),
    "series choose": rule(
        {"event player", "arbiter"},
        ("player", "arbiter"),
        lambda w, h: {"event": "Major", "round": "QF1", "colour": "white"},
    ),
    "series award": rule(
        {"arbiter"},
        ARBITER,
        lambda w, h: {"event": "Major", "round": "QF1", "winner": "P01", "reason": "no-show"},
    ),
    "game award": rule(
        {"arbiter"},
        ARBITER,
        lambda w, h: {"event": "Open", "game": w.game, "winner": "P01", "reason": "illness"},
    ),
    "finals award": rule(
        {"arbiter"},
        ARBITER,
        lambda w, h: {
            "event": "Open",
            "match": "R1 P01 v P10",
            "winner": "P01",
            "reason": "no-show",
        },
    ),
    "incident disconnection": rule(
        {"arbiter"},
        ARBITER,
        lambda w, h: {
            "event": "Open",
            "game": w.game,
            "player": "P01",
            "clock_seconds": 100,
            "reconnected_within_30s": False,
            "backup_connection": True,
        },
    ),
    "appeal lodge": rule(
        {"event player", "other event player"},
        ("player",),
        lambda w, h: {"event": "Open", "game": w.game, "text": "My opponent was helped."},
    ),
    "appeal decide": rule(
        {"arbiter"},
        ARBITER,
        lambda w, h: {"appeal": w.appeal, "decision": "dismissed", "reason": "No evidence."},
    ),
}
"""Every command that changes the tour, with who may run it (docs/tour.md's roles)."""

TOUR_READ_ONLY = {
    "tour show",
    "tour standings",
    "tour qualification",
    "tour prizes",
    "tour export",
    "event pairings",
    "event standings",
    "event bracket",
    "event show",
    "event calendar",
    "game show",
    "series show",
    "finals standings",
    "incident list",
    "appeal list",
}
"""Every tour command that only reads: anyone may run it."""

CASES = [
    (command, role)
    for command, rule in sorted(TOUR_MUTATING.items())
    for role in ROLES
    if role not in rule.allowed
]


def _cast(harness: DiscordHarness) -> dict[str, Member]:
    return {
        "player": harness.member(user_id=105, name="member"),
        "event player": harness.member(user_id=user_of(0), name="p01"),
        "other event player": harness.member(user_id=user_of(15), name="p16"),
        "HQ": harness.member("HQ", user_id=101, name="organiser"),
        "director": harness.member("Director", user_id=102, name="director"),
        "arbiter": harness.member("Arbiter", user_id=103, name="arbiter"),
        "server manager": harness.member(
            permissions=harness.MANAGE_SERVER, user_id=104, name="manager"
        ),
    }


class Watch:
    """Whether anyone committed to the database file since the last look: SQLite's
    `data_version` of a connection of our own changes with every other connection's commit
    (a whole-file dump per case would cost more than the case)."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path)

    def version(self) -> int:
        """The file's data version as this connection sees it."""
        return int(self.connection.execute("PRAGMA data_version").fetchone()[0])

    def close(self) -> None:
        """Close the watching connection."""
        self.connection.close()


@dataclass
class Desk:
    """The running bot of the module, its harness, the database file and the world."""

    bot: ArbiterBot
    harness: DiscordHarness
    watch: Watch
    world: World


async def _build(store: GuildStore, config: Config) -> World:
    """The tour: Open (16, drawn, nothing played), Major (12, preliminary played in order
    P01 first, knock-out started: QF1 waits for P01's colour), Setup (not drawn, P02 in),
    P03 an Ambassador, one appeal open. Open's first day is today, its sessions at 09:00
    Paris: NOW (12:00 UTC) is after the session and within its appeals."""
    morning = RuleDefaults(cct=CctDefaults(session_start="09:00"))
    await tour_with_event(
        store, config=config.model_copy(update={"rules": morning}), start="2026-05-01"
    )
    await tour_with_event(store, event="Major", kind=EventType.MAJOR, players=NAMES[:12])
    await settle_preliminary(store, "Major", by_order(NAMES))
    await events.start_knockout(store, ORGANISER, "Major", confirm=True)
    await events.create_event(store, ORGANISER, "Tour", "Setup", EventType.REGULAR, "2026-07-01")
    await events.add_player(store, ORGANISER, "Setup", "P02")
    await tours.set_ambassador(store, ORGANISER, "Tour", "P03", True)
    async with store.read() as view:
        record = (await view.tour_events.by_name("Open"))[0]
        loaded = await load_event(view, record)
    game = next(t.name for t in open_targets(loaded) if t.white == "P01" and "P16" not in t.name)
    appeal = await lodge_appeal(store, member(user_of(1)), "Open", game, "Please check.")
    return World(game, appeal.id)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def desk(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Desk]:
    """One bot on the tour world for every case of the module."""
    path = tmp_path_factory.mktemp("tour-matrix") / "tour.db"
    clock = VirtualClock(NOW)
    database = await Database.open(path, clock=clock)
    bot = ArbiterBot(config_for(path), database=database, timer=clock)
    harness = DiscordHarness(bot)
    async with bot:
        await bot.setup_hook()
        await harness.set_up(announcements="announcements")
        world = await _build(GuildStore(database, DEFAULT_GUILD_ID), bot.config)
        await clock.advance(dt.timedelta(0))
        watch = Watch(path)
        yield Desk(bot, harness, watch, world)
        watch.close()
    harness.check()


def test_every_tour_command_is_in_the_matrix() -> None:
    """A tour command of the tree in neither table fails: decide who may run it."""
    tour = [c for c in tree_commands() if is_tour_command(c)]
    missing = [c for c in tour if c not in TOUR_MUTATING and c not in TOUR_READ_ONLY]
    assert not missing, f"tour command not in the permission matrix: {missing}"
    stale = sorted((set(TOUR_MUTATING) | TOUR_READ_ONLY) - set(tour))
    assert not stale, f"the matrix names commands the tree no longer has: {stale}"
    assert len(tour) >= 30


def test_the_matrix_refuses_organisers_as_arbiters_and_players_of_other_games() -> None:
    """docs/tour.md: organisers are not arbiters; a player reports only their own games."""
    assert ("game correct", "HQ") in CASES and ("appeal decide", "HQ") in CASES
    assert ("game report", "other event player") in CASES
    assert ("game report", "HQ") in CASES and ("series choose", "other event player") in CASES


@IN_MODULE_LOOP
@pytest.mark.parametrize(("command", "role"), CASES, ids=[f"{c}-{r}" for c, r in CASES])
async def test_a_refused_tour_role_gets_one_private_line_and_nothing_is_written(
    desk: Desk, command: str, role: str
) -> None:
    rule = TOUR_MUTATING[command]
    harness = desk.harness
    before = desk.watch.version()
    payload = harness.command_payload(
        command, _cast(harness)[role], rule.options(desk.world, harness)
    )
    outcome = await harness.run(payload)
    assert desk.watch.version() == before, f"{command} as {role} wrote to the database"
    assert len(outcome.replies) == 1, outcome.replies
    text = outcome.reply.content or ""
    assert outcome.reply.ephemeral, f"{command} as {role}: the refusal is public: {text}"
    assert "\n" not in text.strip(), text
    for name in rule.names:
        assert name.lower() in text.lower(), f"{command} as {role}: {text!r} does not name {name}"
    assert not outcome.posts, outcome.posts


@IN_MODULE_LOOP
async def test_nobody_acts_on_another_guilds_tour(desk: Desk) -> None:
    """The same commands from a member of another guild (holding its HQ and arbiter roles)
    find nothing there: the tour, its events and games are this guild's."""
    harness = desk.harness
    outsider = harness.member("HQ", "Arbiter", guild_id=OTHER_GUILD_ID, user_id=user_of(0))
    before = desk.watch.version()
    for command in ("game report", "event player-add", "series choose", "appeal decide"):
        options = TOUR_MUTATING[command].options(desk.world, harness)
        outcome = await harness.run(harness.command_payload(command, outsider, options))
        text = outcome.reply.content or ""
        assert outcome.reply.ephemeral and ("No " in text or "not set up" in text), text
    assert desk.watch.version() == before


HOSTILE: dict[str, tuple[str, str, Options[World], str]] = {
    "an empty tour name": ("tour create", "HQ", lambda w, h: {"name": "   "}, "cannot be empty"),
    "a huge tour name": ("tour create", "HQ", lambda w, h: {"name": "x" * 300}, "too long"),
    "a control character": (
        "tour create",
        "HQ",
        lambda w, h: {"name": "Tour\u202eevil"},
        "invisible character U+202E",  # the one name gate (issue 20)
    ),
    "a bad start date": (
        "event create",
        "HQ",
        lambda w, h: {"tour": "Tour", "name": "Bad", "type": "regular", "start": "2026-13-45"},
        "not a date",
    ),
    "an unknown tour": (
        "event create",
        "HQ",
        lambda w, h: {"tour": "Nowhere", "name": "Bad", "type": "major", "start": "2026-06-01"},
        "No tour",
    ),
    "an unknown event": (
        "event player-add",
        "HQ",
        lambda w, h: {"event": "Nope", "player": "X"},
        "No event",
    ),
    "a draw short of players": ("event draw", "HQ", lambda w, h: {"event": "Setup"}, "1 of its 16"),
    "an unknown game": (
        "game report",
        "event player",
        lambda w, h: {"event": "Open", "game": "R99 Nobody v Noone", "result": "1-0"},
        "No game",
    ),
    "no result": (
        "game report",
        "event player",
        lambda w, h: {"event": "Open", "game": w.game},
        "Give the result",
    ),
    "a binary PGN": (
        "game report",
        "arbiter",
        lambda w, h: {"event": "Open", "game": w.game, "pgn": Upload("g.pgn", b"\xff\xfe\x00\x01")},
        "not UTF-8",
    ),
    "a PGN of no game": (
        "game report",
        "arbiter",
        lambda w, h: {"event": "Open", "game": w.game, "pgn": Upload("g.pgn", b"hello")},
        "PGN",
    ),
    "a link to elsewhere": (
        "game report",
        "arbiter",
        lambda w, h: {"event": "Open", "game": w.game, "link": "https://example.com/game/1"},
        "not a chess.com or lichess.org game link",
    ),
    "a player's forfeit": (
        "game report",
        "event player",
        lambda w, h: {"event": "Open", "game": w.game, "result": "+/-"},
        "forfeit",
    ),
    "an unknown appeal": (
        "appeal decide",
        "arbiter",
        lambda w, h: {"appeal": 999_999, "decision": "upheld", "reason": "x"},
        "No appeal",
    ),
    "an unknown round": (
        "series choose",
        "arbiter",
        lambda w, h: {"event": "Major", "round": "QF9", "colour": "white"},
        "not a knock-out round",
    ),
    "a player not in the game": (
        "incident disconnection",
        "arbiter",
        lambda w, h: {
            "event": "Open",
            "game": w.game,
            "player": "P16",
            "clock_seconds": 5,
            "reconnected_within_30s": False,
            "backup_connection": True,
        },
        "does not play",
    ),
    "a bad chess.com username": (
        "tour link",
        "HQ",
        lambda w, h: {"player": "P05", "tour": "Tour", "chesscom": "no spaces allowed"},
        "chess.com username",
    ),
    "a blank chess.com username": (
        "tour link",
        "HQ",
        lambda w, h: {"player": "P05", "tour": "Tour", "chesscom": "   "},
        "blank chess.com username links nothing",
    ),
    "a link with neither a member nor a username": (
        "tour link",
        "HQ",
        lambda w, h: {"player": "P05", "tour": "Tour"},
        "/tour unlink",
    ),
    "an unlink of a username never set": (
        "tour unlink",
        "HQ",
        lambda w, h: {"player": "P05", "tour": "Tour", "site": "lichess"},
        "nothing to unlink",
    ),
    "a tour file that is not JSON": (
        "tour import",
        "HQ",
        lambda w, h: {"file": Upload("t.json", b"{not json")},
        "cannot be used",
    ),
    "a knock-out game before the knock-out": (
        "game report",
        "arbiter",
        lambda w, h: {"event": "Open", "game": "QF1 day 1 game 1", "result": "1-0"},
        "has not started",
    ),
}
"""Bad input by a role that may run the command: one private line naming the problem."""


@IN_MODULE_LOOP
@pytest.mark.parametrize("case", sorted(HOSTILE), ids=sorted(HOSTILE))
async def test_bad_tour_input_is_one_private_line_and_writes_nothing(desk: Desk, case: str) -> None:
    command, role, options, word = HOSTILE[case]
    harness = desk.harness
    before = desk.watch.version()
    payload = harness.command_payload(command, _cast(harness)[role], options(desk.world, harness))
    outcome = await harness.run(payload)
    assert desk.watch.version() == before, f"{case}: written"
    text = outcome.reply.content or ""
    assert len(outcome.replies) == 1 and outcome.reply.ephemeral, outcome.replies
    assert "\n" not in text.strip() and word in text, text


ALLOWED = (
    ("game report", "event player"),
    ("series choose", "event player"),
    ("appeal lodge", "other event player"),
    ("event player-add", "HQ"),
    ("tour link", "HQ"),
    ("incident disconnection", "arbiter"),
    ("tour import", "HQ"),
)


@IN_MODULE_LOOP
@pytest.mark.parametrize(("command", "role"), ALLOWED, ids=[f"{c}-{r}" for c, r in ALLOWED])
async def test_the_allowed_tour_role_gets_through_the_same_options(
    desk: Desk, command: str, role: str
) -> None:
    """The options are otherwise valid: an allowed role changes the database (these run
    last: each leaves its change for the next)."""
    harness = desk.harness
    before = desk.watch.version()
    options = TOUR_MUTATING[command].options(desk.world, harness)
    outcome = await harness.run(harness.command_payload(command, _cast(harness)[role], options))
    assert desk.watch.version() != before, f"{command} as {role}: {outcome.replies}"
