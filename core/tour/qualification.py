"""Who is qualified for the next tour event, and why, by CCT-3.

A Regular takes the top 8 of the tour standings. A Major takes the Regular winners since the
previous Major, then the top 8. The Finals take the Major winners, at most 3, then the standings up
to 8, then the 2 best-ranked Ambassadors not already in. A player who declines is replaced by the
next in the standings, and an Ambassador by the next Ambassador. Places left go to the organiser.
For the Finals these are wildcards into the places the lists cannot fill, see `finals_field`.
"""

from __future__ import annotations

import enum
import itertools
import math
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from core.tour.ranking import EVENT_SIZES, EventType, TourError, TourEvent, TourRank, tie_at_cut

Player = Hashable
TOP_OF_STANDINGS = 8
"""CCT-3: the top 8 of the tour standings qualify for the next event."""
FINALS_MERIT_PLACES = 8
"""CCT-3: Finals places for Major winners and then the tour standings."""
MAX_MAJOR_WINNERS = 3
"""CCT-3: at most 3 Finals places go to Major winners."""
FINALS_AMBASSADOR_PLACES = 2
"""CCT-3: the last Finals places go to the best-ranked Ambassadors not already qualified."""


def size_problems(sizes: Mapping[EventType, int], top: int) -> list[tuple[EventType, str]]:
    """CCT-3: the event sizes that cannot hold the players qualified by right, each with why.

    A Regular or a Major takes the top `top` of the tour standings. The Finals take 8 places by
    merit, Major winners then the standings, and the 2 best-ranked Ambassadors, 10 in all, whatever
    `top` says.
    """
    problems = []
    for kind in (EventType.REGULAR, EventType.MAJOR):
        if sizes[kind] < top:
            problems.append(
                (
                    kind,
                    f"a {kind.value.title()} event of {sizes[kind]} cannot hold the top {top} "
                    "of the tour standings, who qualify by right (CCT-3)",
                )
            )
    by_right = FINALS_MERIT_PLACES + FINALS_AMBASSADOR_PLACES
    if sizes[EventType.FINALS] < by_right:
        problems.append(
            (
                EventType.FINALS,
                f"Finals of {sizes[EventType.FINALS]} cannot hold the {by_right} players who "
                f"qualify by right ({FINALS_MERIT_PLACES} by merit and "
                f"{FINALS_AMBASSADOR_PLACES} Ambassadors, CCT-3)",
            )
        )
    return problems


ORGANISER_PLACES: dict[EventType, str] = {
    EventType.REGULAR: "wildcards (priority to Tour Ambassadors), invitations and popular votes",
    EventType.MAJOR: "wildcards",
    EventType.FINALS: "wildcards, into the places the lists cannot fill",
}
"""CCT-3: how the organiser fills the places left."""


class Reason(enum.Enum):
    """CCT-3: why a player is qualified."""

    REGULAR_WINNER = "won a Regular event since the previous Major"
    MAJOR_WINNER = "won a Major"
    TOUR_STANDINGS = "tour standings"
    REPLACEMENT = "next in the tour standings, replacing a player who declined or was expelled"
    AMBASSADOR = "best-ranked Tour Ambassador not otherwise qualified"


@dataclass(frozen=True, slots=True)
class Qualifier:
    """CCT-3: one qualification reason with its detail, such as the event won or the tour rank."""

    reason: Reason
    detail: str


@dataclass(frozen=True, slots=True)
class Qualified:
    """CCT-3: a qualified player with every reason that qualifies them."""

    player: Player
    reasons: tuple[Qualifier, ...]
    tour_rank: int | None


@dataclass(frozen=True, slots=True)
class QualificationList:
    """CCT-3: the qualified players in order, the places left for the organiser, and the open ties.

    The open ties are groups whose remaining tie decides a place, shown as "play-off required
    (organiser may forgo)".
    """

    event_type: EventType
    size: int
    qualified: tuple[Qualified, ...]
    places_left: int
    organiser_places: str
    playoffs_required: tuple[tuple[Player, ...], ...]


