"""`arbiter replay`: the scripts under tests/scripts pass; a wrong expectation stops with
exit 1 naming the step; a bad line is exit 2 naming the line, with nothing run or written;
the transcript is byte-identical from run to run; --db leaves a database `arbiter db` reads."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.cli import main
from bot.offline.discord_messages import stable_id
from bot.runtime.clock import VirtualClock
from bot.runtime.outbox import OutboxSender
from storage.engine.database import Database
from storage.guild import GuildStore
from tests.support.discord_harness import DEFAULT_GUILD_ID, DiscordHarness
from tests.support.hash_seed import another_hash_seed
from tests.support.paths import ROOT

SCRIPTS = sorted((ROOT / "tests" / "scripts").glob("*.jsonl"))
SETUP = ROOT / "tests" / "scripts" / "setup_and_help.jsonl"
HEADER = SETUP.read_text().splitlines()[2]


def test_the_scripts_are_found() -> None:
    assert SETUP in SCRIPTS


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_every_script_passes(script: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(script)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.startswith("step 1 · ")


def _script(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "script.jsonl"
    path.write_text("\n".join([HEADER, *lines]) + "\n")
    return path


def test_a_wrong_expectation_fails_naming_the_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script(
        tmp_path,
        '{"as": "alice", "command": "help"}',
        "// alice may not use /setup: her /help does not list it",
        '{"expect": {"contains": "/setup show"}}',
        '{"as": "alice", "command": "help"}',
    )
    assert main(["replay", str(script)]) == 1
    out, err = capsys.readouterr()
    assert err.startswith(
        "arbiter replay: step 2 (line 4): expected a reply to step 1 containing '/setup show'"
    )
    assert "it said: Arbiter commands you can use here" in err
    assert out.startswith("step 1 · ") and "step 3" not in out  # stopped at the failure


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"as": "alice", "command": "help"', ""], "line 2: not JSON"),
        (['{"as": "zed", "command": "help"}'], "line 2: as: 'zed' is not a member"),
        (['{"as": "hq", "command": "setup wipe"}'], "line 2: no slash command /setup wipe"),
        (
            ['{"as": "hq", "command": "setup set", "options": {"hq_role": "&Nobody"}}'],
            "line 2: /setup set option 'hq_role': expected &role",
        ),
        (
            ['{"as": "hq", "command": "setup set", "options": {"colour": "red"}}'],
            "line 2: /setup set has no option 'colour'",
        ),
        (['{"at": "2017-07-01T00:00:00Z"}'], "line 2: at: 2017-07-01T00:00:00Z is before"),
        (['{"at": "2017-09-01"}'], "line 2: at: '2017-09-01' has no time zone"),
        (['{"as": "hq", "click": {"step": 1, "button": "Yes"}}'], "line 2: click.step"),
        (['{"chesscom": {"path": "/pub/x", "status": 200, "json": {}}}'], "exactly one of"),
        (['{"chesscom": {"path": "/pub/x", "file": "nope.json"}}'], "no such file 'nope.json'"),
        (['{"expect": {"contains": "x"}}'], "line 2: expect: there is no earlier step"),
        (['{"as": "hq", "command": "help"}', '{"expect": {"colour": 1}}'], "unknown key 'colour'"),
        (['{"dance": true}'], "line 2: unknown step"),
        (
            ['{"as": "hq", "command": "standings", "options": {"season": "S", "format": "xml"}}'],
            "line 2: /standings option 'format': 'xml' is not one of its choices (embed, image",
        ),
    ],
)
def test_a_bad_line_is_refused_naming_it_and_nothing_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], message: str
) -> None:
    script = _script(tmp_path, *lines)
    database = tmp_path / "out.db"
    assert main(["replay", str(script), "--db", str(database)]) == 2
    out, err = capsys.readouterr()
    assert message in err and err.count("\n") == 1, err
    assert out == "" and not database.exists()


def test_a_command_the_tree_lacks_leaves_no_database_nor_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The script is checked on the tree of the bot the replay starts, before its first step, and
    what that bot made on the way is removed."""
    script = _script(tmp_path, '{"as": "hq", "command": "help"}', '{"as": "hq", "command": "nope"}')
    database = tmp_path / "new" / "deeper" / "out.db"
    assert main(["replay", str(script), "--db", str(database)]) == 2
    out, err = capsys.readouterr()
    assert "line 3: no slash command /nope" in err and err.count("\n") == 1, err
    assert out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["script.jsonl"]


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ('{"replay": 2}', 'line 1: the header must say "replay": 1'),
        (
            HEADER.replace('"roles": ["HQ"]', '"roles": ["Boss"]'),
            "line 1: members[0].roles: no role 'Boss'",
        ),
        (
            HEADER[:-1] + ', "config": {"rules": {"cl": {"max_members": 0}}}}',
            "line 1: config.rules.cl.max_members",
        ),
        (  # the one name gate (issue 20): a replay script is a door too
            HEADER.replace('{"name": "alice"}', '{"name": "al\\u202eice"}'),
            "the invisible character U+202E",
        ),
    ],
)
def test_a_bad_header_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], header: str, message: str
) -> None:
    script = tmp_path / "script.jsonl"
    script.write_text(header + "\n")
    assert main(["replay", str(script)]) == 2
    assert message in capsys.readouterr().err


