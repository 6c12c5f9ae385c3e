"""CCT-7: draws agreed before both sides completed move 40 are flagged; lawful draws are not."""

from __future__ import annotations

import pytest

from core.tour.early_draws import DrawKind, PgnError, check_early_draw


def pgn(
    moves: str, result: str = "1/2-1/2", fen: str | None = None, term: str | None = None
) -> str:
    """A real PGN text with the seven-tag roster and optional FEN / Termination tags."""
    tags = [
        '[Event "Champions Chess Tour test"]',
        '[Site "chess24.com"]',
        '[Date "2021.02.07"]',
        '[Round "1.1"]',
        '[White "Carlsen, Magnus"]',
        '[Black "So, Wesley"]',
        f'[Result "{result}"]',
    ]
    if fen:
        tags += ['[SetUp "1"]', f'[FEN "{fen}"]']
    if term:
        tags.append(f'[Termination "{term}"]')
    return "\n".join(tags) + f"\n\n{moves} {result}\n"


RUY_LOPEZ = (
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3"
)


def test_cct_7_draw_agreed_at_move_9_is_flagged() -> None:
    check = check_early_draw(pgn(RUY_LOPEZ, term="Game drawn by agreement"))
    assert check.flagged and check.kind is DrawKind.AGREED_EARLY
    assert check.moves_completed == 8
    assert check.termination == "Game drawn by agreement"


def test_cct_7_draw_without_termination_header_and_no_lawful_reason_is_flagged() -> None:
    assert check_early_draw(pgn(RUY_LOPEZ)).flagged


def test_cct_7_threefold_repetition_is_allowed() -> None:
    check = check_early_draw(pgn("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8"))
    assert not check.flagged and check.kind is DrawKind.THREEFOLD_REPETITION


def test_cct_7_stalemate_is_allowed() -> None:
    loyd = (
        "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 "
        "8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6"
    )
    check = check_early_draw(pgn(loyd))
    assert not check.flagged and check.kind is DrawKind.STALEMATE


def test_cct_7_insufficient_material_is_allowed() -> None:
    check = check_early_draw(pgn("25. Kxd2", fen="4k3/8/8/8/8/8/3p4/4K3 w - - 0 25"))
    assert not check.flagged and check.kind is DrawKind.INSUFFICIENT_MATERIAL
    assert check.moves_completed == 24


def test_cct_7_fifty_move_rule_is_allowed() -> None:
    check = check_early_draw(pgn("30. Ra2", fen="4k3/8/8/8/8/8/4R3/4K3 w - - 99 30"))
    assert not check.flagged and check.kind is DrawKind.FIFTY_MOVES


def test_cct_7_timeout_against_insufficient_material_is_allowed() -> None:
    term = "Game drawn by timeout vs insufficient material"
    check = check_early_draw(pgn("20. e4", fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 20", term=term))
    assert not check.flagged and check.kind is DrawKind.TIMEOUT_VS_INSUFFICIENT_MATERIAL


def test_cct_7_timeout_header_with_mating_material_on_both_sides_is_flagged() -> None:
    term = "Game drawn by timeout vs insufficient material"
    check = check_early_draw(pgn("20. e4", fen="4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 20", term=term))
    assert check.flagged


def test_cct_7_header_claiming_repetition_the_moves_do_not_show_is_flagged() -> None:
    check = check_early_draw(pgn("1. e4 e5", term="Game drawn by repetition"))
    assert check.flagged and check.moves_completed == 1


def test_cct_7_draw_after_both_completed_move_40_is_allowed() -> None:
    check = check_early_draw(pgn("40... Rb8", fen="r3k3/8/8/8/8/8/8/R3K3 b - - 0 40"))
    assert not check.flagged and check.kind is DrawKind.AFTER_MOVE_LIMIT
    assert check.moves_completed == 40


def test_cct_7_draw_when_only_white_completed_move_40_is_flagged() -> None:
    check = check_early_draw(pgn("40. Rb1", fen="r3k3/8/8/8/8/8/8/R3K3 w - - 0 40"))
    assert check.flagged and check.moves_completed == 39


def test_cct_7_decisive_game_is_not_flagged() -> None:
    check = check_early_draw(pgn("1. f3 e5 2. g4 Qh4#", result="0-1"))
    assert not check.flagged and check.kind is DrawKind.NOT_A_DRAW


def test_cct_7_unreadable_pgn_is_refused() -> None:
    with pytest.raises(PgnError, match="illegal san"):
        check_early_draw(pgn("1. e4 e5 2. Ke3"))
    with pytest.raises(PgnError, match="no game"):
        check_early_draw("")
