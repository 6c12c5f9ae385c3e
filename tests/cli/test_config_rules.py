"""Config that is real (issue 8, item 6): every key of config.example.toml reaches what it
configures — rule values reach core as parameters, frozen into a new season (CCT-16) — and
a value core cannot honour is refused at load naming the key (hostile inputs, item 10)."""

from __future__ import annotations

import datetime as dt
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.kernel.config import Config, ConfigError, load_config
from bot.league.matches.jobs import match_jobs
from bot.lichess.client import LichessClient
from core.league.promotion import promotion_proposal
from core.league.registration import RegistrationError, approve, register_club
from core.league.roster import RemovalReason, RosterRemoval, check_removal
from core.league.schedule import division_schedule
from core.league.season import SeasonRules
from core.league.standings import ClubStanding
from core.points import ZERO
from core.tour.appeals import decide_appeal
from core.tour.disconnections import Disconnection, DisconnectionOutcome, rule_disconnection
from core.tour.game_reports import confirm_deadline
from core.tour.prizes import ambassador_shares
from core.tour.qualification import qualify_for_event
from core.tour.ranking import EventType
from core.votes import MotionState, motion_deadline, motion_status
from tests.core.test_tour import DESCENDING, standings
from tests.support.paths import ROOT

EXAMPLE = ROOT / "config.example.toml"
MONDAY = dt.date(2017, 10, 2)
OPENED = dt.datetime(2017, 10, 2, 12, tzinfo=dt.UTC)


def _leaves(table: dict[str, Any], prefix: str = "") -> list[str]:
    """Every key of a TOML table as a dotted path."""
    found = []
    for key, value in table.items():
        path = f"{prefix}{key}"
        found += _leaves(value, path + ".") if isinstance(value, dict) else [path]
    return found


def _table(clubs: list[str]) -> list[ClubStanding]:
    return [
        ClubStanding(i + 1, c, 0, 0, 0, 0, ZERO, ZERO, ZERO, None, False, False)
        for i, c in enumerate(clubs)
    ]


def _moves(config: Config) -> int:
    """CL-8 through promotion_proposal: the clubs that change division."""
    tables = [("P", _table(list("ABCDE"))), ("One", _table(list("FGHIJ")))]
    return len(promotion_proposal(tables, config.rules.cl.season_rules().promotion_places).moves)


def _approved(config: Config) -> bool:
    """CL-3 through approve: is a club with two admins approved?"""
    try:
        approve(register_club("a-fans", "A", ["u1", "u2"]), config.rules.cl.min_club_admins)
    except RegistrationError:
        return False
    return True


def _vote(config: Config) -> MotionState:
    """CL-23 through motion_status: three yes votes of four directors at the deadline."""
    cl = config.rules.cl
    deadline = motion_deadline(OPENED, cl.vote_deadline_hours)
    votes = {"d1": True, "d2": True, "d3": True}
    return motion_status(["d1", "d2", "d3", "d4"], votes, deadline, deadline, cl.vote_quorum).state


def _removal(config: Config) -> bool:
    """CL-21 through check_removal: is a 30 % timeout ratio enough?"""
    removal = RosterRemoval("p", "A", RemovalReason.TIMEOUTS, timeout_percent=30)
    return check_removal(removal, config.rules.cl.timeout_limit()).justified


def _first_start(config: Config) -> dt.datetime | str:
    """CL-12, CL-13 through division_schedule: the first start instant, or the refusal."""
    cl = config.rules.cl
    clubs = [f"C{i}" for i in range(13)]
    try:
        schedule = division_schedule(
            "P",
            clubs,
            [MONDAY + dt.timedelta(weeks=w) for w in range(13)],
            at=cl.start_clock(),
            zone=config.timezones.league_start,
            max_clubs=cl.clubs_per_division,
        )
    except ValueError as error:
        return str(error)
    return schedule.fixtures[0].start


def _reminders(config: Config) -> list[dt.datetime]:
    """CL-15 through the match jobs of a season frozen from the config: the reminders' times."""
    start = dt.datetime(2017, 10, 9, 18, tzinfo=dt.UTC)
    jobs = match_jobs(1, start, config.rules.cl.season_rules())
    return [job.due_at for job in jobs if job.kind.startswith("cl.reminder")]


