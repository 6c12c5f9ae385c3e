"""The permission matrix, generated from the tree: every command of `bot.app.tree` is either
read-only or a mutating command with the roles of docs/league-in-discord.md's table that may
run it; every other role (a club admin acting for another club, HQ acting as a director…) is
refused with one ephemeral line naming the role it needs, and the database file's dump is
unchanged."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.support.command_tree import Rule, is_tour_command, rule, tree_commands
from tests.support.command_world import (
    ADMINS,
    BOARDS_CSV,
    PENDING,
    SEASON_FILE,
    SPRING,
    CommandWorld,
    dump,
    invoke,
    league_bot,
    members,
)
from tests.support.discord_harness import Upload

ROLES = (
    "player",
    "club admin",
    "other club's admin",
    "HQ",
    "director",
    "arbiter",
    "server manager",
)
"""Who may act, as the roles table of docs/league-in-discord.md has them; "club admin" is an
admin of the club (or of a club of the match) the command acts for, "other club's admin" one
of a different club."""

HQ = ("league HQ",)
MUTATING: dict[str, Rule[CommandWorld]] = {
    "club register": rule(
        set(ROLES),
        (),
        lambda w, h: {
            "chesscom_club": "chess-com-developer-community",
            "admin2": h.member(user_id=9),
        },
    ),
    "club approve": rule({"HQ"}, HQ, lambda w, h: {"club": PENDING}),
    "club reject": rule({"HQ"}, HQ, lambda w, h: {"club": PENDING, "reason": "No."}),
    "club admin-add": rule(
        {"club admin"}, ("club admin",), lambda w, h: {"club": "A", "user": h.member(user_id=299)}
    ),
    "club admin-remove": rule(
        {"club admin"},
        ("club admin",),
        lambda w, h: {"club": "A", "user": h.member(user_id=ADMINS["A"][2])},
    ),
    "club channel": rule(
        {"club admin"}, ("club admin",), lambda w, h: {"club": "A", "channel": h.channel("general")}
    ),
    "match challenge": rule(
        {"club admin"},
        ("club admin",),
        lambda w, h: {"match": w.open_match, "chesscom_match": "12803"},
    ),
    "match accept": rule({"club admin"}, ("club admin",), lambda w, h: {"match": w.to_accept}),
    "match correct-challenge": rule(  # CL-15: only an arbiter corrects a recorded challenge
        {"arbiter"},
        ("arbiter",),
        lambda w, h: {"match": str(w.to_accept), "chesscom_match": "12804"},
    ),
    "match report": rule(
        {"club admin", "arbiter"},
        ("club admin", "arbiter"),
        lambda w, h: {"match": w.open_match, "chesscom_match": "12803"},
    ),
    "match result": rule(  # CL-14: an arbiter's correction of a played match
        {"arbiter"},
        ("arbiter",),
        lambda w, h: {"match": w.played_match, "file": Upload("boards.csv", BOARDS_CSV)},
    ),
    "match reschedule": rule(
        {"director"},
        ("director",),
        lambda w, h: {"match": w.open_match, "start": "2026-04-08 18:00"},
    ),
    "season create": rule({"HQ"}, HQ, lambda w, h: {"name": "Autumn", "first_round": "2026-09-01"}),
    "season division-add": rule(
        {"HQ"}, HQ, lambda w, h: {"season": SPRING, "name": "Second", "min_players": 3}
    ),
    "season club-add": rule(
        {"HQ"},
        HQ,
        lambda w, h: {"season": SPRING, "division": "Premier Division", "club": "C"},
    ),
    "season club-remove": rule(
        {"HQ"},
        HQ,
        lambda w, h: {"season": SPRING, "division": "Premier Division", "club": "A"},
    ),
    "season schedule": rule({"HQ"}, HQ, lambda w, h: {"season": SPRING}),
    "season cutoff": rule({"HQ"}, HQ, lambda w, h: {"season": SPRING, "date": "2026-12-01"}),
    "season withdraw": rule({"HQ"}, HQ, lambda w, h: {"season": "Test season", "club": "A"}),
    "season import": rule(
        {"HQ"}, HQ, lambda w, h: {"file": Upload("season.json", SEASON_FILE), "name": "Copy"}
    ),
    # Anyone chooses their own direct messages (tests/app/test_notify.py).
    "notify": rule(set(ROLES), (), lambda w, h: {"kind": "vote", "on": False}),
    "setup set": rule(
        {"server manager"}, ("Manage Server",), lambda w, h: {"hq_role": h.role("Arbiter")}
    ),
    # Manage Server and the HQ role together, which no one member of the cast holds: each
    # alone is refused (tests/app/test_setup_web.py names what each refusal says).
    "setup web": rule(set(), (), lambda w, h: {"slug": "my-club"}),
    "vote open": rule({"director"}, ("director",), lambda w, h: {"kind": "other", "reason": "x"}),
    "vote cast": rule(
        {"director"}, ("director",), lambda w, h: {"motion": w.motion, "choice": "yes"}
    ),
    "roster link": rule(
        {"club admin", "other club's admin"},
        ("club admin",),
        lambda w, h: {"chesscom_username": "someone", "user": h.member(user_id=299)},
    ),
    "roster remove": rule(
        {"club admin"},
        ("club admin",),
        lambda w, h: {
            "club": "A",
            "player": "a2",
            "reason": "other",
            "note": "Left the club.",
            "season": "Test season",
        },
    ),
    "standings-pin": rule({"HQ"}, HQ, lambda w, h: {"season": "Test season", "division": "P"}),
}
"""Every command that changes the league, with who may run it (docs/league-in-discord.md).
`roster link` is checked linking another member's account (anyone may link their own)."""