class _Builder:
    """Collects qualified players in order, merging reasons for a player qualified twice."""

    def __init__(self, ranking: Sequence[TourRank], declined: Collection[Player]) -> None:
        self.ranking = ranking
        self.rank = {r.player: r.rank for r in ranking}
        self.declined = set(declined)
        self.reasons: dict[Player, list[Qualifier]] = {}
        self.playoffs: list[tuple[Player, ...]] = []

    def add(self, player: Player, reason: Reason, detail: str) -> None:
        """Qualifies `player` for `reason`. A second reason is added to the first."""
        self.reasons.setdefault(player, []).append(Qualifier(reason, detail))

    def walk(
        self, count: int, pool: Sequence[TourRank], skip: Collection[Player]
    ) -> list[TourRank]:
        """Takes the first `count` of `pool` that are neither in `skip` nor declined.

        A tie at the cut is kept as a candidate play-off, which `result` checks.
        """
        eligible = [r for r in pool if r.player not in skip and r.player not in self.declined]
        taken = eligible[:count]
        group = tie_at_cut(eligible, len(taken)) if count > 0 else ()
        if group:
            self.playoffs.append(group)
        return taken

    def result(
        self,
        event_type: EventType,
        size: int,
        rebuild: Callable[[Sequence[TourRank]], Collection[Player]],
    ) -> QualificationList:
        """The finished list. Refuses more players by right than the event has places.

        `rebuild` lists who qualifies from a reordered ranking. A tie found at a cut is flagged only
        if ordering its players differently changes who qualifies, by CCT-6.
        """
        qualified = tuple(
            Qualified(p, tuple(reasons), self.rank.get(p)) for p, reasons in self.reasons.items()
        )
        if len(qualified) > size:
            raise TourError(
                f"{len(qualified)} players qualify by right for a {event_type.value} event of "
                f"{size}"
            )
        inside = set(self.reasons)
        playoffs = tuple(
            group
            for group in dict.fromkeys(self.playoffs)
            if _decides(group, self.ranking, lambda order: set(rebuild(order)) != inside)
        )
        return QualificationList(
            event_type=event_type,
            size=size,
            qualified=qualified,
            places_left=size - len(qualified),
            organiser_places=ORGANISER_PLACES[event_type],
            playoffs_required=playoffs,
        )


def _decliners_last(
    ranking: Sequence[TourRank], declined: Collection[Player], winners: Collection[Player] = ()
) -> list[TourRank]:
    """The ranking with decliners listed after the players tied with them, and declining event
    winners last.

    How a tie happens to be listed must not decide whether a decliner held a standings place and so
    is replaced. *Interpretation:* a decliner tied across the top-8 cut held no standings place, and
    a declining winner there held an extra place.
    """
    out, won = set(declined), set(winners)
    return sorted(ranking, key=lambda r: (r.rank, r.player in out, r.player in out & won))


MAX_ORDERS_TRIED = 5040
"""CCT-6: a tied group of up to 7 players is tried in every order.

A larger one at a cut is flagged without trying, since it is then all but certain to decide a place.
"""


def _decides(
    group: Sequence[Player],
    ranking: Sequence[TourRank],
    changes: Callable[[Sequence[TourRank]], bool],
) -> bool:
    """CCT-6: whether another resolution of the tie among `group` `changes` who qualifies.

    Each resolution permutes the group's entries in their own slots of the ranking. Returns True for
    a group too large to try every order.
    """
    members = set(group)
    slots = [i for i, r in enumerate(ranking) if r.player in members]
    entries = [ranking[i] for i in slots]
    if math.factorial(len(entries)) > MAX_ORDERS_TRIED:
        return True
    for order in itertools.permutations(entries):
        moved = list(ranking)
        for index, entry in zip(slots, order, strict=True):
            moved[index] = entry
        if changes(moved):
            return True
    return False


