"""The `arbiter` entry point: subcommand discovery and clean exits."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bot.cli import build_parser, main


def test_help_lists_every_subcommand_family(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for command in ("berger", "standings", "league", "schema", "chesscom"):
        assert command in out
    assert build_parser().prog == "arbiter"


def test_closed_stdout_pipe_exits_quietly_without_traceback() -> None:
    # `arbiter berger 24 --json | true`: the reader is gone before anything is written.
    producer = subprocess.Popen(
        [sys.executable, "-m", "bot", "berger", "24", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert producer.stdout is not None
    producer.stdout.close()
    assert producer.stderr is not None
    err = producer.stderr.read()
    assert producer.wait(timeout=60) == 141
    assert b"Traceback" not in err and b"BrokenPipeError" not in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["berger", "4", "--no-swap"], "--no-swap only applies to a double round robin"),
        (["league", "season.json", "--withdraw", "X"], "--withdraw only applies to the"),
        (["sync", "--guild", "1", "--global"], "not allowed with argument --guild"),
    ],
)
def test_an_option_that_would_be_ignored_is_refused(
    argv: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # An option silently ignored lets a user believe it took effect: refuse it (exit 2).
    try:
        code = main(argv)
    except SystemExit as error:  # argparse's own refusal
        code = error.code
    assert code == 2
    assert words in capsys.readouterr().err
