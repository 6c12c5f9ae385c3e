"""Hostile command-line input (issue 8, item 10): each is refused with one clear line on
stderr, exit 2, no traceback, and nothing written; input files are read with a 16 MiB cap."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from bot.cli import main
from bot.cli.input_file import MAX_INPUT_BYTES
from tests.paths import ROOT, SHARED

TRF = SHARED / "fixtures" / "tiebreaks" / "fide_held_round_robin.trf"
SEASON = ROOT / "docs" / "examples" / "season.json"


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run `arbiter ARGV` in-process; assert exit 2 without a traceback and return the one
    line that says why (argparse prints its usage first, then one `error:` line)."""
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.out == ""
    assert "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    reason = lines[-1]
    assert reason.startswith("arbiter "), captured.err
    assert all("error:" not in line for line in lines[:-1]), "more than one error line"
    return reason


def files_under(folder: Path) -> set[Path]:
    return {path.relative_to(folder) for path in folder.rglob("*")}


@pytest.fixture
def database(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A migrated database and the configuration naming it, in `tmp_path`."""
    db = tmp_path / "arbiter.db"
    (tmp_path / "config.toml").write_text(f'[database]\npath = "{db}"\n')
    assert main(["db", "migrate", "--config", str(tmp_path / "config.toml")]) == 0
    capsys.readouterr()
    return tmp_path / "config.toml"


# --- chess.com options: refused before any request (argparse runs before the client) ----------


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "NaN", "-1", "0", "1e308", "3601", "x"])
def test_chesscom_timeout_must_be_finite_positive_and_bounded(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    reason = refused(["chesscom", "match", "1", "--contact", "a@b.c", f"--timeout={value}"], capsys)
    assert "argument --timeout" in reason


@pytest.mark.parametrize("value", ["-1", "11", "99999999999999999999", "1.5", ""])
def test_chesscom_retries_bounded(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    reason = refused(["chesscom", "player", "erik", f"--retries={value}"], capsys)
    assert "--retries" in reason


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["match", "²"], "not a chess.com match id"),
        (["match", "1" * 300], "not a chess.com match id"),
        (["match", "../club/x"], "not a chess.com match id"),
        (["club", "a" * 100_000], "longer than 100 characters"),
        (["player", "a\x1b[31mb"], "control characters"),
        (["player", "  "], "empty"),
        (["player", "erik", "--base-url", "notaurl"], "not an http(s) URL"),
        (["player", "erik", "--base-url", "file:///etc/passwd"], "not an http(s) URL"),
        (["player", "erik", "--contact", "a\r\nX-Evil: 1"], "control characters"),
    ],
)
def test_chesscom_hostile_ids_names_and_urls(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    reason = refused(["chesscom", *argv, "--contact", "a@b.c"], capsys)
    assert expected in reason
    assert len(reason) < 400, "a huge argument is not echoed whole"
    assert "\x1b" not in reason


# --- input files: one capped reader -------------------------------------------------------------


@pytest.mark.parametrize("command", ["standings", "league"])
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_input_is_refused_at_the_cap(
    command: str, device: str, capsys: pytest.CaptureFixture[str]
) -> None:
    reason = refused([command, device], capsys)
    assert device in reason and "16 MiB" in reason


@pytest.mark.parametrize("command", ["standings", "league"])
def test_a_file_over_the_cap_is_refused(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:  # sparse: cheap to make, still over the limit when read
        handle.truncate(MAX_INPUT_BYTES + 1)
    assert "16 MiB" in refused([command, str(big)], capsys)


@pytest.mark.parametrize("command", ["standings", "league"])
def test_a_file_at_the_cap_is_read(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exactly the limit is still read (and then refused as malformed, not as too large)."""
    full = tmp_path / "full.txt"
    full.write_bytes(b" " * MAX_INPUT_BYTES)
    assert main([command, str(full)]) == 2
    error = capsys.readouterr().err
    assert "16 MiB" not in error and "Traceback" not in error
    assert "EOF" in error or "no player" in error.lower() or "empty" in error.lower(), error


@pytest.mark.parametrize("command", ["standings", "league"])
def test_folder_missing_empty_and_binary_inputs(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "folder" in refused([command, str(tmp_path)], capsys)
    assert "no such file" in refused([command, str(tmp_path / "missing")], capsys)
    assert "empty" in refused([command, ""], capsys)
    binary = tmp_path / "binary"
    binary.write_bytes(bytes(range(256)) * 4)
    assert str(binary) in refused([command, str(binary)], capsys)


def test_a_control_character_in_a_file_name_is_not_printed_raw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reason = refused(["standings", str(tmp_path / "a\x1b[2Jb.trf")], capsys)
    assert "\x1b" not in reason and "\\x1b[2Jb.trf" in reason


def test_league_withdraw_of_a_huge_unknown_name_is_not_echoed_whole(
    capsys: pytest.CaptureFixture[str],
) -> None:
    reason = refused(["league", str(SEASON), "--promotion", "--withdraw", "Z" * 1_000_000], capsys)
    assert "unknown club" in reason and len(reason) < 400


@pytest.mark.parametrize("name", ["/dev/zero", "folder", ""])
def test_config_that_cannot_be_read_in_bounded_memory(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    reason = refused(["db", "migrate", "--config", name], capsys)
    assert (name or "empty") in reason
    assert files_under(tmp_path) == {Path("folder")}, "no database was created"


def test_default_config_that_is_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config.toml").mkdir()
    assert "folder" in refused(["db", "migrate"], capsys)
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("readme", ["/dev/zero", "", "folder", "missing.md"])
def test_commands_readme_hostile_paths(
    readme: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    reason = refused(["commands", "--readme", readme], capsys)
    assert (readme or "empty") in reason
    assert files_under(tmp_path) == {Path("folder")}


# --- db backup ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("x" * 300 + ".db", "File name too long"),
        ("y" * 100_000, "File name too long"),
        ("new.db/", "names a folder"),
        ("", "empty"),
        ("   ", "empty"),
        ("folder", "is a folder"),
        ("a\x1b[31mb.db", "control characters"),
    ],
)
def test_db_backup_hostile_target(
    name: str,
    expected: str,
    database: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = database.parent
    monkeypatch.chdir(folder)
    (folder / "folder").mkdir()
    before = files_under(folder)
    reason = refused(["db", "backup", name, "--config", str(database)], capsys)
    assert expected in reason and len(reason) < 400 and "\x1b" not in reason
    assert files_under(folder) == before, "nothing written"


def test_db_backup_to_a_long_but_legal_name_works(
    database: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name near the file system's 255-byte limit still works: the temporary file beside
    it borrows only part of the name."""
    monkeypatch.chdir(database.parent)
    name = "b" * 250 + ".db"
    assert main(["db", "backup", name, "--config", str(database)]) == 0
    # immutable: SQLite must not look for a `-journal` beside it (that name would be too long)
    uri = (database.parent / name).as_uri() + "?immutable=1"
    with sqlite3.connect(uri, uri=True) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert sorted(os.listdir(database.parent)) == sorted(["arbiter.db", "config.toml", name])


# --- other commands ------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["٤", "1_0", "nan", "", "4.0", "9" * 30])
def test_berger_player_count_in_ascii_digits(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    reason = refused(["berger", value], capsys)
    assert "players" in reason or "number" in reason


@pytest.mark.parametrize("value", ["99999999999999999999999999", "18446744073709551616", "-5", ""])
def test_sync_guild_id_is_a_positive_64_bit_number(
    value: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    reason = refused(["sync", f"--guild={value}"], capsys)
    assert "guild id" in reason


@pytest.mark.parametrize("value", ["inf", "nan", "1e300"])
def test_chesscom_configured_timeout_that_aiohttp_cannot_use(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`timeout_seconds = inf` in the file overflowed inside aiohttp (a traceback)."""
    config = tmp_path / "config.toml"
    config.write_text(f'[chesscom]\ncontact = "a@b.c"\ntimeout_seconds = {value}\n')
    reason = refused(["chesscom", "match", "1", "--config", str(config)], capsys)
    assert "chesscom.timeout_seconds" in reason
