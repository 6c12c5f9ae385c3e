"""A game named in a command, found in its event, and every game still open for autocomplete.

The game is a preliminary pairing, or a knock-out or Finals game that is recorded already or is its
contest's next game. By CCT-8d a match ends at 2½, the 4th game is skipped once decided, and the
play-off comes only when the series is level. Colours follow CCT-8e.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.errors import UserError
from bot.kernel.inputs import named, shown
from bot.tour.game_names import (
    ROUND_NAMES,
    TIE_OF,
    contest_game_name,
    finals_key,
    normal,
    pairing_name,
    parse_slot,
)
from bot.tour.store import LoadedEvent
from core.tour.event_facts import (
    FinalsMatchState,
    KnockoutState,
    TieState,
    finals_matches,
    knockout_state,
)
from core.tour.knockout import ContestStatus, KnockoutError, Tie
from core.tour.ranking import KNOCKOUT_PLACES, EventType
from core.tour.timecontrols import Phase, TimeControl
from storage.tour.games import Stage, TourGame


@dataclass(frozen=True)
class GameTarget:
    """A game of an event: where it belongs, its players' names by colour, its time control and its
    stored row.

    The row is None for a contest's next game not reported yet.
    """

    name: str
    stage: Stage
    contest: str | None
    round: int | None
    board: int | None
    phase: Phase
    match_no: int | None
    game_no: int
    white: str
    black: str
    time_control: TimeControl | None
    row: TourGame | None
    tie: Tie | None = None


def _row_target(loaded: LoadedEvent, row: TourGame, tie: Tie | None = None) -> GameTarget:
    control = loaded.record.time_controls.for_phase(row.phase)
    return GameTarget(
        loaded.game_name(row),
        row.stage,
        row.contest,
        row.round,
        row.board,
        row.phase,
        row.match_no,
        row.game_no,
        loaded.names[row.white_id],
        loaded.names[row.black_id],
        control,
        row,
        tie,
    )


def _stored(
    loaded: LoadedEvent, contest: str, phase: Phase, match_no: int | None, game_no: int
) -> TourGame | None:
    """The stored row of a contest's game, if it was reported."""
    return next(
        (
            g
            for g in loaded.games
            if g.contest == contest
            and g.phase is phase
            and g.match_no == match_no
            and g.game_no == game_no
        ),
        None,
    )


def _contest_target(
    loaded: LoadedEvent,
    *,
    stage: Stage,
    key: str,
    label: str,
    status: ContestStatus | None,
    phase: Phase,
    match_no: int | None,
    game_no: int,
    round_no: int | None = None,
    board: int | None = None,
    tie: Tie | None = None,
) -> GameTarget:
    """A contest's game that is recorded already or is its next game. Anything else is refused."""
    days = stage == "knockout"
    wanted = contest_game_name(label, phase, match_no, game_no, days=days)
    row = _stored(loaded, key, phase, match_no, game_no)
    if row is not None:
        return _row_target(loaded, row, tie)
    if status is None:
        raise UserError(
            f"{shown(wanted)} was not played: {named(label)} is recorded by its result."
        )
    slot = status.next_game
    if slot is None:
        if status.winner is not None:
            raise UserError(
                f"{named(label)} is decided ({named(str(status.winner))} won): "
                f"{shown(wanted)} is not played (CCT-8d)."
            )
        assert status.choice_required is not None
        raise UserError(
            f"Before the next game of {named(label)}, the {status.choice_required.value} must "
            "be chosen (`/series choose`, CCT-8e)."
        )
    if (slot.phase, slot.match_no, slot.game_no) != (phase, match_no, game_no):
        pending = [g for g in loaded.games if g.contest == key and not g.status.settled]
        if pending:
            raise UserError(
                f"{named(loaded.game_name(pending[0]))} waits for its result to be settled "
                f"before {shown(wanted)} (confirm, or an arbiter decides)."
            )
        following = contest_game_name(label, slot.phase, slot.match_no, slot.game_no, days=days)
        raise UserError(
            f"{shown(wanted)} is not the next game of {named(label)}: the next is "
            f"{named(following)} (CCT-8d)."
        )
    return GameTarget(
        wanted,
        stage,
        key,
        round_no,
        board,
        phase,
        match_no,
        game_no,
        str(slot.white),
        str(slot.black),
        slot.time_control,
        None,
        tie,
    )


def knockout_of(loaded: LoadedEvent) -> KnockoutState | None:
    """CCT-8c: the event's knock-out, judged once per loaded event. None before it starts.

    Raises KnockoutError for stored facts the rules refuse.
    """
    return loaded.derived("knockout", lambda: _knockout_of(loaded))


def _knockout_of(loaded: LoadedEvent) -> KnockoutState | None:
    if len(loaded.facts.seeds) != KNOCKOUT_PLACES:
        return None
    return knockout_state(loaded.facts)


def knockout_ties(loaded: LoadedEvent) -> dict[Tie, TieState]:
    """CCT-8c: the event's knock-out rounds whose players are known. There are none before it
    starts.
    """
    try:
        state = knockout_of(loaded)
    except KnockoutError as error:  # stored facts the rules refuse: say so, never guess
        raise UserError(f"The knock-out of {named(loaded.record.name)}: {error}") from None
    return {} if state is None else dict(state.ties)


def finals_of(loaded: LoadedEvent) -> tuple[FinalsMatchState, ...]:
    """CCT-8f: every Finals match, judged once per loaded event. There are none before the draw.

    Raises KnockoutError for stored facts the rules refuse.
    """
    return loaded.derived("finals", lambda: _finals_of(loaded))


