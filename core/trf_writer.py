"""Writing FIDE Tournament Report Files, by CORE-2: a round robin's games as TRF, and a TRF read
by `core.trf` written back with computed points and ranks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction

from core.results import Outcome, Result
from core.tiebreaks import Bye, Game
from core.trf import COMMENT, TrfPlayer, TrfRound, TrfTournament, cell_text

_CODES: dict[Result, tuple[str, str]] = {
    Result.WHITE_WIN: ("1", "0"),
    Result.DRAW: ("=", "="),
    Result.BLACK_WIN: ("0", "1"),
    Result.WHITE_FORFEIT_WIN: ("+", "-"),
    Result.BLACK_FORFEIT_WIN: ("-", "+"),
    Result.DOUBLE_FORFEIT: ("-", "-"),
}
_BYE_CODES = {Outcome.WIN: "F", Outcome.DRAW: "H", Outcome.LOSS: "Z"}


def round_robin_trf(
    names: Sequence[str],
    games: Iterable[Game],
    byes: Iterable[Bye] = (),
    *,
    rounds: int,
    name: str = "",
) -> TrfTournament:
    """Builds a TRF tournament from games between start numbers 1 to len(names), round by round.

    A round where a player has neither a game nor a bye is written as `0000 - Z`. That is the Berger
    table's phantom opponent: no game and no points.
    """
    slots: dict[int, dict[int, TrfRound]] = {no: {} for no in range(1, len(names) + 1)}
    for g in games:
        if g.round is None or not 1 <= g.round <= rounds:
            raise ValueError(f"game {g.white}-{g.black} has no round in 1..{rounds}")
        white_code, black_code = _CODES[g.result]
        for who, opponent, colour, code in (
            (g.white, g.black, "w", white_code),
            (g.black, g.white, "b", black_code),
        ):
            if who not in slots or g.round in slots[who]:
                raise ValueError(f"player {who} cannot play in round {g.round} here")
            slots[who][g.round] = TrfRound(opponent, colour, code)  # type: ignore[arg-type]  # colour: "w"/"b"
    for b in byes:
        if b.round is None or b.round in slots[b.player]:  # type: ignore[index]  # a start number
            raise ValueError(f"bye of {b.player} needs a free round")
        slots[b.player][b.round] = TrfRound(None, None, _BYE_CODES[b.outcome])  # type: ignore[index]  # a start number
    players = tuple(
        TrfPlayer(
            start_no=no,
            name=names[no - 1],
            rounds=tuple(slots[no].get(r, TrfRound(None, None, "Z")) for r in range(1, rounds + 1)),
        )
        for no in slots
    )
    records = (("012", name), ("062", str(len(names))), ("XXR", str(rounds)))
    return TrfTournament(records if name else records[1:], players)


def _points_text(points: Fraction) -> str:
    """Points as the 4-column TRF field, such as `3.5` or `10.0`. Only halves are allowed."""
    if (points * 2).denominator != 1:
        raise ValueError(f"TRF points must be halves, not {points}")
    sign = "-" if points < 0 else ""
    text = (
        f"{sign}{abs(points.numerator) // points.denominator}.{5 if points.denominator == 2 else 0}"
    )
    if len(text) > 4:
        raise ValueError(f"{text} does not fit the 4-column TRF points field")
    return text


def dump_trf(
    tournament: TrfTournament,
    points: Mapping[int, Fraction] | None = None,
    ranks: Mapping[int, int] | None = None,
) -> str:
    """Writes a TRF text with the computed points and ranks, by start number.

    Records and players keep the order of the file read, comments and TRF-2026 records included. A
    TRF-2026 file is thus written back as TRF-2026 and a TRF-16 file as TRF-16.
    """
    placed: list[tuple[int, int, str]] = []
    for index, (code, value) in enumerate(tournament.records):
        line = tournament.record_lines[index] if tournament.record_lines else 0
        text = code + value if code == COMMENT else f"{code} {value}"
        placed.append((line, 0, text.rstrip()))
    for p in tournament.players:
        score = _points_text(points[p.start_no]) if points is not None else ""
        rank = str(ranks[p.start_no]) if ranks is not None else ""
        head = (
            f"001 {p.start_no:>4} {p.sex:1.1}{p.title:>3.3} {p.name:<33.33} "
            f"{p.rating or '':>4} {p.federation:>3.3} {p.fide_id:>11.11} {p.birth_date:>10.10} "
            f"{score:>4} {rank:>4}  "
        )
        cells = [cell_text(rnd) for rnd in p.rounds]
        placed.append((p.line, 1, (head + "  ".join(cells)).rstrip()))
    placed.sort(key=lambda item: item[:2])  # stable: file order, or records before players
    return "\n".join(text for _, _, text in placed) + "\n"