def regular_winners_since_last_major(events: Sequence[TourEvent]) -> list[tuple[str, Player]]:
    """CCT-3: the (event, winner) pairs of the Regular events played after the last Major, in
    order.
    """
    last_major = max((i for i, e in enumerate(events) if e.type is EventType.MAJOR), default=-1)
    return [
        (e.name, e.winner)
        for e in events[last_major + 1 :]
        if e.type is EventType.REGULAR and e.winner is not None
    ]


def major_winners(events: Sequence[TourEvent]) -> list[tuple[str, Player]]:
    """CCT-3: the (event, winner) pairs of every Major, in order."""
    return [
        (e.name, e.winner) for e in events if e.type is EventType.MAJOR and e.winner is not None
    ]


def _rank_text(entry: TourRank) -> str:
    return f"tour rank {entry.rank}" + (" (shared)" if entry.tied else "")


def qualify_for_event(
    event_type: EventType,
    ranking: Sequence[TourRank],
    winners: Sequence[tuple[str, Player]] = (),
    declined: Collection[Player] = (),
    size: int | None = None,
    top: int = TOP_OF_STANDINGS,
) -> QualificationList:
    """CCT-3: who is qualified for the next Regular or Major event.

    `top` is the number of places taken from the tour standings, an event setting. `winners` are the
    (event name, winner) pairs of the Regular events since the previous Major and are used for a
    Major only. The top 8 are taken by position in the ranking, and they may overlap with the
    winners. A decliner's place goes to the next in the standings.
    """
    if event_type is EventType.FINALS:
        raise TourError("use qualify_for_finals for the Finals (CCT-3)")
    if event_type is EventType.REGULAR and winners:
        raise TourError("Regular events have no places for event winners (CCT-3)")
    size = EVENT_SIZES[event_type] if size is None else size

    def rebuild(order: Sequence[TourRank]) -> Collection[Player]:
        return _event_builder(order, winners, declined, top).reasons.keys()

    return _event_builder(ranking, winners, declined, top).result(event_type, size, rebuild)


def _event_builder(
    ranking: Sequence[TourRank],
    winners: Sequence[tuple[str, Player]],
    declined: Collection[Player],
    top: int = TOP_OF_STANDINGS,
) -> _Builder:
    """CCT-3: Regular winners since the last Major, then the top 8, as `qualify_for_event` gives
    them.
    """
    build = _Builder(_decliners_last(ranking, declined, [w for _, w in winners]), declined)
    ranking = build.ranking
    # Each player qualified by right who declines frees exactly one place (however many
    # rights they held), so the list keeps as many players as if no one had declined.
    by_right = {w for _, w in winners} | {r.player for r in ranking[:top]}
    # A tie across that top-8 cut decides how many places decliners free: a candidate too.
    nominal = [p for p in tie_at_cut(ranking, top) if p not in build.declined]
    if len(nominal) > 1:
        build.playoffs.append(tuple(nominal))
    for event, winner in winners:
        if winner not in build.declined:
            build.add(winner, Reason.REGULAR_WINNER, f"won {event}")
    for entry in build.walk(top, ranking, skip=()):
        position = ranking.index(entry) + 1
        reason = Reason.TOUR_STANDINGS if position <= top else Reason.REPLACEMENT
        build.add(entry.player, reason, _rank_text(entry))
    missing = max(0, len(by_right) - len(build.reasons))
    for entry in build.walk(missing, ranking, skip=build.reasons.keys()):
        build.add(entry.player, Reason.REPLACEMENT, _rank_text(entry))
    return build


def qualify_for_finals(
    ranking: Sequence[TourRank],
    major_winners: Sequence[tuple[str, Player]],
    ambassadors: Collection[Player],
    declined: Collection[Player] = (),
    size: int | None = None,
) -> QualificationList:
    """CCT-3: the Finals.

    The Major winners come first, at most 3, then the tour standings up to 8 places, then the 2
    best-ranked Ambassadors not already qualified. A declining Ambassador is replaced by the next
    Ambassador.
    """
    size = EVENT_SIZES[EventType.FINALS] if size is None else size
    if len(major_winners) > MAX_MAJOR_WINNERS:
        raise TourError(
            f"at most {MAX_MAJOR_WINNERS} Major winners qualify for the Finals, "
            f"not {len(major_winners)}"
        )

    def rebuild(order: Sequence[TourRank]) -> Collection[Player]:
        return _finals_builder(order, major_winners, ambassadors, declined).reasons.keys()

    build = _finals_builder(ranking, major_winners, ambassadors, declined)
    return build.result(EventType.FINALS, size, rebuild)


