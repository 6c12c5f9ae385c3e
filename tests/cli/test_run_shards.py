"""`arbiter run --shards IDS --shard-count N` (issue 25 item 4): refused, in one line with
exit 2 and before anything is opened or Discord contacted, on SQLite (one bot owns a file)
and for options that name no shards of the count. Shard processes on PostgreSQL are run in
tests/process/test_shard_processes.py."""

from __future__ import annotations

from pathlib import Path

import discord
import pytest

from bot.app.arbiter import ArbiterBot
from bot.cli import main


@pytest.fixture
def refused_before_discord(monkeypatch: pytest.MonkeyPatch) -> None:
    """A token, and a bot that fails the test if it opens its database or logs in."""

    async def opened(self: ArbiterBot) -> None:
        raise AssertionError("opened the database before checking the shard options")

    monkeypatch.setattr(ArbiterBot, "open_database", opened)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **_: None)
    monkeypatch.setenv("DISCORD_TOKEN", "secret")


@pytest.mark.parametrize(
    ("engine", "options", "message"),
    [
        ("path", ["--shards", "0-3", "--shard-count", "8"], "shard processes need PostgreSQL"),
        ("url", ["--shards", "0-3"], "--shards and --shard-count go together"),
        ("url", ["--shard-count", "8"], "--shards and --shard-count go together"),
        ("url", ["--shards", "0-8", "--shard-count", "8"], "from 0 to 7"),
        ("url", ["--shards", "3-1", "--shard-count", "8"], "runs backwards"),
        ("url", ["--shards", "x", "--shard-count", "8"], "expected shard ids"),
        ("url", ["--shards", "\x1b[2J", "--shard-count", "8"], "expected shard ids"),
        ("url", ["--shards", "0", "--shard-count", "0"], "between 1 and 4096"),
        ("url", ["--shards", "0", "--shard-count", "-4"], "between 1 and 4096"),
        ("url", ["--shards", "0-99999999", "--shard-count", "8"], "at most 4096"),
    ],
)
def test_bad_shard_options_are_one_line_exit_2_touching_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    refused_before_discord: None,
    engine: str,
    options: list[str],
    message: str,
) -> None:
    config = tmp_path / "config.toml"
    if engine == "path":
        config.write_text(f'[database]\npath = "{tmp_path / "arbiter.db"}"\n')
    else:
        config.write_text('[database]\nurl = "postgresql://127.0.0.1:9/nowhere"\n')
    assert main(["run", *options, "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert "Traceback" not in err
    assert not (tmp_path / "arbiter.db").exists()
