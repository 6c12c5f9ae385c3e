"""What every settled tour game goes through before its unit of work commits.

A game's row is added when a contest's next game is first reported. Once stored, the event is
checked against the knock-out and Finals rules of CCT-8c to CCT-8f, and what the result decided
is returned to announce.
"""

from __future__ import annotations

from bot.kernel.errors import UserError
from bot.kernel.inputs import named
from bot.rendering.tour import cards as tour_cards
from bot.tour.game_names import ROUND_NAMES, finals_key, finals_key_of
from bot.tour.game_targets import GameTarget, finals_of, knockout_of
from bot.tour.store import LoadedEvent
from core.tour.event_facts import finals_match, preliminary_standings
from core.tour.knockout import KnockoutError, Tie
from core.tour.ranking import KNOCKOUT_PLACES, EventType
from storage.guild import TourUnit
from storage.tour.games import NewGame, TourGame


async def game_row(uow: TourUnit, loaded: LoadedEvent, target: GameTarget) -> TourGame:
    """The target's stored row, added as open for a contest's next game."""
    if target.row is not None:
        return target.row
    ids = loaded.ids
    return await uow.tour_games.add(
        loaded.record.tour_id,
        loaded.record.id,
        NewGame(
            target.stage,
            ids[target.white],
            ids[target.black],
            target.contest,
            target.round,
            target.board,
            target.phase,
            target.match_no,
            target.game_no,
        ),
    )


def stored_as(before: LoadedEvent, game: TourGame) -> LoadedEvent:
    """The event with `game` stored as now, added or replaced.

    By CCT-8f a Finals match is judged from its own games only, so only the game's match is
    judged again. The other matches' judgement carries over from `before`.
    """
    after = before.with_game(game)
    if after.record.type is not EventType.FINALS or game.contest is None:
        return after
    round_no, board = finals_key_of(game.contest)
    try:
        states = finals_of(before)
        match = finals_match(after.facts, round_no, board)
    except KnockoutError:  # left to the full judgement, which says what is wrong
        return after
    after.derived(
        "finals",
        lambda: tuple(
            match if (s.pairing.round, s.pairing.board) == (round_no, board) else s for s in states
        ),
    )
    return after


def check_settled(before: LoadedEvent, game: TourGame) -> tuple[LoadedEvent, tuple[str, ...]]:
    """CCT-8c to CCT-8f: the event with `game` stored as now, checked against the rules.

    A refusal rolls the unit of work back. It also returns what the change decided, to announce.
    """
    after = stored_as(before, game)
    decided: list[str] = []
    try:
        if after.record.type is EventType.FINALS and game.contest is not None:
            round_no, board = finals_key_of(game.contest)
            was = finals_match(before.facts, round_no, board)
            match = finals_match(after.facts, round_no, board)
            if match.winner is not None and was.winner is None:
                how = "rapid games" if match.rapid else "tie-break"
                decided.append(
                    f"R{round_no} {tour_cards.name(match.pairing.white)} v "
                    f"{tour_cards.name(match.pairing.black)}: "
                    f"{tour_cards.name(match.winner)} wins in the {how} (CCT-8f)"
                )
        elif len(after.facts.seeds) == KNOCKOUT_PLACES:
            state = knockout_of(after)
            old = knockout_of(before)
            assert state is not None and old is not None
            for tie, winner in state.winners.items():
                if tie not in old.winners:
                    decided.append(f"{ROUND_NAMES[tie]}: {tour_cards.name(winner)} wins the series")
            if state.finished and not old.finished:
                final = state.winners[Tie.FINAL]
                decided.append(
                    f"{tour_cards.name(after.record.name)} is won by {tour_cards.name(final)}"
                )
        _check_waiting(after)
    except KnockoutError as error:
        raise UserError(f"That result cannot stand: {error}") from None
    return after, tuple(decided)


def _check_waiting(after: LoadedEvent) -> None:
    """CCT-8d: a knock-out or Finals game whose report still waits must stay its contest's next
    game.

    Its report is reported or disputed. A result that decides the match before it, or changes who
    plays it, cannot stand while it waits.
    """
    waiting = [g for g in after.games if g.contest is not None and not g.status.settled]
    if not waiting:
        return
    if after.record.type is EventType.FINALS:
        statuses = {
            finals_key(m.pairing.round, m.pairing.board): m.status for m in finals_of(after)
        }
    else:
        knockout = knockout_of(after)
        ties = {} if knockout is None else knockout.ties
        statuses = {ROUND_NAMES[tie]: state.status for tie, state in ties.items()}
    for game in waiting:
        status = statuses.get(game.contest or "")
        slot = None if status is None else status.next_game
        if slot is None or (slot.phase, slot.match_no, slot.game_no) != (
            game.phase,
            game.match_no,
            game.game_no,
        ):
            raise UserError(
                f"That result cannot stand while {named(after.game_name(game))} waits for its "
                "confirmation or the arbiters: after it, that game would not be played (CCT-8d)."
            )


def keep_seeds(before: LoadedEvent, after: LoadedEvent) -> None:
    """CCT-8c: once the knock-out started, a preliminary correction may not change places
    1-8 it was built from."""
    order = tuple(str(r.player) for r in preliminary_standings(after.facts)[:KNOCKOUT_PLACES])
    if order != tuple(str(s) for s in before.facts.seeds):
        raise UserError(
            "That correction changes the preliminary places 1-8 the knock-out was built from "
            "(CCT-8c): it cannot be made once the knock-out started."
        )
