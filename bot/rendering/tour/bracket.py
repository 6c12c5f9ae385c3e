"""What the knock-out bracket shows, by CCT-8c, CCT-8d, CCT-8e and CCT-7.

It shows every series of a Regular or Major event: QF1-QF4, SF1-SF2, the Final, and the 3rd-place
match when the event has one. Each has its players and seeds, its match and play-off scores and its
winner. A series in progress shows the next game: which game, its colours and its time control. The
view is built from the core's bracket and series statuses, and the image in `tour_bracket_image`
only draws it.

API, for the `tour` stream's `/event bracket` and `/series show`:

- `bracket_view(event, bracket, *, statuses, awarded, walkovers, third_place_match,
  controls, name_of)` -> `BracketView`. `statuses[tie]` is `core.tour.knockout.
  series_status(higher, lower, …)` of that tie, its first player the higher-ranked.
  `awarded[tie]` is a winner known without games, from a walkover or an imported result.
- `played_event_bracket(event: PlayedEvent, *, name_of)` -> `BracketView` of a finished
  event known by its winners, such as a tour file's.
- `slot_text(slot)`, `control_text(control)`, `clock_text(control)`,
  `SeriesView.score_cells(first)`, `SeriesView.footer()` -> the texts each series box
  shows, which `/series show` may use too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from bot.rendering.common.text import halves_text
from bot.rendering.tour.views import NameOf
from core.tour.events import ROUND_ORDER, PlayedEvent
from core.tour.knockout import (
    QUARTER_FINALS,
    SEMI_FINALS,
    Bracket,
    ColourChoice,
    ContestStatus,
    GameSlot,
    KnockoutError,
    MatchOutcome,
    Tie,
)
from core.tour.ranking import KNOCKOUT_PLACES
from core.tour.timecontrols import DEFAULT_TIME_CONTROLS, Phase, TimeControl, TimeControls

TIE_NAMES: Mapping[Tie, str] = {
    **{tie: tie.value for tie in (Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4, Tie.SF1, Tie.SF2)},
    Tie.FINAL: "Final",
    Tie.THIRD_PLACE: "3rd place",
}
FEEDERS: Mapping[Tie, tuple[str, str]] = {
    **{tie: (f"Place {a}", f"Place {b}") for tie, (a, b) in QUARTER_FINALS.items()},
    **{tie: (f"Winner {a.value}", f"Winner {b.value}") for tie, (a, b) in SEMI_FINALS.items()},
    Tie.FINAL: ("Winner SF1", "Winner SF2"),
    Tie.THIRD_PLACE: ("Loser SF1", "Loser SF2"),
}
"""CCT-8c: who fills each slot of a series before its players are known."""
SCORE_COLUMNS = ("D1", "D2", "Bz", "Ar", "S")
"""A series' score columns: the rapid matches of days 1 and 2, the blitz play-off, the Armageddon
and the series.

In the series column a match won counts 1 and a drawn one ½.
"""


def slot_text(slot: GameSlot) -> str:
    """CCT-8d: which game comes next: `day 1 game 3`, `blitz game 2`, `Armageddon`."""
    if slot.phase is Phase.RAPID:
        return f"day {slot.match_no} game {slot.game_no}"
    if slot.phase is Phase.BLITZ:
        return f"blitz game {slot.game_no}"
    return "Armageddon"


def control_text(control: TimeControl) -> str:
    """CCT-7: a time control as players read it, such as `rapid 15 min + 10 s`.

    It says who a drawn Armageddon goes to.
    """
    text = str(control)
    return f"{text}, a draw goes to Black" if control.draw_goes_to_black else text


def clock_text(control: TimeControl) -> str:
    """CCT-7: a time control's clocks alone, such as `15 min + 10 s` or `W 5 / B 4 min + 0 s`."""
    return str(control).removeprefix(f"{control.name} ")