def _qualified(config: Config) -> int:
    """CCT-2, CCT-3 through qualify_for_event: places left in a Regular event."""
    cct = config.rules.cct
    ranking = standings(DESCENDING)
    size = cct.event_size(EventType.REGULAR)
    return qualify_for_event(
        EventType.REGULAR, ranking, size=size, top=cct.qualifying_top
    ).places_left


def _appeal(config: Config) -> bool:
    """CCT-11 through decide_appeal: is an appeal lodged at 21:30 UTC accepted?"""
    cct = config.rules.cct
    lodged = dt.datetime.combine(MONDAY, dt.time(21, 30), tzinfo=dt.UTC)
    return decide_appeal(lodged, MONDAY, config.timezones.appeals, cct.appeal_clock()).accepted


def _reconnect(config: Config) -> DisconnectionOutcome:
    """CCT-10 through rule_disconnection: a player offline for 40 s."""
    incident = Disconnection(dt.timedelta(minutes=5), dt.timedelta(seconds=40))
    return rule_disconnection(incident, config.rules.cct.reconnect_window()).outcome


def _lichess(config: Config) -> LichessClient:
    """The lichess client made from the config (contact defaulting to chess.com's; a test
    contact when neither is set, as the client requires one)."""
    settings = config.lichess_settings()
    if not settings.contact:
        settings = settings.model_copy(update={"contact": "tests@example.org"})
    return LichessClient(settings)


CONSUMERS: dict[str, tuple[object, Callable[[Config], object]]] = {
    "log_level": ("DEBUG", lambda c: c.log_level),
    "database.path": ("elsewhere.db", lambda c: c.database.path),
    "database.busy_timeout_ms": (10, lambda c: c.database.busy_timeout_ms),
    "timezones.league_start": ("Europe/London", _first_start),
    "timezones.appeals": ("Asia/Tokyo", _appeal),
    "chesscom.base_url": ("http://127.0.0.1:9/pub", lambda c: c.chesscom.base_url),
    "chesscom.contact": ("ops@example.net", lambda c: c.chesscom.contact),
    "chesscom.timeout_seconds": (3, lambda c: c.chesscom.timeout_seconds),
    "chesscom.max_retries": (1, lambda c: c.chesscom.max_retries),
    "chesscom.poll_minutes": (15, lambda c: c.chesscom.poll_minutes),
    "lichess.base_url": ("http://127.0.0.1:9", lambda c: _lichess(c).base_url),
    "lichess.contact": ("ops@example.net", lambda c: _lichess(c).user_agent),
    "lichess.timeout_seconds": (3, lambda c: _lichess(c).timeout_seconds),
    "lichess.max_retries": (1, lambda c: _lichess(c).max_retries),
    "discord.api_base": ("http://127.0.0.1:9/api/v10", lambda c: c.discord.api_base),
    "rules.cl.games_per_board": (4, lambda c: c.rules.cl.season_rules()),
    "rules.cl.challenge_deadline_hours": (24, lambda c: c.rules.cl.season_rules()),
    "rules.cl.reminder_hours": ([24], _reminders),
    "rules.cl.max_members": (500, lambda c: c.rules.cl.season_rules()),
    "rules.cl.max_avg_rating": (1800, lambda c: c.rules.cl.season_rules()),
    "rules.cl.forfeits_to_disqualify": (4, lambda c: c.rules.cl.season_rules()),
    "rules.cl.start_time": ("12:00", _first_start),
    "rules.cl.divisions": (["Top", "Middle", "Bottom"], lambda c: c.rules.cl.season_divisions()),
    "rules.cl.min_players": ([12, 10, 4], lambda c: c.rules.cl.season_divisions()),
    "rules.cl.clubs_per_division": (12, _first_start),
    "rules.cl.promoted": (2, _moves),
    "rules.cl.relegated": (2, _moves),
    "rules.cl.min_club_admins": (3, _approved),
    "rules.cl.timeout_ratio_limit_percent": (33.5, _removal),
    "rules.cl.vote_deadline_hours": (
        24,
        lambda c: motion_deadline(OPENED, c.rules.cl.vote_deadline_hours),
    ),
    "rules.cl.vote_quorum": (4, _vote),
    "rules.cct.regular_players": (12, _qualified),
    "rules.cct.major_players": (16, lambda c: c.rules.cct.event_size(EventType.MAJOR)),
    "rules.cct.finals_players": (12, lambda c: c.rules.cct.event_size(EventType.FINALS)),
    "rules.cct.qualifying_top": (6, _qualified),
    "rules.cct.appeal_deadline": ("22:00", _appeal),
    "rules.cct.reconnect_seconds": (45, _reconnect),
    "rules.cct.confirm_hours": (
        6,
        lambda c: confirm_deadline(OPENED, c.rules.cct.tour_rules().confirm_hours),
    ),
    "rules.cct.session_start": ("15:00", lambda c: c.rules.cct.tour_rules().session_start),
    "rules.cct.round_reminder_minutes": (
        30,
        lambda c: c.rules.cct.tour_rules().round_reminder_minutes,
    ),
    "rules.cct.ambassador_pool": (
        300000,
        lambda c: ambassador_shares(c.rules.cct.tour_rules().ambassador_pool, ["A", "B"]),
    ),
}
"""Each key of config.example.toml → a changed value and what it changes (through core)."""

