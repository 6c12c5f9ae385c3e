"""chess.com payloads read as season facts: models, result codes and the match mapping."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from bot.chesscom.facts import (
    FactsError,
    MatchFacts,
    Placement,
    average_rating,
    club_at_start,
    match_facts,
)
from bot.chesscom.models import (
    ClubMembers,
    ClubProfile,
    PlayerProfile,
    PlayerStats,
    TeamMatch,
    game_halves,
    game_outcome,
    game_points,
    is_closed_status,
    username_key,
)
from bot.formats.season_file import (
    ChallengeModel,
    ClubAtStartModel,
    MatchModel,
    SeasonModel,
    to_domain,
)
from core.league import league_report
from core.results import Outcome

OBSERVED = datetime(2026, 1, 1, tzinfo=UTC)


def payload(fixtures_dir: Path, name: str) -> dict[str, Any]:
    return json.loads((fixtures_dir / "chesscom" / name).read_text())


def team_match(fixtures_dir: Path, name: str) -> TeamMatch:
    return TeamMatch.model_validate(payload(fixtures_dir, name))


DAILY = "team_match_daily_finished_12803.json"
LIVE = "team_match_live_finished_5833.json"
RUNNING = "team_match_daily_in_progress_SYNTHETIC.json"
REGISTRATION = "team_match_daily_registration_873060_EXCERPT.json"


@pytest.mark.parametrize(
    ("code", "points"),
    [
        ("win", Fraction(1)),
        ("agreed", Fraction(1, 2)),
        ("repetition", Fraction(1, 2)),
        ("stalemate", Fraction(1, 2)),
        ("insufficient", Fraction(1, 2)),
        ("50move", Fraction(1, 2)),
        ("timevsinsufficient", Fraction(1, 2)),
        ("checkmated", Fraction(0)),
        ("timeout", Fraction(0)),
        ("resigned", Fraction(0)),
        ("abandoned", Fraction(0)),
        ("lose", Fraction(0)),
        ("kingofthehill", Fraction(0)),
    ],
)
def test_cl_14_game_result_codes_score_exactly(code: str, points: Fraction) -> None:
    assert game_points(code) == points
    assert isinstance(game_points(code), Fraction)
    assert game_halves(code) == 2 * points and isinstance(game_halves(code), int)
    expected = {Fraction(1): Outcome.WIN, Fraction(1, 2): Outcome.DRAW, Fraction(0): Outcome.LOSS}
    assert game_outcome(code.upper()) is expected[points]


def test_cl_19_any_closed_prefix_is_a_closed_account() -> None:
    for status in ("closed", "closed:fair_play_violations", "closed:abuse", "Closed"):
        assert is_closed_status(status)
    for status in ("basic", "premium", "staff", "", None):
        assert not is_closed_status(status)
    assert PlayerProfile(username="x", status="closed:abuse").is_closed
    assert not PlayerProfile(username="x", status="closed:abuse").is_fair_play_closed


def test_usernames_compare_case_insensitively() -> None:
    assert username_key("Kllr") == username_key("kllr")
    members = ClubMembers.model_validate(
        {"weekly": [{"username": "Alice"}], "all_time": [{"username": "alice"}, {"username": "b"}]}
    )
    assert [member.username for member in members.all] == ["Alice", "b"]


def test_models_tolerate_missing_keys(fixtures_dir: Path) -> None:
    empty = TeamMatch.model_validate({})
    assert empty.team1 is None and empty.settings.time_control is None
    registration = team_match(fixtures_dir, REGISTRATION)
    player = registration.team1.players[0]
    assert (player.rating, player.timeout_percent, player.board_number) == (1330, 0, None)
    assert registration.team2 is None
    assert registration.settings.max_rating == 1500 and registration.settings.min_rating is None
    live = team_match(fixtures_dir, LIVE)
    assert live.is_live and live.settings.time_control == 300 and live.settings.time_increment == 2
    daily = team_match(fixtures_dir, DAILY)
    assert not daily.is_live and daily.settings.time_control == "1/259200"
    running = team_match(fixtures_dir, RUNNING)
    bob = running.team1.players[1]
    assert bob.played_as_white is None and bob.played_as_black is None and bob.board_number == 2


def test_cl_21_daily_timeout_percent_absent_without_daily_games(fixtures_dir: Path) -> None:
    erik = PlayerStats.model_validate(payload(fixtures_dir, "player_stats_erik.json"))
    assert erik.daily_timeout_percent == 0
    assert erik.daily_rating == 1403
    never = PlayerStats.model_validate({"chess_blitz": {"last": {"rating": 1500}}})
    assert never.daily_timeout_percent is None and never.daily_rating is None


def test_cl_14_finished_daily_match_boards_sum_to_published_scores(fixtures_dir: Path) -> None:
    source = team_match(fixtures_dir, DAILY)
    facts = match_facts(source, Placement(), observed_at=OBSERVED)
    match = facts.match
    assert match is not None
    assert (match.home, match.away) == ("Team Romania", "Team USA - Southwest")
    assert len(match.boards) == 54 and facts.running_boards == ()
    assert (
        sum(board.home_points for board in match.boards) == source.team1.score == Fraction(123, 2)
    )
    assert sum(board.away_points for board in match.boards) == source.team2.score == Fraction(93, 2)
    assert all(board.home_points + board.away_points == 2 for board in match.boards)
    assert match.finished == datetime(2010, 1, 10, 7, 38, 24, tzinfo=UTC)
    assert match.at_start["Team Romania"].players == 54
    # Board 1 of the recorded board payload: sorinel 1 - 1 Kllr.
    assert facts.board_numbers == tuple(range(1, 55))
    first = match.boards[0]
    assert first.home_player == "sorinel"
    assert username_key(first.away_player) == "kllr"
    assert (first.home_points, first.away_points) == (1, 1)


def test_cl_19_closed_and_fair_play_closed_players_reported(fixtures_dir: Path) -> None:
    facts = match_facts(team_match(fixtures_dir, DAILY), Placement(), observed_at=OBSERVED)
    assert len(facts.closed_accounts) == 9 + 9 + 10 + 3
    assert {"arpadkoblos", "sorinel", "desperadoes", "doclove"} <= set(facts.closed_accounts)
    assert "aayeah-bwoy" not in facts.closed_accounts
    assert facts.fair_play == (
        "desperadoes",
        "gimp_em",
        "ionutzjo",
        "nicu_57",
        "plongs-inactive",
        "randy09",
        "sah1234567",
        "silechitila",
        "sorinel",
        "theonechampion",
        "trephine",
        "virgil_bv",
    )
    assert set(facts.fair_play) <= set(facts.closed_accounts)
    assert facts.fair_play_removals == {"Team Romania": (), "Team USA - Southwest": ()}
    assert len(facts.players["Team Romania"]) == 54


def test_cl_14_live_match_maps_too(fixtures_dir: Path) -> None:
    facts = match_facts(team_match(fixtures_dir, LIVE), Placement(), observed_at=OBSERVED)
    match = facts.match
    assert match is not None and match.id == "5833"
    assert len(match.boards) == 6
    assert sum(board.home_points for board in match.boards) == 7
    assert sum(board.away_points for board in match.boards) == 5
    assert facts.closed_accounts == ("checkmatemark04", "edr0nt", "justoneuser")
    assert match.finished is not None


def test_cl_14_running_games_are_left_out(fixtures_dir: Path) -> None:
    facts = match_facts(team_match(fixtures_dir, RUNNING), Placement(), observed_at=OBSERVED)
    match = facts.match
    assert match is not None and facts.status == "in_progress"
    assert match.finished is None
    assert [(b.home_player, b.away_player) for b in match.boards] == [("alice", "dave")]
    assert (match.boards[0].home_points, match.boards[0].away_points) == (Fraction(3, 2), 0.5)
    assert facts.board_numbers == (1,) and facts.running_boards == (2, 3)
    assert facts.closed_accounts == ("carol",)
    assert facts.fair_play == ("carol",)
    assert facts.fair_play_removals["Club A"] == ("carol",)


def test_cl_15_registration_tells_the_challenge_was_issued(fixtures_dir: Path) -> None:
    facts = match_facts(team_match(fixtures_dir, REGISTRATION), Placement(), observed_at=OBSERVED)
    match = facts.match
    assert facts.status == "registration" and facts.challenge_issued
    assert match is not None and match.boards == []
    assert match.home == "Big Game Hunters"
    assert match.challenge == ChallengeModel(issued_by="Big Game Hunters", issued=OBSERVED)
    assert match.challenge.accepted is None
    assert match.start == datetime(2018, 3, 1, 17, 0, tzinfo=UTC)
    assert facts.players == {"Big Game Hunters": ("billforchess", "bsankar", "bufab")}
    assert match.at_start == {}


def test_cl_15_opponent_players_signed_up_prove_acceptance(fixtures_dir: Path) -> None:
    data = payload(fixtures_dir, REGISTRATION)
    data["teams"]["team2"] = {
        "@id": "https://api.chess.com/pub/club/team-spain",
        "name": "Team Spain",
        "players": [{"username": "pepe", "rating": 1400, "status": "basic"}],
    }
    facts = match_facts(TeamMatch.model_validate(data), Placement(), observed_at=OBSERVED)
    assert facts.match is not None and facts.match.challenge is not None
    assert facts.match.away == "Team Spain"
    assert facts.match.challenge.accepted == OBSERVED


def test_cl_15_challenge_instants_are_upper_bounds_kept_from_earliest_sighting(
    fixtures_dir: Path,
) -> None:
    source = team_match(fixtures_dir, DAILY)
    facts = match_facts(source, Placement(), observed_at=OBSERVED)
    challenge = facts.match.challenge
    assert challenge.issued == challenge.accepted == source.start_time  # started: capped
    earlier = ChallengeModel(
        issued_by="Team Romania", issued=source.start_time - timedelta(days=9), accepted=None
    )
    merged = match_facts(
        source, Placement(), observed_at=OBSERVED, known_challenge=earlier
    ).match.challenge
    assert merged.issued == source.start_time - timedelta(days=9)
    assert merged.accepted == source.start_time


def test_placement_maps_clubs_and_home(fixtures_dir: Path) -> None:
    placement = Placement(
        id="P-5-3",
        division="Premier Division",
        round=5,
        home="USA Southwest Fans",
        away="Romania Fans",
        clubs={"Team-Romania": "Romania Fans", "team-usa-southwest": "USA Southwest Fans"},
    )
    at_start = {"Romania Fans": ClubAtStartModel(members=312, avg_rating=1544)}
    facts = match_facts(
        team_match(fixtures_dir, DAILY), placement, observed_at=OBSERVED, at_start=at_start
    )
    match = facts.match
    assert (match.id, match.division, match.round) == ("P-5-3", "Premier Division", 5)
    assert (match.home, match.away) == ("USA Southwest Fans", "Romania Fans")
    assert sum(board.home_points for board in match.boards) == Fraction(93, 2)
    assert match.challenge.issued_by == "Romania Fans"  # team1 created the challenge
    assert match.at_start["Romania Fans"] == ClubAtStartModel(
        members=312, avg_rating=1544, players=54
    )
    assert match.at_start["USA Southwest Fans"] == ClubAtStartModel(players=54)
    # The mapped match is a valid season-file match, through JSON and back.
    assert MatchModel.model_validate(json.loads(match.model_dump_json())) == match


def test_placement_naming_other_clubs_is_refused(fixtures_dir: Path) -> None:
    placement = Placement(home="Arsenal Fans", away="Chelsea Fans")
    with pytest.raises(FactsError, match="Team Romania vs Team USA - Southwest"):
        match_facts(team_match(fixtures_dir, DAILY), placement, observed_at=OBSERVED)


def test_cl_5_cl_6_club_at_start_from_profile_or_members(fixtures_dir: Path) -> None:
    profile = ClubProfile.model_validate(
        payload(fixtures_dir, "club_profile_chess-com-developer-community.json")
    )
    assert club_at_start(profile) == ClubAtStartModel(members=14905, avg_rating=928)
    computed = club_at_start(profile, [1000, 1501, None, 1200])
    assert computed == ClubAtStartModel(members=14905, avg_rating=float(Fraction(3701, 3)))
    assert average_rating([1000, 1501, None]) == Fraction(2501, 2)
    assert average_rating([None]) is None
    assert club_at_start(profile, []).avg_rating is None


def _carol_removed(fixtures_dir: Path, frank: dict[str, str]) -> dict[str, Any]:
    """The synthetic running match after chess.com removed carol (fair play) from Club A:
    she is no longer among its players, only in `fair_play_removals`; frank (board 3 of
    Club B) has the result codes `frank`."""
    data = payload(fixtures_dir, RUNNING)
    team1, team2 = data["teams"]["team1"], data["teams"]["team2"]
    team1["players"] = [p for p in team1["players"] if p["username"] != "carol"]
    assert team1["fair_play_removals"] == ["carol"]
    for player in team2["players"]:
        if player["username"] == "frank":
            player.pop("played_as_black", None)
            player.update(frank)
    return data


def test_cl_19_board_of_a_fair_play_removal_is_read_from_the_games_that_ended(
    fixtures_dir: Path,
) -> None:
    data = _carol_removed(fixtures_dir, {"played_as_white": "resigned", "played_as_black": "win"})
    facts = match_facts(TeamMatch.model_validate(data), Placement(), observed_at=OBSERVED)
    assert facts.board_numbers == (1, 3) and facts.running_boards == (2,)
    assert facts.unpaired_boards == {}
    board = facts.match.boards[1]
    assert (board.home_player, board.away_player) == ("carol", "frank")
    assert (board.home_points, board.away_points) == (1, 1)  # as played: frank 1 of 2
    assert "carol" in facts.closed_accounts and facts.fair_play == ("carol",)


def _finished_with_carol_removed(fixtures_dir: Path) -> MatchFacts:
    """The synthetic match finished, challenged on time, with Club A's carol (board 3)
    removed for fair play after her games ended 1-1 against frank."""
    data = _carol_removed(fixtures_dir, {"played_as_white": "resigned", "played_as_black": "win"})
    data["status"] = "finished"
    data["end_time"] = 1738368000
    data["teams"]["team1"]["players"][1].update(played_as_white="win", played_as_black="win")
    data["teams"]["team2"]["players"][1].update(
        played_as_white="resigned", played_as_black="resigned"
    )
    start = datetime.fromtimestamp(data["start_time"], UTC)
    on_time = ChallengeModel(
        issued_by="Club A", issued=start - timedelta(days=9), accepted=start - timedelta(days=8)
    )
    return match_facts(
        TeamMatch.model_validate(data),
        Placement(division="P"),
        observed_at=OBSERVED,
        known_challenge=on_time,
    )


def test_cl_19_removed_players_board_is_adjusted_by_the_league(fixtures_dir: Path) -> None:
    facts = _finished_with_carol_removed(fixtures_dir)
    assert facts.board_numbers == (1, 2, 3) and facts.match.boards[2].home_player == "carol"
    season = SeasonModel(
        name="S",
        divisions=[{"name": "P", "min_players": 1, "clubs": ["Club A", "Club B"]}],
        matches=[facts.match],
        closed_accounts=list(facts.closed_accounts),
    )
    [result] = league_report(to_domain(season)).results
    # Boards: alice 1½-½ dave, bob 2-0 erin, carol (removed, closed) 1-1 frank → 0-2.
    assert (result.home_half, result.away_half) == (7, 5)


@pytest.mark.parametrize(
    ("frank", "removals", "reason"),
    [
        ({"played_as_white": "win"}, ["carol"], "carol was removed for fair play and frank's"),
        (
            {"played_as_white": "win", "played_as_black": "win"},
            ["carol", "zed"],
            "2 fair-play removal(s) of Club A (carol, zed) for 1 board(s)",
        ),
        (
            {"played_as_white": "win", "played_as_black": "win"},
            [],
            "no Club A player on board 3 and no fair-play removal to explain it",
        ),
    ],
)
def test_cl_14_board_missing_a_player_is_left_out_with_a_reason_not_as_running(
    fixtures_dir: Path, frank: dict[str, str], removals: list[str], reason: str
) -> None:
    data = _carol_removed(fixtures_dir, frank)
    data["teams"]["team1"]["fair_play_removals"] = removals
    facts = match_facts(TeamMatch.model_validate(data), Placement(), observed_at=OBSERVED)
    assert facts.board_numbers == (1,) and facts.running_boards == (2,)
    assert list(facts.unpaired_boards) == [3]
    assert reason in facts.unpaired_boards[3]


def test_cl_20_player_removed_for_fair_play_still_counts_as_fielded(fixtures_dir: Path) -> None:
    # Club A fielded 3 players (the fixture's boards 1-3); chess.com later removed carol for
    # fair play and dropped her from the players. A board is only made for two players, so
    # Club A still fielded 3 at the start: no CL-20 forfeit in a division whose minimum is 3
    # (her board is adjusted by CL-19 instead).
    facts = _finished_with_carol_removed(fixtures_dir)
    assert facts.players["Club A"] == ("alice", "bob")
    assert facts.match.at_start["Club A"].players == 3
    assert facts.match.at_start["Club B"].players == 3
    season = SeasonModel(
        name="S",
        divisions=[{"name": "P", "min_players": 3, "clubs": ["Club A", "Club B"]}],
        matches=[facts.match],
        closed_accounts=list(facts.closed_accounts),
    )
    report = league_report(to_domain(season), now=OBSERVED)
    assert report.forfeits == ()
    [result] = report.results
    assert (result.home_half, result.away_half, result.forfeit) == (7, 5, False)


def test_a_chesscom_username_passes_the_name_gate() -> None:
    """Issue 20, item 2: chess.com data is a door too — a board's player with a Cyrillic
    look-alike or an invisible character is refused (a payload error), not stored as a
    second player; real usernames pass."""
    import pydantic

    from bot.chesscom.models import MatchPlayer

    assert MatchPlayer.model_validate({"username": "Gunner_Two-3"}).username == "Gunner_Two-3"
    for bad in ("\u0430lice", "alice\u2060", "ａlice", ""):
        with pytest.raises(pydantic.ValidationError):
            MatchPlayer.model_validate({"username": bad})
