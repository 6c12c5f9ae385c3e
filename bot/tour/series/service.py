"""CCT-8e colour choices.

In a knock-out round the higher-ranked player chooses their colour in game 1 of match 1, and if a
play-off comes, in the first blitz game and the Armageddon, whichever the series asks for next. An
arbiter may enter the choice for them. In the Finals the play-off colours are the organiser's, see
core/tour/finals.py. They are given as the colour of the first-named player, the Berger White.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from bot.kernel.actor import Actor, Role
from bot.kernel.errors import UserError
from bot.kernel.inputs import named, shown
from bot.tour.game_names import ROUND_NAMES, finals_key
from bot.tour.game_targets import finals_match, tie_named
from bot.tour.references import find_event
from bot.tour.store import load_event
from core.tour.knockout import ColourChoice, ContestStatus
from core.tour.ranking import EventType
from storage.guild import GuildStore
from storage.tour.games import ColourSlot

SLOTS: dict[ColourChoice, ColourSlot] = {
    ColourChoice.MATCH_1_GAME_1: "colour_game_1",
    ColourChoice.BLITZ_1: "colour_blitz_1",
    ColourChoice.ARMAGEDDON: "colour_armageddon",
}


@dataclass(frozen=True)
class ColourChosen:
    """A choice recorded: the contest, which choice, who chose for whom, and the colour."""

    event: str
    contest: str
    choice: ColourChoice
    chooser: str
    colour: chess.Color


async def choose_colour(
    store: GuildStore, actor: Actor, event: str, round: str, colour: str
) -> ColourChosen:
    """CCT-8e: the choice the contest `round` waits for, made by its chooser or an arbiter."""
    if colour not in ("white", "black"):
        raise UserError(f"{shown(colour)} is not a colour: white or black.")
    chosen = chess.WHITE if colour == "white" else chess.BLACK
    async with store.tour_change(actor.user_id, "series.choose", f"event:{event}") as uow:
        view = uow.view()
        record = await find_event(view, event)
        loaded = await load_event(view, record)
        status: ContestStatus | None
        if record.type is EventType.FINALS:
            if not (actor.has(Role.HQ) or actor.has(Role.ARBITER)):
                raise UserError(
                    "The Finals' play-off colours are the organiser's: this needs the "
                    "**league HQ** or **arbiter** role."
                )
            state = finals_match(loaded, round)
            p = state.pairing
            key, chooser, status = finals_key(p.round, p.board), str(p.white), state.status
        else:
            tie, tie_state = tie_named(loaded, round)
            key, chooser, status = ROUND_NAMES[tie], str(tie_state.pairing.higher), tie_state.status
            if not actor.has(Role.ARBITER):
                mine = (
                    None
                    if actor.user_id is None
                    else await uow.tours.player_of_user(record.tour_id, actor.user_id)
                )
                if mine is None or mine.name != chooser:
                    raise UserError(
                        f"In {key} the higher-ranked player {named(chooser)} chooses (CCT-8e): "
                        "this needs that **player** or the **arbiter** role."
                    )
        if status is None or status.choice_required is None:
            raise UserError(f"{named(key)} waits for no colour choice now.")
        choice = status.choice_required
        await uow.tour_games.choose(record.id, key, SLOTS[choice], chosen, actor.user_id)
        await uow.tour_events.bump(record.id)
        label = key if record.type is not EventType.FINALS else loaded.contest_name(key)
        return ColourChosen(record.name, label, choice, chooser, chosen)