def _finals_builder(
    ranking: Sequence[TourRank],
    major_winners: Sequence[tuple[str, Player]],
    ambassadors: Collection[Player],
    declined: Collection[Player],
) -> _Builder:
    """CCT-3: Major winners, standings up to 8, then Ambassadors, as `qualify_for_finals` gives
    them.
    """
    build = _Builder(_decliners_last(ranking, declined), declined)
    ranking = build.ranking
    for event, winner in major_winners:
        if winner not in build.declined:
            build.add(winner, Reason.MAJOR_WINNER, f"won {event}")
    needed = FINALS_MERIT_PLACES - len(build.reasons)
    for entry in build.walk(needed, ranking, skip=build.reasons.keys()):
        build.add(entry.player, Reason.TOUR_STANDINGS, _rank_text(entry))
    pool = [r for r in ranking if r.player in set(ambassadors)]
    for entry in build.walk(FINALS_AMBASSADOR_PLACES, pool, skip=build.reasons.keys()):
        build.add(entry.player, Reason.AMBASSADOR, _rank_text(entry))
    return build


class FinalsFieldError(TourError):
    """CCT-3: a decline, a wildcard or an entry the Finals field does not allow."""


@dataclass(frozen=True, slots=True)
class Decline:
    """CCT-3: a player offered a Finals place who declined it, and who was offered it next.

    Nobody is offered it when the lists cannot fill it, and the place is then open for a wildcard.
    """

    player: Player
    replaced_by: tuple[Player, ...]


@dataclass(frozen=True, slots=True)
class FinalsField:
    """CCT-3 *Interpretation*: the Finals field as it forms. `listed` is the qualification
    list once the declines are applied, `declines` says where each declined place went,
    and `wildcards` are the organiser's players in the places the lists cannot fill."""

    listed: QualificationList
    declines: tuple[Decline, ...]
    wildcards: tuple[Player, ...]

    @property
    def open_places(self) -> int:
        """CCT-3: the places neither a qualifier nor a wildcard holds."""
        return self.listed.places_left - len(self.wildcards)

    @property
    def declined(self) -> tuple[Player, ...]:
        """The players who declined, in the order they did."""
        return tuple(d.player for d in self.declines)

    def offered(self, player: Player) -> bool:
        """CCT-3: whether `player` is offered a place, being qualified and not declined."""
        return any(q.player == player for q in self.listed.qualified)

    def taken(self) -> str:
        """How the places are held, as a refusal says it.

        Examples are "10 of 10 places are taken by qualifiers" and "by 8 qualifiers and 2
        wildcards".
        """
        qualifiers, wildcards = len(self.listed.qualified), len(self.wildcards)
        held = qualifiers + wildcards
        by = "qualifiers"
        if wildcards:
            by = f"{qualifiers} qualifiers and {wildcards} wildcard{'s' if wildcards != 1 else ''}"
        return f"{held} of {self.listed.size} places are taken by {by}"


