"""Every kind of replay step through the real bot, on a probe cog (tests/support/replay_probe.py):
buttons clicked by label, autocomplete, an attachment, the chess.com stand-in (a payload file,
then a status), an announcement and a scheduled job's post on the virtual clock, an
unexpected error with a counted error id."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

import bot.app.arbiter as arbiter_module
from bot.cli import main
from bot.offline.transcript import StepRecord
from tests.support.paths import ROOT

PROBE_SCRIPT = ROOT / "tests" / "scripts" / "probe" / "steps.jsonl"


@pytest.fixture
def probe_cog(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load tests/support/replay_probe.py beside the real cogs."""
    real = arbiter_module.cog_names
    monkeypatch.setattr(
        arbiter_module, "cog_names", lambda: [*real(), "tests.support.replay_probe"]
    )


def test_every_kind_of_step(probe_cog: None, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["replay", str(PROBE_SCRIPT), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["step"] for r in records] == list(range(1, 25))
    vote, click = records[0], records[2]
    assert vote["replies"] == [
        {
            "ephemeral": False,
            "content": "Vote?",
            "embeds": [],
            "files": [],
            "buttons": ["Yes", "No"],
        }
    ]
    assert click["replies"][0]["content"] == "bob voted No" and click["replies"][0]["buttons"] == []
    assert records[4]["replies"][0]["choices"] == ["barca-fans", "bayern-fans"]
    size = len((PROBE_SCRIPT.parent / "payload.json").read_bytes())
    assert records[6]["replies"][0]["content"] == f"payload.json: {size} bytes"
    assert records[14]["posts"] == [
        {
            "channel": "announcements",
            "edited": False,
            "content": "Reminder set by @hq",
            "embeds": [],
            "files": [],
        }
    ]
    early, due = records[16], records[17]
    assert early["posts"] == [] and early["at"] == "2017-08-01T09:59:00Z"
    assert [p["content"] for p in due["posts"]] == ["Reminder at 10:00"]
    assert due["at"] == "2017-08-01T11:00:00Z"
    boom = records[19]
    assert "error id `00000001`" in boom["replies"][0]["content"]
    assert "ZeroDivisionError: deliberate" in boom["error"]


def test_a_click_on_a_missing_button_stops_naming_the_step(
    probe_cog: None, tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    header = PROBE_SCRIPT.read_text().splitlines()[1]
    script = tmp_path / "click.jsonl"
    script.write_text(
        "\n".join(
            [
                header,
                '{"as": "hq", "command": "probe vote"}',
                '{"as": "bob", "click": {"step": 1, "button": "Maybe"}}',
            ]
        )
    )
    assert main(["replay", str(script)]) == 1
    err = capsys.readouterr().err
    assert (
        "step 2 (line 3): no button 'Maybe' on the messages of step 1 (buttons there: No, Yes)"
        in err
    )


def test_the_readable_transcript_escapes_control_characters() -> None:
    """A reply carrying NUL, a carriage return or a line separator stays on its lines in the
    readable transcript (escaped), while a newline still starts an indented line."""
    record = StepRecord(
        1,
        2,
        "/echo",
        datetime(2030, 1, 1, tzinfo=UTC),
        replies=[
            {
                "ephemeral": False,
                "content": "a\0b\nc\rd\u2028e",
                "embeds": [{"title": "t\x1b", "description": "x\0", "fields": [["f\0", "v"]]}],
            }
        ],
        error="bad\0",
    )
    text = record.as_text()
    assert text.split("\n") == [
        "step 1 · 2030-01-01T00:00:00Z · /echo",
        "  reply (public): a\\x00b",
        "    c\\rd\\u2028e",
        "    [t\\x1b]",
        "      x\\x00",
        "      f\\x00:",
        "        v",
        "  error: bad\\x00",
    ]
    assert all(c == "\n" or c.isprintable() for c in text)


GAMES_SCRIPT = ROOT / "tests" / "scripts" / "probe" / "games.jsonl"


def test_the_stand_ins_serve_games_through_the_replay_across_a_restart(
    probe_cog: None, capsys: pytest.CaptureFixture[str]
) -> None:
    """`chesscom` `game` steps fill the monthly archives, `lichess` steps the export (a file,
    then a status); the bot's clients reach both through its config, before and after a
    `restart` (the stand-ins are outside the bot and outlive it)."""
    code = main(["replay", str(GAMES_SCRIPT), "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    records = [json.loads(line) for line in out.splitlines()]
    replies = [r["replies"][0]["content"] for r in records if r["replies"]]
    assert replies == [
        'not read: User "albarook" not found.',
        "found: https://www.chess.com/game/live/4000000002",
        "found: https://lichess.org/Hx2vN8cE",
        "not read: HTTP 503 (after 1 attempt)",
        "found: https://www.chess.com/game/live/4000000002",
    ]
    restart = next(r for r in records if r["step"] == 8)
    assert restart["at"] == "2021-02-07T22:00:00Z" and restart["error"] is None
