"""Differential test of CORE-3 WIN, SB and KS against FIDE's reference tie-break program
(`gacrux`, PyPI, MIT), fed this project's own TRF-16 export of random round robins."""

from __future__ import annotations

from fractions import Fraction

from gacrux import berger
from gacrux.tiebreak import tiebreak
from gacrux.trf2json import trf2json
from hypothesis import given, settings

from core.berger import berger_table
from core.standings import standings
from core.tiebreaks import Criterion, DeReading, player_values
from core.trf_writer import dump_trf, round_robin_trf
from tests.support.properties import examples
from tests.support.round_robins import WITH_FORFEITS, RoundRobin, round_robins

_COLUMNS = ["PTS", "WIN", "SB", "KS"]


def _gacrux(text: str, columns: list[str] = _COLUMNS) -> dict[int, list[Fraction]]:
    """Run gacrux's TRF reader and tie-break engine (round-robin rules) on a TRF text."""
    reader = trf2json()
    reader.parse_file(text, 0)
    assert reader.chessjson["status"]["code"] == 0, reader.chessjson["status"]
    tournament = reader.get_tournament(1)
    params = {"pre_determined": True, "tiebreak": list(columns), "check": 0, "unrated": None}
    result = tiebreak(tournament, -1, params).compute_tiebreaks(tournament, params)
    return {
        c["cid"]: [Fraction(value) for value in c["tiebreakScore"]] for c in result["competitors"]
    }


def _export(event: RoundRobin) -> str:
    rows = standings(event.players, event.games)
    tournament = round_robin_trf(
        [f"Player {no}" for no in event.players], event.games, rounds=event.rounds, name="Diff"
    )
    return dump_trf(
        tournament, {r.player: r.points for r in rows}, {r.player: r.rank for r in rows}
    )


def test_core_3_gacrux_reads_the_fide_worked_exercise_like_us(fixtures_dir) -> None:
    text = (fixtures_dir / "tiebreaks" / "fide_held_round_robin.trf").read_text()
    theirs = _gacrux(text)
    assert theirs[6] == [Fraction(3, 2), 1, Fraction(9, 4), 0]
    assert theirs[1] == [Fraction(7, 2), 3, Fraction(37, 4), 2]


@settings(max_examples=examples(750), deadline=None)
@given(round_robins(WITH_FORFEITS, max_players=14))
def test_core_3_win_sb_ks_equal_fide_reference_program(event: RoundRobin) -> None:
    ours = player_values(event.players, event.games)
    theirs = _gacrux(_export(event))
    assert set(theirs) == set(event.players)
    for player in event.players:
        mine = [ours.points[player], ours.wins[player], ours.sb[player], ours.ks[player]]
        assert mine == theirs[player], f"player {player}: ours {mine}, gacrux {theirs[player]}"


@settings(max_examples=examples(500), deadline=None)
@given(round_robins(WITH_FORFEITS, max_players=10))
def test_core_3_fide2024_de_order_equals_fide_reference_program(event: RoundRobin) -> None:
    """CCT-8b `fide2024`: ordering by PTS then DE re-applied to every sub-group still tied
    is the order of gacrux, whose DE is likewise recomputed among those still tied."""
    criteria = (Criterion.PTS, Criterion.DE)
    rows = standings(event.players, event.games, criteria=criteria, reading=DeReading.FIDE2024)
    theirs = _gacrux(_export(event), ["PTS", "DE"])
    ours = {row.player: row.rank for row in rows}
    key = {p: (-theirs[p][0], theirs[p][1]) for p in event.players}
    for a in event.players:
        for b in event.players:
            assert (ours[a] < ours[b]) == (key[a] < key[b]), (a, b, ours, key)


def test_core_1_berger_tables_3_to_24_equal_fide_reference_program() -> None:
    """CORE-1: beyond the published 3/4 … 15/16, every table the bot pairs (up to 24) equals
    gacrux's Berger table, board order and colours included (the phantom's game left out)."""
    for players in range(3, 25):
        theirs = berger.bergertables(players)["pairing"]
        for number, boards in enumerate(berger_table(players).rounds, start=1):
            expected = [
                (pair["white"], pair["black"])
                for _, pair in sorted(theirs[number].items())
                if max(pair["white"], pair["black"]) <= players
            ]
            assert [(p.white, p.black) for p in boards] == expected, (players, number)
