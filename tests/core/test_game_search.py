"""CCT-7: a paired game is found among a site's games — the one finished game between the two
players in the round's window at the event's time control, or none, or "ambiguous"; never a
wrong one. The move-40 flag comes from the found game's PGN."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.results import Result
from core.tour.early_draws import DrawKind
from core.tour.game_search import (
    GameQuery,
    Miss,
    SearchStatus,
    Site,
    SiteClock,
    SiteGame,
    find_game,
    find_games,
)
from core.tour.timecontrols import ARMAGEDDON, BLITZ, RAPID, TimeControl

START = datetime(2021, 2, 7, 17, tzinfo=UTC)
END = START + timedelta(hours=3)
RAPID_CLOCK = SiteClock(900, 10)
BLITZ_CLOCK = SiteClock(300, 3)

EARLY_DRAW_PGN = (
    '[Event "Live Chess"]\n[Site "Chess.com"]\n[White "MagnusCarlsen"]\n[Black "GMWSO"]\n'
    '[Result "1/2-1/2"]\n[TimeControl "900+10"]\n[Termination "Game drawn by agreement"]\n\n'
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2\n"
)
WIN_PGN = (
    '[Event "Live Chess"]\n[White "MagnusCarlsen"]\n[Black "GMWSO"]\n[Result "1-0"]\n\n'
    "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
)


def game(
    game_id: str = "1",
    *,
    white: str = "MagnusCarlsen",
    black: str = "GMWSO",
    result: Result | None = Result.WHITE_WIN,
    minutes: int = 60,
    clock: SiteClock | None = RAPID_CLOCK,
    site: Site = Site.CHESSCOM,
    pgn: str | None = WIN_PGN,
    standard: bool = True,
) -> SiteGame:
    return SiteGame(
        site,
        game_id,
        f"https://www.chess.com/game/live/{game_id}",
        white,
        black,
        result,
        START + timedelta(minutes=minutes),
        clock,
        pgn,
        standard,
    )


def query(
    white: str | None = None, control: TimeControl = RAPID, site: Site = Site.CHESSCOM
) -> GameQuery:
    return GameQuery(site, "magnuscarlsen", "gmwso", white, START, END, control)


def test_cct_7_the_one_game_in_the_window_at_the_time_control_is_found() -> None:
    found = find_game(query(), [game()])
    assert found.status is SearchStatus.FOUND
    assert found.game is not None and found.game.game_id == "1"
    assert found.early_draw is not None and not found.early_draw.flagged
    assert found.early_draw.kind is DrawKind.NOT_A_DRAW


def test_cct_7_usernames_compare_without_case_and_either_colour_when_unknown() -> None:
    reversed_colours = game(white="gmwso", black="MAGNUSCARLSEN", result=Result.BLACK_WIN)
    found = find_game(query(), [reversed_colours])
    assert found.status is SearchStatus.FOUND and found.game == reversed_colours


def test_cct_7_an_early_draw_is_flagged_from_the_pgn() -> None:
    drawn = game(result=Result.DRAW, pgn=EARLY_DRAW_PGN)
    found = find_game(query(), [drawn])
    assert found.status is SearchStatus.FOUND
    assert found.early_draw is not None and found.early_draw.flagged
    assert found.early_draw.kind is DrawKind.AGREED_EARLY


def test_cct_7_a_found_game_without_a_readable_pgn_says_why_it_has_no_flag() -> None:
    missing = find_game(query(), [game(pgn=None)])
    assert missing.status is SearchStatus.FOUND and missing.early_draw is None
    assert missing.pgn_problem == "chess.com gave no PGN for this game"
    broken = find_game(query(), [game(pgn="1. e4 e5 2. Ke3 Ke6 3. Qxh8")])
    assert broken.status is SearchStatus.FOUND and broken.early_draw is None
    assert broken.pgn_problem is not None and "cannot be read" in broken.pgn_problem


def test_cct_7_the_window_holds_its_start_and_not_its_end() -> None:
    at_start = game("start", minutes=0)
    at_end = game("end", minutes=180)
    before = game("before", minutes=-1)
    assert find_game(query(), [at_start, at_end, before]).game == at_start


def test_cct_7_another_time_control_is_not_taken_but_listed_as_a_miss() -> None:
    blitz = game("b", clock=BLITZ_CLOCK)
    daily = game("d", clock=None)
    found = find_game(query(), [blitz, daily])
    assert found.status is SearchStatus.NONE and found.game is None
    assert found.misses == ((blitz, Miss.TIME_CONTROL), (daily, Miss.TIME_CONTROL))
    assert find_game(query(control=BLITZ), [blitz, daily]).game == blitz


def test_cct_7_armageddon_is_never_recognised_from_a_site() -> None:
    # A site gives both players one base time: no site game is "White 5, Black 4".
    five_minutes = game(clock=SiteClock(300, 0))
    four_minutes = game("2", clock=SiteClock(240, 0))
    found = find_game(query(control=ARMAGEDDON), [five_minutes, four_minutes])
    assert found.status is SearchStatus.NONE
    assert {miss for _, miss in found.misses} == {Miss.TIME_CONTROL}


def test_cct_7_colours_are_checked_when_the_pairing_gives_them() -> None:
    as_paired = query(white="MagnusCarlsen")
    assert find_game(as_paired, [game()]).status is SearchStatus.FOUND
    reversed_colours = game(white="GMWSO", black="MagnusCarlsen")
    found = find_game(query(white="gmwso"), [game()])
    assert found.status is SearchStatus.NONE
    assert found.misses[0][1] is Miss.COLOURS
    assert find_game(query(white="gmwso"), [reversed_colours]).game == reversed_colours


def test_cct_7_two_candidates_are_ambiguous_never_a_guess() -> None:
    first, second = game("1", minutes=30), game("2", minutes=90)
    found = find_game(query(), [second, first])
    assert found.status is SearchStatus.AMBIGUOUS and found.game is None
    assert found.candidates == (first, second)  # in the order they ended


def test_cct_7_a_game_listed_by_both_players_archives_counts_once() -> None:
    found = find_game(query(), [game(), game()])
    assert found.status is SearchStatus.FOUND


def test_cct_7_undecided_variant_other_players_and_other_sites_are_not_candidates() -> None:
    aborted = game("aborted", result=None, minutes=10)
    chess960 = game("960", standard=False, minutes=20)
    stranger = game("x", black="Hikaru")
    elsewhere = game("li", site=Site.LICHESS)
    found = find_game(query(), [aborted, chess960, stranger, elsewhere])
    assert found.status is SearchStatus.NONE
    assert found.misses == ((aborted, Miss.UNDECIDED), (chess960, Miss.VARIANT))
    assert find_game(query(site=Site.LICHESS), [elsewhere]).game == elsewhere


def test_cct_7_a_game_already_taken_is_never_taken_again() -> None:
    taken = game("1")
    found = find_game(query(), [taken], taken=[taken.key])
    assert found.status is SearchStatus.NONE and found.misses == ((taken, Miss.TAKEN),)


def test_cct_7_games_of_one_match_are_taken_in_order_once_each() -> None:
    # Game 1 was played, game 3 (same colours) not yet: game 1's pairing takes it and game
    # 3's finds nothing. Were game 3 searched first it would take game 1 — so order matters.
    one = game("g1", minutes=20)
    searches = [(query(white="MagnusCarlsen"), [one]), (query(white="MagnusCarlsen"), [one])]
    first, third = find_games(searches)
    assert first.game == one
    assert third.status is SearchStatus.NONE and third.misses == ((one, Miss.TAKEN),)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"first": " "}, "both players"),
        ({"second": "MAGNUSCARLSEN"}, "themselves"),
        ({"white": "hikaru"}, "not one of the two players"),
        ({"end": START}, "must end after it starts"),
        ({"start": START.replace(tzinfo=None)}, "timezone-aware"),
    ],
)
def test_cct_7_a_query_that_makes_no_sense_is_refused(change: dict, message: str) -> None:
    values = {
        "site": Site.CHESSCOM,
        "first": "magnuscarlsen",
        "second": "gmwso",
        "white": None,
        "start": START,
        "end": END,
        "time_control": RAPID,
    } | change
    with pytest.raises(ValueError, match=message):
        GameQuery(**values)


def test_cct_7_site_clocks_match_rapid_and_blitz_exactly() -> None:
    assert RAPID_CLOCK.matches(RAPID) and not RAPID_CLOCK.matches(BLITZ)
    assert BLITZ_CLOCK.matches(BLITZ) and not SiteClock(900, 0).matches(RAPID)
    assert str(RAPID_CLOCK) == "15 min + 10 s"


GAMES = st.lists(
    st.tuples(
        st.sampled_from(["MagnusCarlsen", "GMWSO", "Hikaru"]),
        st.sampled_from(["MagnusCarlsen", "GMWSO", "Hikaru"]),
        st.sampled_from([Result.WHITE_WIN, Result.DRAW, None]),
        st.integers(-30, 210),
        st.sampled_from([RAPID_CLOCK, BLITZ_CLOCK, None]),
    ),
    max_size=6,
)


@given(GAMES, st.sampled_from([None, "MagnusCarlsen", "GMWSO"]))
def test_cct_7_a_found_game_always_fits_the_query_and_is_the_only_one(
    specs: list[tuple[str, str, Result | None, int, SiteClock | None]], white: str | None
) -> None:
    games = [
        game(str(n), white=w, black=b, result=r, minutes=m, clock=c)
        for n, (w, b, r, m, c) in enumerate(specs)
    ]
    fitting = [
        g
        for g in games
        if g.between("magnuscarlsen", "gmwso")
        and START <= g.ended_at < END
        and g.result is not None
        and g.clock == RAPID_CLOCK
        and (white is None or g.white.casefold() == white.casefold())
    ]
    found = find_game(query(white=white), games)
    expected = {0: SearchStatus.NONE, 1: SearchStatus.FOUND}.get(
        len(fitting), SearchStatus.AMBIGUOUS
    )
    assert found.status is expected
    assert found.game == (fitting[0] if len(fitting) == 1 else None)
