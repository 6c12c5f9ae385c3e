"""The replay's `restart` step (docs/replay.md): a league script restarts the bot between
a challenge and its CL-15 deadline — idle, down across the reminders, down across the
deadline, and once more after it — and every reminder and the deadline are judged exactly
once; a bad `restart` line is refused naming it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main
from bot.offline.replay import replay, validate
from bot.offline.script import parse_script
from bot.offline.transcript import StepRecord
from tests.support.paths import ROOT

SCRIPT = ROOT / "tests" / "scripts" / "story_restart_between_challenge_and_deadline.jsonl"
DEADLINE = "passed for **Chelsea Fans** vs **Everton Fans**"
REMINDERS = (
    "the chess.com challenge of **Fulham Fans** vs **Arsenal Fans** (match 1) must be accepted",
    "the chess.com challenge of **Chelsea Fans** vs **Everton Fans** (match 2) must be issued",
    "the chess.com challenge of **Everton Fans** vs **Chelsea Fans** (match 2) must be issued",
)


def test_cl_15_a_deadline_missed_while_down_is_judged_once_across_restarts(tmp_path: Path) -> None:
    script = parse_script(SCRIPT.read_text(), SCRIPT.parent)
    records: list[StepRecord] = []

    async def run() -> None:
        await validate(script, tmp_path / "replay.db")
        await replay(script, tmp_path / "replay.db", records.append)

    asyncio.run(run())
    restarts = [r for r in records if r.title == "the bot restarted"]
    assert len(restarts) == 4 and all(r.error is None for r in records)
    posts = [(r.step, r.title, post["content"] or "") for r in records for post in r.posts]
    judged = [(step, title) for step, title, text in posts if DEADLINE in text]
    assert judged == [(restarts[2].step, "the bot restarted")]  # at the start-up after it
    assert "judged at start-up" in next(text for _, _, text in posts if DEADLINE in text)
    for reminder in REMINDERS:
        sent = [(step, title) for step, title, text in posts if reminder in text]
        assert sent == [(restarts[1].step, "the bot restarted")], reminder
    assert not any(DEADLINE in t for r in records[restarts[2].step :] for t in _texts(r))


def _texts(record: StepRecord) -> list[str]:
    return [post["content"] or "" for post in record.posts]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            '{"restart": {"at": "2017-07-01T00:00:00Z"}}',
            "restart.at: 2017-07-01T00:00:00Z is before",
        ),
        ('{"restart": {"at": "2017-09-01"}}', "restart.at: '2017-09-01' has no time zone"),
        ('{"restart": {"now": true}}', "restart: unknown key 'now'"),
        ('{"restart": true}', 'restart: expected {} or {"at": "<instant>"}'),
        ('{"restart": {}, "as": "hq"}', "restart step: unknown key 'as'"),
        ('{"lichess": {"path": "/api/games/user/a"}}', 'give "games", "file", or "path" with'),
        ('{"lichess": {"games": [{"id": 1}]}}', 'each game needs an "id"'),
        ('{"lichess": {"file": "nope.ndjson"}}', "no such file 'nope.ndjson'"),
        ('{"chesscom": {"game": {"white": {}}}}', "chesscom.game.white: expected"),
        ('{"chesscom": {"game": {}, "path": "/pub/x"}}', '"game" comes alone'),
    ],
)
def test_a_bad_restart_or_stand_in_line_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    header = (ROOT / "tests" / "scripts" / "setup_and_help.jsonl").read_text().splitlines()[2]
    script = tmp_path / "script.jsonl"
    script.write_text(f"{header}\n{line}\n")
    assert main(["replay", str(script), "--db", str(tmp_path / "out.db")]) == 2
    out, err = capsys.readouterr()
    assert message in err and "line 2" in err and out == "", err
    assert not (tmp_path / "out.db").exists()