@dataclass(frozen=True, slots=True)
class SeriesView:
    """One series of the bracket.

    It holds its players as core ids, None until known, and `names` as shown, which fill each slot
    while unknown. It holds their preliminary places, the core's status, its winner, and whether it
    was awarded without play. The status is None before any game, while the colours are still to
    choose.
    """

    tie: Tie
    higher: Hashable | None
    lower: Hashable | None
    names: tuple[str, str]
    seeds: tuple[int | None, int | None]
    status: ContestStatus | None
    winner: Hashable | None
    walkover: bool
    controls: TimeControls
    walkover_reason: str | None = None
    """CCT-9: why the series was awarded without play, when known."""

    @property
    def known(self) -> bool:
        """Whether both players are known."""
        return self.higher is not None and self.lower is not None

    @property
    def title(self) -> str:
        """`QF1 · places 1 v 8`, `SF1`, `Final`, `3rd place`."""
        if self.tie in QUARTER_FINALS:
            first, second = QUARTER_FINALS[self.tie]
            return f"{TIE_NAMES[self.tie]} · places {first} v {second}"
        return TIE_NAMES[self.tie]

    def name(self, player: Hashable) -> str:
        """The shown name of one of the series' two players."""
        return self.names[0] if player == self.higher else self.names[1]

    def won(self, first: bool) -> bool:
        """Whether the higher player, `first`, or the lower player won the series."""
        return self.winner is not None and self.winner == (self.higher if first else self.lower)

    def score_cells(self, first: bool) -> tuple[str, ...]:
        """The `SCORE_COLUMNS` of the higher player, `first`, or of the lower player.

        They are each rapid match's score so far, the blitz score once a blitz game is played, W or
        L for the Armageddon, and the series score. In the series score a match won counts 1 and a
        drawn one ½. By CCT-8d a match stopped once the series was decided counts nothing.
        """
        status = self.status
        if status is None:
            return ("",) * len(SCORE_COLUMNS)
        days = ["", ""]
        series = Fraction(0)
        for match in status.matches:
            mine, theirs = (match.first, match.second) if first else (match.second, match.first)
            if match.games:
                days[match.match_no - 1] = halves_text(mine)
            if match.outcome is MatchOutcome.DRAWN:
                series += Fraction(1, 2)
            elif (
                match.outcome in (MatchOutcome.FIRST_WON, MatchOutcome.SECOND_WON) and mine > theirs
            ):
                series += 1
        blitz = ""
        if status.playoff is not None and any(status.playoff):
            blitz = halves_text(status.playoff[0 if first else 1])
        armageddon = ""
        if status.decided_by is Phase.ARMAGEDDON:
            armageddon = "W" if self.won(first) else "L"
        played = any(match.games for match in status.matches)
        return (*days, blitz, armageddon, halves_text(series) if played else "")

    def footer(self, shorten: Callable[[str], str] = str) -> tuple[str, str]:
        """Two lines under the players saying who won and how, or what comes next.

        What comes next is the next game, which one and its time control, then its colours or the
        CCT-8e colour choice due, or else what the series waits for. Each name in them passes
        `shorten`. The image fits a name to a third of the line, so both colours stay readable.
        """
        if not self.known:
            if self.tie in QUARTER_FINALS:
                return ("Waits for the preliminary (CCT-8c)", "")
            kind = "losers" if self.tie is Tie.THIRD_PLACE else "winners"
            feeders = " and ".join(name.split()[-1] for name in self.names)
            return (f"Waits for the {kind} of {feeders}", "")
        if self.winner is not None:
            return (f"✓ {shorten(self.name(self.winner))} {self._how()}", "")
        higher = shorten(self.names[0])
        status = self.status
        if status is None:
            return (
                f"Next: {_next_text(Phase.RAPID, 'day 1 game 1', self.controls.rapid)}",
                f"{higher} chooses White or Black (CCT-8e)",
            )
        if status.next_game is not None:
            slot = status.next_game
            control = slot.time_control
            white, black = shorten(self.name(slot.white)), shorten(self.name(slot.black))
            colours = f"White {white} · Black {black}"
            if control.draw_goes_to_black:
                colours += " · a draw goes to Black"
            return (f"Next: {_next_text(slot.phase, slot_text(slot), control)}", colours)
        if status.choice_required is ColourChoice.ARMAGEDDON:
            game = _next_text(Phase.ARMAGEDDON, "Armageddon", self.controls.armageddon)
        else:
            game = _next_text(Phase.BLITZ, "blitz game 1", self.controls.blitz)
        choice = (status.choice_required or ColourChoice.BLITZ_1).value
        return (f"Next: {game}", f"{higher} chooses the {choice} (CCT-8e)")

    def _how(self) -> str:
        """How the winner won: the series score, the blitz score, or the Armageddon."""
        status = self.status
        if self.walkover:
            return "by walkover" + (f" ({self.walkover_reason})" if self.walkover_reason else "")
        if status is None or status.decided_by is None:
            return "won"
        first = self.won(True)
        if status.decided_by is Phase.RAPID:
            mine, theirs = self.score_cells(first)[-1], self.score_cells(not first)[-1]
            return f"won the series {mine}–{theirs}"
        if status.decided_by is Phase.BLITZ and status.playoff is not None:
            high, low = status.playoff
            mine_f, theirs_f = (high, low) if first else (low, high)
            return f"won the blitz play-off {halves_text(mine_f)}–{halves_text(theirs_f)}"
        return "won the Armageddon"


