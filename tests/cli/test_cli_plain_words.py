"""The shell agrees with itself (issue 32, item 4): a typo'd key is named first with a
suggestion, and no validation library's own wording reaches a user."""

from __future__ import annotations

import json
import typing
from pathlib import Path

import pytest
from pydantic_core import core_schema

from bot.formats.plain_words import plain
from bot.kernel.request_limits import MAX_RETRIES, MAX_TIMEOUT_SECONDS
from tests.cli.test_cli_hostile import refused
from tests.support.cl_seasons import match, season

PYDANTIC_WORDS = (
    "Input should",
    "String should",
    "should have at",
    "List should",
    "Field required",
)


def test_a_typo_d_season_key_comes_first_with_its_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`divisons` is named, with `divisions` suggested, before the missing `divisions`."""
    data = season([match("1", "A", "B")])
    data["divisons"] = data.pop("divisions")
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data))
    line = refused(["league", str(path)], capsys)
    assert "divisons: unknown key — did you mean `divisions`? (and 1 more)" in line


def test_a_typo_d_tour_key_comes_first_with_its_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tour file with `nmae` for `name` names `nmae` first and suggests `name`."""
    path = tmp_path / "tour.json"
    path.write_text(json.dumps({"nmae": "T", "events": []}))
    line = refused(["tour", str(path)], capsys)
    assert f"{path} is not a valid tour file: nmae: unknown key — did you mean `name`?" in line


def test_a_typo_d_config_key_comes_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Unknown keys of config.toml are said before any other problem."""
    config = tmp_path / "config.toml"
    config.write_text('log_level = "LOUD"\nbogus = 1\n')
    line = refused(["run", "--config", str(config)], capsys)
    assert line.startswith(f"arbiter run: {config}: bogus: unknown key; log_level:")


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"name": "x" * 6000}, "name: must have at most 100 characters"),
        ({"name": 3}, "name: must be text (in quotes)"),
        ({"extra": 1}, "extra: unknown key"),
    ],
)
def test_a_season_file_problem_is_in_plain_words(
    change: dict[str, object], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A too-long name, a wrong type, an extra key: plain words, not pydantic's."""
    data = {**season([match("1", "A", "B")]), **change}
    path = tmp_path / "season.json"
    path.write_text(json.dumps(data))
    line = refused(["league", str(path)], capsys)
    assert said in line
    assert not any(words in line for words in PYDANTIC_WORDS)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"name": 3}, "name: must be text (in quotes)"),
        ({"extra": 1}, "extra: unknown key"),
    ],
)
def test_a_tour_file_problem_is_in_plain_words(
    change: dict[str, object], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same problems in a tour file: plain words, not pydantic's."""
    path = tmp_path / "tour.json"
    path.write_text(json.dumps({"name": "T", "events": [], **change}))
    line = refused(["tour", str(path)], capsys)
    assert said in line
    assert not any(words in line for words in PYDANTIC_WORDS)


def test_every_kind_of_pydantic_problem_has_plain_words() -> None:
    """Every error type pydantic_core can report gets a sentence of our own: never pydantic's
    message, which here is a marker that must not come back."""
    kinds = typing.get_args(core_schema.ErrorType)
    assert len(kinds) > 50
    for kind in kinds:
        if kind in ("value_error", "assertion_error"):  # our own checks' words
            continue
        problem = {"type": kind, "loc": ("x",), "msg": "PYDANTIC WORDS", "input": 1, "ctx": {}}
        words = plain(problem)
        assert words and "PYDANTIC" not in words, kind


def test_config_and_flag_refuse_the_same_timeout_and_retries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """chesscom.timeout_seconds and `--timeout`, chesscom.max_retries and `--retries`: one
    limit each, and both doors refuse the value just above it, naming the limit."""
    too_long, too_many = MAX_TIMEOUT_SECONDS + 1, MAX_RETRIES + 1
    flag = refused(["chesscom", "player", "erik", f"--timeout={too_long}"], capsys)
    assert f"at most {MAX_TIMEOUT_SECONDS:g}" in flag
    flag = refused(["chesscom", "player", "erik", f"--retries={too_many}"], capsys)
    assert f"from 0 to {MAX_RETRIES}" in flag
    config = tmp_path / "config.toml"
    config.write_text(f"[chesscom]\ntimeout_seconds = {too_long}\nmax_retries = {too_many}\n")
    line = refused(["chesscom", "player", "erik", "--config", str(config)], capsys)
    assert f"chesscom.timeout_seconds: must be at most {MAX_TIMEOUT_SECONDS}" in line
    assert f"chesscom.max_retries: must be at most {MAX_RETRIES}" in line