READ_ONLY = {
    "club info",
    "crosstable",
    "roster check",
    "roster removals",
    "standings",
    "club list",
    "help",
    "match list",
    "match show",
    "my games",
    "my matches",
    "my votes",
    "season show",
    "season calendar",
    "season promotion",
    "season export",
    "setup show",
    "vote list",
    "vote show",
}
"""Every command that only reads: anyone may run it (no refusal to check)."""


TREE = list(tree_commands())

CASES = [
    (command, role)
    for command, rule in sorted(MUTATING.items())
    for role in ROLES
    if role not in rule.allowed
]


def test_every_command_of_the_tree_is_in_the_permission_matrix() -> None:
    """A command found in the tree but in neither table fails: decide who may run it (the
    tour's commands are in tests/tour/commands/test_permission_matrix.py)."""
    league = [c for c in TREE if not is_tour_command(c)]
    missing = [c for c in league if c not in MUTATING and c not in READ_ONLY]
    assert not missing, f"new command not in the permission matrix: {missing}"
    stale = sorted((set(MUTATING) | READ_ONLY) - set(league))
    assert not stale, f"the matrix names commands the tree no longer has: {stale}"
    assert not set(MUTATING) & READ_ONLY


def test_the_matrix_refuses_hq_as_a_director_and_admins_of_another_club() -> None:
    """docs/league-in-discord.md: HQ is not implicitly a director; a club admin acts for their
    own club."""
    assert ("match reschedule", "HQ") in CASES and ("vote cast", "HQ") in CASES
    assert ("club admin-add", "other club's admin") in CASES
    assert ("match challenge", "other club's admin") in CASES
    assert len(CASES) >= 100


@pytest.mark.parametrize(("command", "role"), CASES, ids=[f"{c}-{r}" for c, r in CASES])
async def test_a_refused_role_gets_one_ephemeral_line_naming_the_role_and_nothing_is_written(
    world_file: tuple[Path, CommandWorld], tmp_path: Path, command: str, role: str
) -> None:
    source, world = world_file
    path = tmp_path / "league.db"
    shutil.copy(source, path)
    rule = MUTATING[command]
    async with league_bot(path) as (_, harness, _clock):
        user = members(harness)[role]
        before = dump(path)
        outcome = await invoke(harness, command, user, rule.options(world, harness))
        after = dump(path)
    assert len(outcome.replies) == 1, outcome.replies
    reply = outcome.reply
    text = reply.content or ""
    assert reply.ephemeral, f"{command} as {role}: the refusal is public: {text}"
    assert "\n" not in text.strip(), text
    for name in rule.names:
        assert name.lower() in text.lower(), f"{command} as {role}: {text!r} does not name {name}"
    assert not outcome.posts, outcome.posts
    assert after == before, f"{command} as {role} wrote to the database"


async def test_the_allowed_role_gets_through_the_same_options(
    world_file: tuple[Path, CommandWorld], tmp_path: Path
) -> None:
    """The options are otherwise valid: the roles the matrix allows are not refused by them
    (checked for the roles of the HQ, director and arbiter commands)."""
    source, world = world_file
    for command, role in (
        ("season division-add", "HQ"),
        ("match reschedule", "director"),
        ("match result", "arbiter"),
        ("match correct-challenge", "arbiter"),
        ("club admin-add", "club admin"),
        ("match accept", "club admin"),
        ("match challenge", "club admin"),
        ("vote cast", "director"),
        ("roster remove", "club admin"),
        ("standings-pin", "HQ"),
        ("roster link", "other club's admin"),
    ):
        path = tmp_path / f"{command.replace(' ', '-')}.db"
        shutil.copy(source, path)
        async with league_bot(path) as (_, harness, _clock):
            before = dump(path)
            options = MUTATING[command].options(world, harness)
            outcome = await invoke(harness, command, members(harness)[role], options)
            assert dump(path) != before, f"{command} as {role}: {outcome.replies}"
