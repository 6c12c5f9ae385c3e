"""Hostile command-line input (issue 8, item 10): each is refused with one clear line on
stderr, exit 2, no traceback, and nothing written; input files are read with a 16 MiB cap.
An output path that cannot be written is a runtime failure instead: one line, exit 1."""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.cli import main
from bot.cli.handlers.reference import END, START
from bot.cli.input_file import MAX_INPUT_BYTES
from bot.formats.tour_file import TourFileError, parse_tour
from bot.kernel.config import Config
from core.league.season import quoted
from tests.support.paths import FIXTURES, ROOT

TRF = FIXTURES / "tiebreaks" / "fide_held_round_robin.trf"
SEASON = ROOT / "docs" / "examples" / "season.json"


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run `arbiter ARGV` in-process; assert exit 2, nothing on stdout and exactly one line on
    stderr saying why (argparse's refusals too: no usage lines first), and return that line."""
    try:
        code = main(argv)
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    assert code == 2, captured
    assert captured.out == ""
    assert "Traceback" not in captured.err
    lines = captured.err.splitlines()
    assert len(lines) == 1 and captured.err.endswith("\n"), captured.err
    reason = lines[0]
    assert reason.startswith(("arbiter ", "arbiter:")), captured.err
    return reason


def files_under(folder: Path) -> set[Path]:
    return {path.relative_to(folder) for path in folder.rglob("*")}


@pytest.fixture
def migrated_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The configuration naming a database `arbiter db migrate` made, in `tmp_path` (the CLI's
    door; not the shared `database` fixture, which opens one in-process)."""
    db = tmp_path / "arbiter.db"
    (tmp_path / "config.toml").write_text(f'[database]\npath = "{db}"\n')
    assert main(["db", "migrate", "--config", str(tmp_path / "config.toml")]) == 0
    capsys.readouterr()
    return tmp_path / "config.toml"


# --- chess.com options: refused before any request (argparse runs before the client) ----------


@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "NaN", "-1", "0", "1e308", "601", "x"])
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
        (["match", "1" * 300], "chess.com match is too long"),
        (["match", "../club/x"], "not a chess.com match id"),
        (["club", "a" * 100_000], "longer than 100 characters"),
        (["player", "a\x1b[31mb"], "control characters"),
        (["player", "  "], "empty"),
        (["player", "bad name!"], "is not a chess.com username"),  # refused before a request
        (["player", "../club/x"], "is not a chess.com username"),
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
    migrated_config: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    folder = migrated_config.parent
    monkeypatch.chdir(folder)
    (folder / "folder").mkdir()
    before = files_under(folder)
    reason = refused(["db", "backup", name, "--config", str(migrated_config)], capsys)
    assert expected in reason and len(reason) < 400 and "\x1b" not in reason
    assert files_under(folder) == before, "nothing written"


def test_db_backup_to_a_long_but_legal_name_works(
    migrated_config: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name near the file system's 255-byte limit still works: the temporary file beside
    it borrows only part of the name."""
    monkeypatch.chdir(migrated_config.parent)
    name = "b" * 250 + ".db"
    assert main(["db", "backup", name, "--config", str(migrated_config)]) == 0
    # immutable: SQLite must not look for a `-journal` beside it (that name would be too long)
    uri = (migrated_config.parent / name).as_uri() + "?immutable=1"
    with sqlite3.connect(uri, uri=True) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert sorted(os.listdir(migrated_config.parent)) == sorted(["arbiter.db", "config.toml", name])


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


# --- output paths that cannot be written: a runtime failure, exit 1 ---------------------------


def failed(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run `arbiter ARGV` in-process; assert exit 1 with exactly one line on stderr, no
    traceback and nothing on stdout, and return that line."""
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 1, captured
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1, captured.err
    return captured.err.rstrip("\n")


@pytest.fixture
def stored_season(migrated_config: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The configuration of a database holding the example season in guild 1."""
    assert (
        main(["season", "import", str(SEASON), "--guild", "1", "--config", str(migrated_config)])
        == 0
    )
    capsys.readouterr()
    return migrated_config


@pytest.mark.parametrize(
    "argv",
    [
        ["season", "export", "Example season", "-o", "{out}.json"],
        ["season", "calendar", "Example season", "-o", "{out}.ics"],
    ],
)
def test_season_output_that_cannot_be_written_exits_1(
    argv: list[str], stored_season: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The line names the subcommand that failed (`arbiter season export`), not only `season`."""
    blocker = stored_season.parent / "a-file"
    blocker.write_text("")
    out = str(blocker / "out")
    line = failed(
        [a.format(out=out) for a in argv] + ["--guild", "1", "--config", str(stored_season)], capsys
    )
    prefix = f"arbiter season {argv[1]}: cannot write {out}."
    assert line.startswith(prefix) and "Not a directory" in line


def test_trf_out_that_cannot_be_written_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "missing-folder" / "out.trf"
    line = failed(["standings", str(TRF), "--trf-out", str(out)], capsys)
    assert line == f"arbiter standings: cannot write {out}: No such file or directory"
    assert files_under(tmp_path) == set()


def test_db_backup_into_a_folder_that_refuses_files_exits_1(
    migrated_config: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """/proc is a folder (so the request is sound) in which no file can be created."""
    line = failed(
        ["db", "backup", "/proc/arbiter-backup.db", "--config", str(migrated_config)], capsys
    )
    assert line.startswith("arbiter db backup: cannot write in /proc:")


def test_db_backup_of_a_file_that_is_not_a_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "arbiter.db").write_bytes(b"not a database " * 100)
    (tmp_path / "config.toml").write_text(f'[database]\npath = "{tmp_path / "arbiter.db"}"\n')
    reason = refused(
        ["db", "backup", str(tmp_path / "copy.db"), "--config", str(tmp_path / "config.toml")],
        capsys,
    )
    assert "is not a database" in reason
    assert files_under(tmp_path) == {Path("arbiter.db"), Path("config.toml")}


def test_demo_out_that_cannot_be_made_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("")
    out = tmp_path / "a-file" / "demo"
    line = failed(["demo", "--clubs", "4", "--out", str(out)], capsys)
    assert line == f"arbiter demo: cannot write {out}: Not a directory"


def _file_size_limit(limit: int) -> None:
    """In the child: files may not grow past `limit` bytes (EFBIG instead of SIGXFSZ)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_commands_readme_that_cannot_be_written_exits_1_and_keeps_the_file(
    tmp_path: Path,
) -> None:
    """A write that fails half-way (here: a file-size limit, as on a full disk) leaves the
    README as it was, not truncated, and exits 1 with one line."""
    readme = tmp_path / "README.md"
    before = f"# Title\n\n{START}\nold\n{END}\n"
    readme.write_text(before)
    environ = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    environ |= {"PYTHONPATH": str(ROOT), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "bot", "commands", "--readme", "README.md"],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: _file_size_limit(len(before) + 100),
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert done.stderr == "arbiter commands: cannot write README.md: File too large\n"
    assert readme.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md"]


# --- user text in messages: quoted as everywhere (`core.league.season.quoted`) ----------------

HUGE = "Z" * 100_000


@pytest.mark.parametrize(
    "argv",
    [
        ["tour", "tests/data/tour_three_events.json", "--after", HUGE],
        ["standings", str(TRF), "--points", HUGE],
        ["sync", "--guild", "-" + "9" * 4000],
        ["demo", "--seed", HUGE],
        ["berger", HUGE],
        ["chesscom", "player", "erik", "--contact", "a@b.c", "--retries", HUGE],
    ],
)
def test_a_huge_value_is_quoted_cut_not_echoed_whole(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    reason = refused(argv, capsys)
    assert quoted(argv[-1]) in reason and len(reason) < 400, reason[:400]


def test_tour_after_an_unknown_event_quotes_its_name(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    reason = refused(["tour", "tests/data/tour_three_events.json", "--after", "No\x1bSuch"], capsys)
    assert reason == (
        "arbiter tour: --after: no event named 'No\\x1bSuch' in tests/data/tour_three_events.json"
    )


def test_a_bad_base_url_is_quoted_once_not_escaped_twice(
    capsys: pytest.CaptureFixture[str],
) -> None:
    reason = refused(["chesscom", "player", "erik", "--base-url", "x\x1by"], capsys)
    assert "'x\\x1by' is not an http(s) URL" in reason


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        (["standings", HUGE], "no season " + quoted(HUGE)),
        (["calendar", "Example season", "--club", HUGE], "no club " + quoted(HUGE)),
    ],
)
def test_season_commands_quote_unknown_names(
    action: list[str],
    expected: str,
    stored_season: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    reason = refused(["season", *action, "--guild", "1", "--config", str(stored_season)], capsys)
    assert expected in reason and len(reason) < 400


# --- argparse's refusals: one line too --------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        ([], "arbiter: error: the following arguments are required: COMMAND; see arbiter --help"),
        (
            ["standings"],
            "arbiter standings: error: the following arguments are required: FILE.trf; "
            "see arbiter standings --help",
        ),
        (
            ["db", "backup"],
            "arbiter db backup: error: the following arguments are required: PATH; "
            "see arbiter db backup --help",
        ),
        (
            ["berger", "4", "--bogus"],
            "arbiter berger: error: unrecognized arguments: --bogus; see arbiter berger --help",
        ),
        (
            ["standings", "x.trf", "--bogus", "extra"],
            "arbiter standings: error: unrecognized arguments: --bogus extra; "
            "see arbiter standings --help",
        ),
        (
            ["season", "list", "--guild", "1", "--bogus"],
            "arbiter season list: error: unrecognized arguments: --bogus; "
            "see arbiter season list --help",
        ),
        (
            ["--bogus", "berger", "4"],
            "arbiter: error: unrecognized arguments: --bogus; see arbiter --help",
        ),
        (
            ["standings", "x.trf", "--tiebreaks", "a\nb"],
            "arbiter standings: error: argument --tiebreaks: invalid choice: 'a\\nb' "
            "(choose from 'cct', 'fide2024'); see arbiter standings --help",
        ),
    ],
)
def test_argparse_refusals_are_one_line_pointing_to_help(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert refused(argv, capsys) == line


def test_an_unrecognized_argument_is_escaped_and_cut(capsys: pytest.CaptureFixture[str]) -> None:
    reason = refused(["berger", "4", "--x\x1b[2J" + "y" * 100_000], capsys)
    assert "\x1b" not in reason and "--x\\x1b[2J" in reason and len(reason) < 400


@pytest.mark.parametrize("argv", [["--help"], ["standings", "--help"], ["db", "backup", "-h"]])
def test_help_is_argparse_s_usage_and_text_on_stdout(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    captured = capsys.readouterr()
    assert exited.value.code == 0 and captured.err == ""
    prog = " ".join(["arbiter", *argv[:-1]])
    assert captured.out.startswith(f"usage: {prog} [-h]")
    assert "options:" in captured.out


# --- every command that reads a file, against every hostile input: one line, nothing written ---

FILE_COMMANDS = {
    "tour": ["tour"],
    "league": ["league"],
    "standings": ["standings"],
    "replay": ["replay"],
    "season import": ["season", "import", "--guild", "1", "--config", "{config}"],
}
"""The subcommand (as its refusal names it) → its arguments before the file."""


def _hostile_input(kind: str, folder: Path) -> str:
    """Make the hostile input `kind` in `folder` and return the path to give."""
    made = {
        "empty": b"",
        "binary": bytes(range(256)) * 4,
        "nan": b"NaN\n",
        "control": b"\x1b[2J\x00\x07{\r\n",
        "deep": b"[" * 100_000 + b"]" * 100_000,
        "huge key": json.dumps({"x" * 1_000_000: 1}).encode(),
        "newline in name": b"{}",
    }
    if kind == "folder":
        (folder / "a-folder").mkdir()
        return str(folder / "a-folder")
    if kind == "/dev/zero":
        return "/dev/zero"
    if kind == "missing, newline in name":
        return str(folder / "no\nsuch.json")
    name = "new\nline.json" if kind == "newline in name" else "input"
    (folder / name).write_bytes(made[kind])
    return str(folder / name)


@pytest.mark.parametrize(
    "kind",
    [
        "empty",
        "binary",
        "nan",
        "control",
        "deep",
        "huge key",
        "folder",
        "/dev/zero",
        "newline in name",
        "missing, newline in name",
    ],
)
@pytest.mark.parametrize("command", sorted(FILE_COMMANDS))
def test_every_file_command_refuses_hostile_input_with_one_line(
    command: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Exit 2, one short line starting with the subcommand's name, no control character
    printed raw (a newline in the file name is shown as \\n), and no file or database made."""
    work = tmp_path / "work"
    work.mkdir()
    config = tmp_path / "config.toml"
    config.write_text(f'[database]\npath = "{tmp_path / "arbiter.db"}"\n')
    path = _hostile_input(kind, work)
    before = files_under(tmp_path)
    argv = [a.format(config=config) for a in FILE_COMMANDS[command]] + [path]
    line = refused(argv, capsys)
    assert line.startswith(f"arbiter {command}: "), line
    assert all(c.isprintable() for c in line) and len(line) < 400, line
    assert files_under(tmp_path) == before


def test_a_tour_file_with_several_problems_is_one_line_first_problem_and_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not `is not a valid tour file:` and one indented line per problem: the first problem
    with its JSON path, then `(and N more)`."""
    text = json.dumps({"name": "T", "events": [{}, {}, {}], "bogus": 1})
    with pytest.raises(TourFileError) as caught:
        parse_tour(text)
    problems = caught.value.problems
    assert len(problems) > 3
    path = tmp_path / "tour.json"
    path.write_text(text)
    where, problem = problems[0]
    assert refused(["tour", str(path)], capsys) == (
        f"arbiter tour: {path} is not a valid tour file: {where}: {problem}"
        f" (and {len(problems) - 1} more)"
    )


def test_a_tour_file_that_is_not_json_names_the_file_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tour.json"
    path.write_text("{")
    line = refused(["tour", str(path)], capsys)
    assert line.startswith(f"arbiter tour: {path} is not a valid tour file: not JSON")
    assert "(file)" not in line and "(and " not in line


def test_a_tour_file_s_unreadable_file_is_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder is `cannot read …`, as for every other input file (not wrapped in `is not a
    valid tour file: (file): cannot read …`)."""
    line = refused(["tour", str(tmp_path)], capsys)
    assert line == f"arbiter tour: cannot read {tmp_path}: it is a folder, not a file"


def test_a_config_with_several_problems_is_one_line_naming_every_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`arbiter run` (and every command reading config.toml) names every bad key with its
    problem in plain words, on one line — not the first and "(and 2 more)"; nothing is
    created."""
    config = tmp_path / "config.toml"
    config.write_text('log_level = "LOUD"\nbogus = 1\n[chesscom]\ntimeout_seconds = -1\n')
    with pytest.raises(ValidationError) as caught:
        Config.model_validate(tomllib.loads(config.read_text()))
    count = len(caught.value.errors())
    assert count == 3
    line = refused(["run", "--config", str(config)], capsys)
    assert line == (
        f"arbiter run: {config}: bogus: unknown key; log_level: must be one of DEBUG, INFO,"
        " WARNING, ERROR or CRITICAL, not 'LOUD'; chesscom.timeout_seconds: must be more than 0"
    )
    assert "Input should" not in line and "(and " not in line
    assert files_under(tmp_path) == {Path("config.toml")}


def test_a_config_that_is_not_utf8_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(b"\xff\xfe[database]\n")
    assert refused(["db", "migrate", "--config", str(config)], capsys) == (
        f"arbiter db migrate: {config}: not UTF-8 text"
    )


def test_a_newline_in_a_message_never_splits_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The net under every message: a config path with a newline, printed by bot.kernel.config
    as it is, still comes out as one line."""
    config = tmp_path / "con\nfig.toml"
    config.write_text("bogus = 1\n")
    line = refused(["db", "migrate", "--config", str(config)], capsys)
    assert "con\\nfig.toml" in line and "bogus: unknown key" in line