PAIRED = {"rules.cl.promoted": "rules.cl.relegated", "rules.cl.relegated": "rules.cl.promoted"}
"""Keys that must change together (CL-8 keeps division sizes: promoted == relegated)."""


def test_every_key_of_the_example_config_has_a_consumer() -> None:
    keys = set(_leaves(tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))))
    assert keys == set(CONSUMERS)


def _with(key: str, value: object, base: dict[str, Any]) -> Config:
    data: dict[str, Any] = {}
    for path, new in [(key, value)] + ([(PAIRED[key], value)] if key in PAIRED else []):
        *sections, leaf = path.split(".")
        target = data
        for section in sections:
            target = target.setdefault(section, {})
        target[leaf] = new
    return Config.model_validate({**base, **data})


@pytest.mark.parametrize("key", sorted(CONSUMERS))
def test_cct_16_each_config_key_changes_what_core_is_given(key: str) -> None:
    value, consumer = CONSUMERS[key]
    default = consumer(Config())
    changed = consumer(_with(key, value, {}))
    assert changed != default, f"{key} = {value!r} changed nothing"


SEASON_KEYS = {
    key: value
    for key, (value, _) in CONSUMERS.items()
    if key.startswith("rules.cl.") and key not in ("rules.cl.divisions", "rules.cl.min_players")
}
"""The `[rules.cl]` keys a season freezes in its rules (divisions are its own rows)."""


@pytest.mark.parametrize("key", sorted(SEASON_KEYS))
def test_cct_16_each_rules_cl_key_is_frozen_into_a_new_seasons_rules(key: str) -> None:
    """CCT-16: season_rules() carries every per-season value, not only the few core reads."""
    assert _with(key, SEASON_KEYS[key], {}).rules.cl.season_rules() != SeasonRules()


def test_cct_16_the_league_zone_is_frozen_into_a_new_seasons_rules() -> None:
    config = _with("timezones.league_start", "Europe/London", {})
    assert config.rules.cl.season_rules(config.timezones.league_start).start_zone == (
        "Europe/London"
    )


