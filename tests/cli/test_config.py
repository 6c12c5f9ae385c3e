"""Configuration: defaults, environment overrides, and one clear line for a bad file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.kernel.config import Config, ConfigError, WebConfig, load_config
from tests.support.paths import ROOT

EXAMPLE = ROOT / "config.example.toml"


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path / "none.toml", environ={})
    assert config == Config()
    assert config.database.path == Path("data/arbiter.db")
    assert config.timezones.league_start == "America/Los_Angeles"
    assert config.timezones.appeals == "Europe/Paris"
    assert config.chesscom.base_url == "https://api.chess.com/pub"
    assert config.rules.cl.max_members == 400
    assert config.rules.cl.challenge_deadline_hours == 120
    assert config.rules.cl.min_players == [15, 11, 5]
    assert config.rules.cct.regular_players == 16
    assert config.token is None


def test_example_file_is_valid_and_matches_defaults(tmp_path: Path) -> None:
    config = load_config(EXAMPLE, environ={})
    assert config.rules == Config().rules
    assert config.chesscom.contact


def test_environment_overrides_token_and_chesscom_url(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('token = "from-file"\n[chesscom]\ncontact = "me@example.org"\n')
    config = load_config(
        path,
        environ={"DISCORD_TOKEN": "from-env", "ARBITER_CHESSCOM_URL": "http://127.0.0.1:9/pub"},
    )
    assert config.token == "from-env"
    assert config.chesscom.base_url == "http://127.0.0.1:9/pub"
    assert config.chesscom.contact == "me@example.org"
    assert load_config(path, environ={}).token == "from-file"
    contact = load_config(path, environ={"ARBITER_CHESSCOM_CONTACT": "ops@example.net"})
    assert contact.chesscom.contact == "ops@example.net"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[chesscom]\ntimeout_seconds = -1\n", "chesscom.timeout_seconds: must be more than 0"),
        ("[database]\npth = 'x'\n", "database.pth: unknown key"),
        ("chesscom = 3\n", "chesscom: should be a table ([chesscom] with its keys)"),
        ("rules = 'cl'\n", "rules: should be a table ([rules] with its keys)"),
        (
            "log_level = 'LOUD'\n",
            "log_level: must be one of DEBUG, INFO, WARNING, ERROR or CRITICAL, not 'LOUD'",
        ),
        ("[timezones]\nappeals = 'Mars/Olympus'\n", "timezones.appeals: unknown time zone"),
        (
            "[rules.cl]\nmax_members = 'many'\n",
            "rules.cl.max_members: 'many' is text, not a number",
        ),
        ("[rules.cl]\nmin_players = [1]\n", "rules.cl.min_players: needs one value per division"),
        ("token = \n", "not valid TOML"),
        # TOML booleans are not numbers (pydantic would read true as 1: a 1 ms busy timeout).
        ("[database]\nbusy_timeout_ms = true\n", "database.busy_timeout_ms: a boolean is not"),
        ("sync_guild = true\n", "sync_guild: a boolean is not a number"),
        ("[chesscom]\nmax_retries = false\n", "chesscom.max_retries: a boolean is not"),
        ("[chesscom]\ntimeout_seconds = true\n", "chesscom.timeout_seconds: a boolean is not"),
        ("[rules.cl]\nvote_quorum = true\n", "rules.cl.vote_quorum: a boolean is not"),
        ("[rules.cl]\nmin_players = [15, true, 5]\n", "rules.cl.min_players.1: a boolean"),
        ("[rules.cct]\nregular_players = true\n", "rules.cct.regular_players: a boolean"),
    ],
)
def test_bad_config_names_the_key_and_problem(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    message = str(caught.value)
    assert message.startswith(f"{path}: ")
    assert expected in message
    assert "\n" not in message


def test_a_bad_value_from_the_environment_names_the_variable(tmp_path: Path) -> None:
    # The file is fine; blaming it for ARBITER_CHESSCOM_URL's value sends the operator astray.
    path = tmp_path / "config.toml"
    path.write_text("[chesscom]\nbase_url = 'https://api.chess.com/pub'\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={"ARBITER_CHESSCOM_URL": "ftp://mirror"})
    message = str(caught.value)
    assert message.startswith("environment variable ARBITER_CHESSCOM_URL: chesscom.base_url: ")
    assert str(path) not in message


def test_a_blank_token_is_no_token(tmp_path: Path) -> None:
    """Issue 20: `DISCORD_TOKEN='   '` counted as a token (and `arbiter run` then failed at
    Discord's login); a token of spaces, from the environment or the file, is none."""
    path = tmp_path / "config.toml"
    path.write_text('token = "   "\n')
    assert load_config(path, environ={}).token is None
    assert load_config(path, environ={"DISCORD_TOKEN": " \t "}).token is None
    assert load_config(path, environ={"DISCORD_TOKEN": " abc \n"}).token == "abc"


def test_arbiter_database_url_replaces_the_files_database(tmp_path: Path) -> None:
    """ARBITER_DATABASE_URL puts the bot on that PostgreSQL server, whatever the file says
    (a `url`, a SQLite `path`, or nothing), so the password need not be written in a file;
    unset or blank, the file decides."""
    url = "postgresql://arbiter:secret@db.example/arbiter"
    on_file = tmp_path / "file.toml"
    on_file.write_text('[database]\npath = "league.db"\nbusy_timeout_ms = 10\n')
    on_server = tmp_path / "server.toml"
    on_server.write_text('[database]\nurl = "postgresql://other@elsewhere/other"\n')
    for path in (on_file, on_server, tmp_path / "none.toml"):
        database = load_config(path, environ={"ARBITER_DATABASE_URL": url}).database
        assert database.url == url and database.location == url
        assert database.key == "database.url"
    assert (
        load_config(on_file, environ={"ARBITER_DATABASE_URL": url}).database.busy_timeout_ms == 10
    )
    assert load_config(on_file, environ={}).database.location == Path("league.db")
    assert load_config(on_file, environ={"ARBITER_DATABASE_URL": " "}).database.url is None
    assert load_config(on_server, environ={}).database.url == "postgresql://other@elsewhere/other"


def test_a_bad_arbiter_database_url_names_the_variable(tmp_path: Path) -> None:
    """A URL that is not PostgreSQL's is refused as coming from the environment variable."""
    with pytest.raises(ConfigError) as refused:
        load_config(tmp_path / "none.toml", environ={"ARBITER_DATABASE_URL": "sqlite:x.db"})
    message = str(refused.value)
    assert message.startswith("environment variable ARBITER_DATABASE_URL: database.url: ")
    assert "postgresql://" in message


def test_the_web_site_is_off_without_a_web_table_and_the_examples_block_is_valid(
    tmp_path: Path,
) -> None:
    assert load_config(EXAMPLE, environ={}).web is None
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    start = lines.index("# [web]")
    block = []
    for line in lines[start:]:
        if not line.startswith("# "):
            break
        block.append(line.removeprefix("# "))
    path = tmp_path / "config.toml"
    path.write_text("\n".join(block) + "\n", encoding="utf-8")
    web = load_config(path, environ={}).web
    assert web is not None
    assert (web.host, web.port, web.requests_per_minute) == ("127.0.0.1", 8080, 600)
    assert web.base_url == "https://arbiter.example.org"
    path.write_text("[web]\n", encoding="utf-8")
    assert load_config(path, environ={}).web == WebConfig()
    assert WebConfig().base_url is None


def test_bad_web_settings_are_named_each_with_its_problem(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text(
        '[web]\nport = 70000\nbase_url = "ftp://example.org"\nhost = "a b"\n'
        'requests_per_minute = "600"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as raised:
        load_config(path, environ={})
    message = str(raised.value)
    assert "web.port: must be at most 65535" in message
    assert "web.base_url: must be a web address starting with http:// or https://" in message
    assert "web.host: must be a host name or an IP address" in message
    assert "web.requests_per_minute: '600' is text, not a number" in message
    path.write_text("[web]\nbase = 1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"web\.base"):
        load_config(path, environ={})