def _finals_of(loaded: LoadedEvent) -> tuple[FinalsMatchState, ...]:
    return finals_matches(loaded.facts) if loaded.facts.players else ()


def finals_states(loaded: LoadedEvent) -> list[FinalsMatchState]:
    """CCT-8f: every Finals match. There are none before the draw."""
    try:
        return list(finals_of(loaded))
    except KnockoutError as error:
        raise UserError(f"The Finals {named(loaded.record.name)}: {error}") from None


def finals_label(state: FinalsMatchState) -> str:
    """A Finals match's name, e.g. `R2 A v B`."""
    p = state.pairing
    return pairing_name(p.round, str(p.white), str(p.black))


def finals_match_named(loaded: LoadedEvent, name: str) -> FinalsMatchState | None:
    """The Finals match `name` names, as `finals_label` writes it, or None."""
    wanted = normal(name)
    return next((s for s in finals_states(loaded) if normal(finals_label(s)) == wanted), None)


def finals_match(loaded: LoadedEvent, name: str) -> FinalsMatchState:
    """The Finals match `name` names, or a refusal."""
    state = finals_match_named(loaded, name)
    if state is None:
        raise UserError(f"No Finals match {shown(name)} in {named(loaded.record.name)}.")
    return state


def known_tie(loaded: LoadedEvent, tie: Tie) -> TieState:
    """CCT-8c: the knock-out round `tie`, refused until its players are known."""
    ties = knockout_ties(loaded)
    if tie not in ties:
        if not ties:
            raise UserError(f"The knock-out of {named(loaded.record.name)} has not started.")
        raise UserError(f"The players of {ROUND_NAMES[tie]} are not known yet (CCT-8c).")
    return ties[tie]


def tie_named(loaded: LoadedEvent, round: str) -> tuple[Tie, TieState]:
    """The knock-out round `round` names (QF1 … SF2, F, 3rd) and its state, or a refusal."""
    tie = TIE_OF.get(round.strip().casefold())
    if tie is None:
        raise UserError(f"{shown(round)} is not a knock-out round (QF1 … SF2, F, 3rd).")
    return tie, known_tie(loaded, tie)


def find_target(loaded: LoadedEvent, text: str) -> GameTarget:
    """The game `text` names in the event, as the module docstring says, or a refusal naming what
    is wrong.
    """
    record = loaded.record
    if record.drawn_at is None:
        raise UserError(f"{named(record.name)} has no draw yet: it has no games.")
    wanted = normal(text)
    for row in loaded.games:
        if row.stage == "preliminary" and normal(loaded.game_name(row)) == wanted:
            return _row_target(loaded, row)
    if record.type is EventType.FINALS:
        parsed = parse_slot(text, days=False)
        state = None if parsed is None else finals_match_named(loaded, parsed.contest)
        if parsed is not None and state is not None:
            p = state.pairing
            return _contest_target(
                loaded,
                stage="finals",
                key=finals_key(p.round, p.board),
                label=finals_label(state),
                status=state.status,
                phase=parsed.phase,
                match_no=parsed.match_no,
                game_no=parsed.game_no,
                round_no=p.round,
                board=p.board,
            )
    else:
        parsed = parse_slot(text, days=True)
        tie = None if parsed is None else TIE_OF.get(parsed.contest.casefold())
        if parsed is not None and tie is not None:
            tie_state = known_tie(loaded, tie)
            return _contest_target(
                loaded,
                stage="knockout",
                key=ROUND_NAMES[tie],
                label=ROUND_NAMES[tie],
                status=tie_state.status,
                phase=parsed.phase,
                match_no=parsed.match_no,
                game_no=parsed.game_no,
                tie=tie,
            )
    raise UserError(
        f"No game {shown(text)} in {named(record.name)}: name it as the list offers "
        "(e.g. `R3 A v B`, `QF1 day 1 game 3`, `QF1 blitz 2`, `QF1 armageddon`)."
    )


def open_targets(loaded: LoadedEvent) -> list[GameTarget]:
    """Every game of the event that still needs a settled result.

    These are the open preliminary games and each contest's next game, or its report waiting for
    confirmation.
    """
    return loaded.derived("open", lambda: _open_targets(loaded))


def _open_targets(loaded: LoadedEvent) -> list[GameTarget]:
    found: list[GameTarget] = []
    if loaded.record.drawn_at is None or loaded.record.recorded:
        return found
    for row in loaded.games:
        if row.stage == "preliminary" and not row.status.settled:
            found.append(_row_target(loaded, row))
    if loaded.record.type is EventType.FINALS:
        for state in finals_states(loaded):
            target = _next_of(
                loaded, state.status, "finals", state.pairing.round, state.pairing.board
            )
            if target is not None:
                found.append(target)
    else:
        for tie, tie_state in knockout_ties(loaded).items():
            target = _next_of(loaded, tie_state.status, "knockout", None, None, tie)
            if target is not None:
                found.append(target)
    return found


def _next_of(
    loaded: LoadedEvent,
    status: ContestStatus | None,
    stage: Stage,
    round_no: int | None,
    board: int | None,
    tie: Tie | None = None,
) -> GameTarget | None:
    if status is None or status.next_game is None:
        return None
    slot = status.next_game
    if stage == "knockout":
        assert tie is not None
        key = label = ROUND_NAMES[tie]
    else:
        assert round_no is not None and board is not None
        key = finals_key(round_no, board)
        label = loaded.contest_name(key)
    return _contest_target(
        loaded,
        stage=stage,
        key=key,
        label=label,
        status=status,
        phase=slot.phase,
        match_no=slot.match_no,
        game_no=slot.game_no,
        round_no=round_no,
        board=board,
        tie=tie,
    )