def test_cct_16_config_rules_and_season_file_rules_are_one_frozen_value() -> None:
    from bot.formats.season_file import load_season

    rules = Config().rules.cl.season_rules()
    assert isinstance(rules, SeasonRules)
    assert rules == SeasonRules()
    from_file = load_season(
        {"name": "S", "divisions": [{"name": "P", "min_players": 1, "clubs": ["A"]}]}
    )
    assert from_file.rules == rules
    with pytest.raises(AttributeError):
        rules.max_members = 1  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "[chesscom]\ntimeout_seconds = inf\n",
            "chesscom.timeout_seconds: must be a finite number",
        ),
        ("[chesscom]\ntimeout_seconds = nan\n", "chesscom.timeout_seconds: not a number (NaN)"),
        (
            "[chesscom]\nmax_retries = 1000000\n",
            "chesscom.max_retries: must be at most 10",
        ),
        ("[rules.cl]\nrelegated = 2\n", "rules.cl.relegated: 2 differs from promoted 3"),
        (
            "[rules.cl]\npromoted = 14\nrelegated = 14\n",
            "rules.cl.promoted: 14 is more than the 13 clubs of a division",
        ),
        ("[rules.cl]\nreminder_hours = [48, 0]\n", "rules.cl.reminder_hours: 0 h would remind"),
        ("[rules.cl]\nreminder_hours = [-12]\n", "rules.cl.reminder_hours: -12 h would remind"),
        ("[rules.cl]\nreminder_hours = [12, 12]\n", "rules.cl.reminder_hours: each reminder once"),
        ("[rules.cl]\nvote_quorum = 0\n", "rules.cl.vote_quorum: must be at least 1"),
        (
            "[rules.cl]\nchallenge_deadline_hours = 1e9\n",
            "rules.cl.challenge_deadline_hours: must be at most 8784",
        ),
        ("[rules.cl]\nmax_avg_rating = nan\n", "rules.cl.max_avg_rating: not a number (NaN)"),
        (
            "[rules.cl]\ndivisions = ['A', 'A', 'B']\n",
            "rules.cl.divisions: names must be different",
        ),
        ("[rules.cl]\nmin_players = [15, 0, 5]\n", "rules.cl.min_players: every division needs"),
        (
            "[rules.cct]\nappeal_deadline = '24:00'\n",
            "rules.cct.appeal_deadline: must be a time of day as HH:MM (00:00 to 23:59),"
            " not '24:00'",
        ),
    ],
)
def test_a_config_value_core_cannot_honour_is_refused_naming_the_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, expected: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    assert expected in str(caught.value) and "\n" not in str(caught.value)
    database = tmp_path / "data" / "arbiter.db"
    path.write_text(
        f"{text}\n[database]\npath = '{database}'\n" if "[database]" not in text else text
    )
    assert main(["db", "migrate", "--config", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert expected in captured.err
    assert not database.parent.exists()  # nothing written


@pytest.mark.parametrize(
    ("key", "value", "rule"),
    [
        ("vote_quorum", 2, "CL-23"),
        ("vote_quorum", 1, "CL-23"),
        ("forfeits_to_disqualify", 2, "CL-15, CL-20, CL-21"),
        ("min_club_admins", 1, "CL-3"),
        ("timeout_ratio_limit_percent", 10, "CL-21"),
    ],
)
def test_cl_23_cl_dq_a_config_cannot_lower_the_regulations_floors(
    tmp_path: Path, key: str, value: int, rule: str
) -> None:
    """CL-23 (3 voting directors), CL-15/20/21 (3 or more forfeits), CL-3 (2 admins), CL-21
    (above 25 %): the fixed part of a rule is no setting — a config lowering it is refused
    with one line naming the key and the rule; a stricter value is accepted."""
    path = tmp_path / "config.toml"
    path.write_text(f"[rules.cl]\n{key} = {value}\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    message = str(caught.value)
    assert f"rules.cl.{key}: {value} is below the regulation's" in message, message
    assert rule in message and "\n" not in message
    stricter = {"vote_quorum": 4, "forfeits_to_disqualify": 4, "min_club_admins": 3}
    path.write_text(f"[rules.cl]\n{key} = {stricter.get(key, 30)}\n", encoding="utf-8")
    assert load_config(path, environ={}).rules.cl.season_rules() is not None


def test_a_config_file_with_a_bom_is_read(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes("\ufefflog_level = 'DEBUG'\n[rules.cl]\nvote_quorum = 4\n".encode())
    config = load_config(path, environ={})
    assert config.log_level == "DEBUG" and config.rules.cl.vote_quorum == 4


def test_chesscom_client_and_config_share_the_timeout_default() -> None:
    from bot.chesscom.client import ClientSettings

    assert ClientSettings(contact="x").timeout_seconds == Config().chesscom.timeout_seconds
    assert ClientSettings(contact="x").max_retries == Config().chesscom.max_retries


def test_the_lichess_client_and_config_share_their_defaults() -> None:
    from bot.lichess.client import DEFAULT_BASE_URL, LichessClientSettings

    settings = LichessClientSettings(contact="x")
    assert Config().lichess.base_url == DEFAULT_BASE_URL
    assert settings.timeout_seconds == Config().lichess.timeout_seconds
    assert settings.max_retries == Config().lichess.max_retries


def test_an_empty_lichess_contact_is_the_chess_com_one() -> None:
    config = Config.model_validate({"chesscom": {"contact": "hq@example.org"}})
    assert config.lichess_settings().contact == "hq@example.org"
    own = Config.model_validate(
        {"chesscom": {"contact": "hq@example.org"}, "lichess": {"contact": "li@example.org"}}
    )
    assert own.lichess_settings().contact == "li@example.org"
