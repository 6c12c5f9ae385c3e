"""The `arbiter` command line: help, run without a token, bad config, db migrate and backup,
sync (Discord calls replaced), and the command reference."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import discord
import pytest

from bot.app.arbiter import ArbiterBot
from bot.app.tree import ArbiterTree
from bot.cli import main
from storage.engine.migrations import discover
from storage.shared.ownership import OwnerLock
from tests.support.forked_arbiter import Finished, run_arbiter
from tests.support.paths import ROOT


def arbiter(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Finished:
    """Run `python -m bot ARGS` (what the `arbiter` script runs) in `cwd`, as a new process
    forked from the test fork server (tests/support/forked_arbiter.py)."""
    environ = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    environ["PYTHONPATH"] = str(ROOT)
    environ.update(env or {})
    return run_arbiter(list(args), cwd, environ, timeout=60)


def test_help_lists_run_sync_db(tmp_path: Path) -> None:
    result = arbiter("--help", cwd=tmp_path)
    assert result.returncode == 0
    for name in ("run", "sync", "db", "commands"):
        assert f"\n    {name} " in result.stdout


def test_run_without_token_exits_2_naming_discord_token(tmp_path: Path) -> None:
    result = arbiter("run", cwd=tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "data").exists(), "nothing is created before the token check"


def test_bad_config_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[chesscom]\ntimeout_seconds = 0\n")
    result = arbiter("run", cwd=tmp_path, env={"DISCORD_TOKEN": "x"})
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "chesscom.timeout_seconds" in result.stderr
    assert "Traceback" not in result.stderr


def test_db_migrate_then_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "config.toml"
    db = tmp_path / "store" / "arbiter.db"
    config.write_text(f'[database]\npath = "{db}"\n')
    assert main(["db", "migrate", "--config", str(config)]) == 0
    latest = len(discover())
    assert f"migrated to schema version {latest}" in capsys.readouterr().out
    assert main(["db", "migrate", "--config", str(config)]) == 0
    assert "nothing to do" in capsys.readouterr().out

    copy = tmp_path / "copy.db"
    assert main(["db", "backup", str(copy), "--config", str(config)]) == 0
    with sqlite3.connect(copy) as connection:
        assert connection.execute("PRAGMA user_version").fetchone()[0] == latest
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    assert main(["db", "backup", str(copy), "--config", str(config)]) == 2
    assert "already exists" in capsys.readouterr().err


def test_sync_sends_the_tree_to_the_chosen_guild(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[object] = []

    async def login(self: ArbiterBot, token: str) -> None:
        calls.append(("login", token))
        await self.setup_hook()

    async def sync(self: ArbiterTree, *, guild: object = None) -> list:
        calls.append(("sync", getattr(guild, "id", None)))
        return self.get_commands(guild=guild)

    monkeypatch.setattr(ArbiterBot, "login", login)
    monkeypatch.setattr(ArbiterTree, "sync", sync)
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    monkeypatch.chdir(tmp_path)

    assert main(["sync", "--guild", "1234"]) == 0
    assert calls == [("login", "secret"), ("sync", 1234)]
    out = capsys.readouterr().out
    assert "to guild 1234" in out and "help" in out and "setup" in out
    assert not (tmp_path / "data").exists(), "sync must not touch the real database"

    calls.clear()
    assert main(["sync"]) == 0
    assert calls == [("login", "secret"), ("sync", None)]


def test_readme_command_reference_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli.handlers.reference import section

    assert main(["commands"]) == 0
    generated = capsys.readouterr().out
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert section(readme) == generated, "run: arbiter commands --readme README.md"


def test_readme_lists_every_subcommand_as_the_parser_has_it() -> None:
    """Issue 20: the README's command list left out `season`, `tour`, `replay` and `demo`;
    it is now generated from the parser (`arbiter commands --readme README.md`)."""
    from bot.cli import build_parser
    from bot.cli.handlers.reference import CLI_END, CLI_START, render_cli, section

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = section(readme, CLI_START, CLI_END)
    assert listed == render_cli(build_parser()), "run: arbiter commands --readme README.md"
    for name in ("season import", "tour", "replay", "demo", "db backup", "chesscom match"):
        assert f"`arbiter {name} " in listed, name


def test_commands_readme_rewrites_only_the_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli.handlers.reference import END, START

    readme = tmp_path / "README.md"
    readme.write_text(f"# Title\n\n{START}\nold\n{END}\n\nTail\n")
    assert main(["commands", "--readme", str(readme)]) == 0
    text = readme.read_text()
    assert text.startswith("# Title\n\n") and text.endswith(f"{END}\n\nTail\n")
    assert "/setup show" in text and "old" not in text
    assert capsys.readouterr().out.startswith("updated the command reference")
    assert main(["commands", "--readme", str(readme)]) == 0
    assert "is already current" in capsys.readouterr().out
    assert readme.read_text() == text


@pytest.mark.parametrize("command", [["db", "migrate"], ["run"]])
@pytest.mark.parametrize("kind", ["a folder", "not a database"])
def test_unusable_database_path_is_one_line_naming_the_key(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
    kind: str,
) -> None:
    # database.path naming a folder, or a file that is not SQLite: exit 2, one line naming
    # the key, no traceback; `run` says so before it contacts Discord.
    target = tmp_path / "somewhere"
    if kind == "a folder":
        target.mkdir()
    else:
        target.write_text("token = 'not a database at all'\n" * 100)
    before = None if target.is_dir() else target.read_bytes()
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{target}"\n')

    async def login(self: ArbiterBot, token: str) -> None:
        raise AssertionError("contacted Discord before opening the database")

    monkeypatch.setattr(ArbiterBot, "login", login)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **_: None)  # keep root logging
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    assert main([*command, "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "database.path" in err and str(target) in err, err
    if before is not None:
        assert target.read_bytes() == before


def test_a_config_file_named_but_missing_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A mistyped --config must not silently run on the defaults (a new, empty ./data database).
    monkeypatch.chdir(tmp_path)
    missing = tmp_path / "conifg.toml"
    assert main(["db", "migrate", "--config", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(missing) in err and "no such" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("guild", ["0", "-5"])
def test_sync_to_a_guild_id_that_cannot_exist_is_refused(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    guild: str,
) -> None:
    # `--guild 0` read as "no guild" published the commands globally instead.
    calls: list[object] = []

    async def login(self: ArbiterBot, token: str) -> None:
        calls.append("login")

    monkeypatch.setattr(ArbiterBot, "login", login)
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["sync", "--guild", guild])
    assert exited.value.code == 2
    assert "--guild" in capsys.readouterr().err
    assert calls == []


def test_run_on_a_database_newer_than_the_program_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # After a downgrade: refuse clearly (as `db migrate` does), before contacting Discord.
    database = tmp_path / "arbiter.db"
    with sqlite3.connect(database) as connection:
        connection.execute("PRAGMA user_version = 999")
    connection.close()
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{database}"\n')

    async def login(self: ArbiterBot, token: str) -> None:
        raise AssertionError("contacted Discord before opening the database")

    monkeypatch.setattr(ArbiterBot, "login", login)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **_: None)
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    assert main(["run", "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "newer than this program" in err, err


def test_run_beside_another_running_bot_is_refused_before_contacting_discord(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two bots on one database would fire every deadline twice: the second one refuses.
    database = tmp_path / "arbiter.db"
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{database}"\n')
    running = OwnerLock.acquire(database)

    async def login(self: ArbiterBot, token: str) -> None:
        raise AssertionError("contacted Discord although another bot owns the database")

    monkeypatch.setattr(ArbiterBot, "login", login)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **_: None)
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    try:
        assert main(["run", "--config", str(config)]) == 1
    finally:
        running.release()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"process {os.getpid()}" in err, err
    with sqlite3.connect(database) as connection:  # nothing was migrated by the refused bot
        assert connection.execute("PRAGMA user_version").fetchone() == (0,)
    connection.close()


def test_run_logs_its_own_lines_not_discords_voice_warnings(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 20: `arbiter run` printed discord.py's PyNaCl / davey voice warnings before its
    own line. Arbiter has no voice: they are filtered; at INFO discord.py says only warnings
    and errors, Arbiter its own start-up lines."""
    import logging

    import discord

    from bot.app.arbiter import ArbiterBot
    from bot.cli.run import configure_logging
    from bot.kernel.config import Config

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))  # restored after the test
    monkeypatch.setattr(root, "level", root.level)
    monkeypatch.setattr(logging.getLogger("discord"), "level", logging.NOTSET)
    configure_logging("INFO")
    assert logging.getLogger("discord").getEffectiveLevel() == logging.WARNING
    assert logging.getLogger("bot.app.arbiter").getEffectiveLevel() == logging.INFO
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    with caplog.at_level(logging.DEBUG):
        ArbiterBot(Config())
    said = [record.getMessage() for record in caplog.records]
    assert not [m for m in said if "voice will NOT be supported" in m], said