def _next_text(phase: Phase, game: str, control: TimeControl) -> str:
    """The next game's line, such as `day 2 game 2 · rapid 15 min + 10 s` or `Armageddon · W 5 / B 4
    min + 0 s`.

    An Armageddon's name already names its time control.
    """
    clock = clock_text(control) if phase is Phase.ARMAGEDDON else str(control)
    return f"{game} · {clock}"


@dataclass(frozen=True, slots=True)
class BracketView:
    """A CCT-8c knock-out bracket: the event, its series in `ROUND_ORDER`, and the CCT-7 time
    controls it is played at.

    The 3rd-place match is there only when the event has one.
    """

    event: str
    series: tuple[SeriesView, ...]
    controls: TimeControls

    def get(self, tie: Tie) -> SeriesView:
        """The series of `tie`. Raises KeyError when the event has no such series."""
        for series in self.series:
            if series.tie is tie:
                return series
        raise KeyError(tie)


def bracket_view(
    event: str,
    bracket: Bracket,
    *,
    statuses: Mapping[Tie, ContestStatus] | None = None,
    awarded: Mapping[Tie, Hashable] | None = None,
    walkovers: Collection[Tie] = (),
    third_place_match: bool = True,
    controls: TimeControls = DEFAULT_TIME_CONTROLS,
    name_of: NameOf = str,
    walkover_reasons: Mapping[Tie, str] | None = None,
) -> BracketView:
    """CCT-8c: the bracket from preliminary places 1-8 and the series so far.

    Raises KnockoutError for a status or winner that does not fit the bracket, such as a series
    whose players are not known yet or a winner who did not play it.
    """
    statuses = dict(statuses or {})
    winners: dict[Tie, Hashable] = {
        tie: status.winner for tie, status in statuses.items() if status.winner is not None
    }
    for tie, winner in (awarded or {}).items():
        if winners.get(tie, winner) != winner:
            raise KnockoutError(f"{tie.value}: the games say {winners[tie]!r} won, not {winner!r}")
        winners[tie] = winner
    known = bracket.pairings(winners)
    series = []
    for tie in ROUND_ORDER:
        if tie is Tie.THIRD_PLACE and not third_place_match:
            continue
        pairing = known.get(tie)
        status = statuses.get(tie)
        if pairing is None:
            if status is not None or tie in walkovers:
                raise KnockoutError(f"{tie.value} has results before its players are known")
            view = SeriesView(
                tie, None, None, FEEDERS[tie], (None, None), None, None, False, controls
            )
            series.append(view)
            continue
        higher, lower = pairing.higher, pairing.lower
        slot = status.next_game if status is not None else None
        if slot is not None and {slot.white, slot.black} != {higher, lower}:
            raise KnockoutError(
                f"{tie.value} is {higher!r} v {lower!r}, not {slot.white!r} v {slot.black!r}"
            )
        series.append(
            SeriesView(
                tie,
                higher,
                lower,
                (name_of(higher), name_of(lower)),
                (bracket.place(higher), bracket.place(lower)),
                status,
                winners.get(tie),
                tie in walkovers,
                controls,
                (walkover_reasons or {}).get(tie),
            )
        )
    return BracketView(event, tuple(series), controls)


def played_event_bracket(event: PlayedEvent, *, name_of: NameOf = str) -> BracketView:
    """CCT-8c: the bracket of a finished event known by its winners, without scores."""
    return bracket_view(
        event.name,
        Bracket(event.order[:KNOCKOUT_PLACES]),
        awarded={r.tie: r.winner for r in event.knockout},
        walkovers=event.walkovers,
        third_place_match=event.third_place_match,
        name_of=name_of,
    )