def test_two_runs_give_byte_identical_transcripts(capsys: pytest.CaptureFixture[str]) -> None:
    """In separate processes with different hash seeds, this one and a fresh `python -m bot`:
    no dict or set order, real time or random id reaches the transcript."""
    assert main(["replay", str(SETUP), "--json"]) == 0
    here = capsys.readouterr().out.encode()
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": another_hash_seed()}
    result = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(SETUP), "--json"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    outputs = [here, result.stdout]
    assert outputs[0] == outputs[1]
    assert outputs[0].count(b"\n") == len(
        [line for line in SETUP.read_text().splitlines()[3:] if line.startswith("{")]
    )


def test_the_database_is_left_at_db_for_arbiter_db(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "league.db"
    assert main(["replay", str(SETUP), "--db", str(database)]) == 0
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{database}"\n')
    capsys.readouterr()
    assert main(["db", "migrate", "--config", str(config)]) == 0
    assert "nothing to do" in capsys.readouterr().out
    assert main(["db", "backup", str(tmp_path / "copy.db"), "--config", str(config)]) == 0

    async def settings() -> tuple[int | None, int | None]:
        opened = await Database.open(tmp_path / "copy.db")
        try:
            guild = stable_id("guild", "CL League")
            async with GuildStore(opened, guild).read() as view:
                saved = await view.settings.get()
            return saved.hq_role_id, saved.announcements_channel_id
        finally:
            await opened.close()

    guild = stable_id("guild", "CL League")
    assert asyncio.run(settings()) == (
        stable_id(guild, "role", "HQ"),
        stable_id(guild, "channel", "announcements"),
    )
    assert main(["replay", str(SETUP), "--db", str(database)]) == 2  # not replayed onto it
    assert "already exists" in capsys.readouterr().err


async def test_the_outbox_on_a_virtual_clock_delivers_when_the_clock_runs(
    bot, harness: DiscordHarness
) -> None:
    """A wake puts a pass on the clock at "now"; a 503 puts the retry on the clock, run when
    the clock reaches it: nothing waits for real time."""
    assert bot.outbox is not None
    await bot.outbox.stop()
    clock = VirtualClock(datetime(2030, 1, 1, tzinfo=UTC))
    sender = OutboxSender(bot.database, bot, clock=clock, timer=clock)
    channel = harness.channel("announcements")
    harness.answer_next("POST", 503)
    async with GuildStore(bot.database, DEFAULT_GUILD_ID).change(1, "t", "s") as uow:
        await uow.outbox.post(channel, content="hello")
    sender.wake()
    assert harness.posts == []  # nothing before the clock runs
    await clock.advance_to(clock())
    assert harness.posts == [] and [key for _, key in clock.due()] == ["outbox-pass"]
    [(retry_at, _)] = clock.due()
    assert retry_at == clock() + timedelta(seconds=2)
    await clock.advance(timedelta(seconds=2))
    assert [post.content for post in harness.posts] == ["hello"]
    assert clock.due() == []


def test_the_documented_autocomplete_on_an_integer_option_answers_choices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/replay.md's own example — typing `ars` in /match report's integer `match` option
    — is what Discord sends (the text typed so far) and gets choices, not a traceback."""
    script = _script(
        tmp_path,
        '{"as": "alice", "autocomplete": "match report", "option": "match", "value": "ars"}',
    )
    assert main(["replay", str(script)]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "typing match:ars in /match report" in out and "choices: (none)" in out


def test_the_readable_transcript_marks_edits_and_hides_the_stand_in_unless_verbose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What the chess.com stand-in serves is not something a Discord user sees: left out of
    the readable transcript (not of --json), shown with --verbose; a motion message the bot
    edits is an edit, not a second post."""
    script = ROOT / "tests" / "scripts" / "story_roster_removal_motion_forfeit.jsonl"
    assert main(["replay", str(script)]) == 0
    quiet = capsys.readouterr().out
    assert main(["replay", str(script), "--verbose"]) == 0
    verbose = capsys.readouterr().out
    assert "serves" not in quiet and "chess.com /pub/" in verbose
    assert "edit of a message in #" in quiet
    lines = quiet.splitlines()
    opened = [line for line in lines if line.startswith("  post #directors: Motion 1 ")]
    edits = [line for line in lines if line.startswith("  edit of a message in #directors")]
    assert len(opened) == 1 and edits, (opened, edits)