def finals_field(
    ranking: Sequence[TourRank],
    major_winners: Sequence[tuple[str, Player]],
    ambassadors: Collection[Player],
    declined: Sequence[Player] = (),
    wildcards: Sequence[Player] = (),
    expelled: Collection[Player] = (),
    size: int | None = None,
) -> FinalsField:
    """CCT-3 *Interpretation*: the Finals field from the list, the declines and the wildcards.

    The list comes from `qualify_for_finals`, the declines in the order they were recorded, and the
    wildcards are the players entered as such. Each decline's place goes to the next in the tour
    standings, and an Ambassador place to the next Ambassador. That is the player the list gains
    when the decline is applied. A player expelled by CCT-9 is out as a decliner is, without being
    one. A wildcard who is offered a place after all holds it as a qualifier, not as a wildcard.
    """
    out = list(dict.fromkeys(expelled))
    before = qualify_for_finals(ranking, major_winners, ambassadors, out, size)
    declines = []
    for player in dict.fromkeys(declined):
        out.append(player)
        after = qualify_for_finals(ranking, major_winners, ambassadors, out, size)
        had = {q.player for q in before.qualified}
        gained = tuple(q.player for q in after.qualified if q.player not in had)
        declines.append(Decline(player, gained))
        before = after
    offered = {q.player for q in before.qualified}
    kept = tuple(p for p in dict.fromkeys(wildcards) if p not in offered)
    return FinalsField(before, tuple(declines), kept)


def check_decline(
    field: FinalsField,
    player: Player,
    entered: Collection[Player] = (),
    name: Callable[[Player], str] = str,
) -> None:
    """CCT-3: only a player offered a Finals place can decline it, and not once entered in the
    Finals.

    Players entered in the Finals are taken out first.
    """
    if player in field.declined:
        raise FinalsFieldError(f"{name(player)} declined the Finals already")
    if not field.offered(player):
        raise FinalsFieldError(
            f"{name(player)} is not offered a Finals place, so there is nothing to decline"
        )
    if player in entered:
        raise FinalsFieldError(
            f"{name(player)} is entered in the Finals: take them out before recording their decline"
        )


def check_entry(
    field: FinalsField,
    player: Player,
    *,
    wildcard: bool,
    name: Callable[[Player], str] = str,
) -> None:
    """CCT-3 *Interpretation*: a player enters the Finals when offered a place or as a wildcard.

    A player is offered a place when qualified and not declined. A wildcard takes a place the lists
    cannot fill. A decliner enters only once the decline is withdrawn.
    """
    if player in field.declined:
        raise FinalsFieldError(
            f"{name(player)} declined the Finals: they cannot be entered unless the decline "
            "is withdrawn"
        )
    offered = field.offered(player)
    if wildcard and offered:
        raise FinalsFieldError(
            f"{name(player)} is qualified for the Finals: they take their place without a wildcard"
        )
    if offered:
        return
    if field.open_places <= 0:
        if wildcard:
            raise FinalsFieldError(f"no Finals place is open for a wildcard: {field.taken()}")
        raise FinalsFieldError(
            f"{name(player)} is not qualified for the Finals and no place is open for a "
            f"wildcard: {field.taken()}"
        )
    if not wildcard:
        into = "the open place"
        if field.open_places > 1:
            into = f"one of the {field.open_places} open places"
        raise FinalsFieldError(
            f"{name(player)} is not qualified for the Finals: enter them as a wildcard into {into}"
        )


def field_problem(
    field: FinalsField,
    entered: Sequence[Player],
    wildcards: Collection[Player],
    name: Callable[[Player], str] = str,
) -> str | None:
    """CCT-3 *Interpretation*: what makes the players `entered` in the Finals a field the rules do
    not give, or None.

    Those in `wildcards` entered as wildcards. The field is checked again whenever the list or the
    declines change under the entries: after a later event, an undone decline or the draw.
    """
    for player in entered:
        if player in field.declined:
            return (
                f"{name(player)} declined the Finals: they cannot be entered unless the "
                "decline is withdrawn"
            )
        if not field.offered(player) and player not in wildcards:
            return f"{name(player)} is not qualified for the Finals and is not a wildcard"
    if field.open_places < 0:
        count = len(field.wildcards)
        return (
            f"{count} wildcard{'s' if count != 1 else ''} for "
            f"{field.listed.places_left} open place{'s' if field.listed.places_left != 1 else ''}: "
            f"{len(field.listed.qualified)} of {field.listed.size} places go to qualifiers"
        )
    return None
