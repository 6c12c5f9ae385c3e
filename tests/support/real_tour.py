"""The real Meltwater Champions Chess Tour 2020-21 (tests/fixtures/cct2021): its data read,
checked against the knock-out rules, and turned into a tour file or a replay script.

A knock-out day is a list of the first-named (higher-ranked) player's points per game. Where
the data give only a day's score, the order of its games is rebuilt: the first order, in a
fixed preference, that ends exactly when the real match ended (CCT-8d: at 2½, or as soon as
the series winner was certain). Nothing here invents a result the data do not hold, except
the preliminaries of events without a crosstable, which `synthetic_preliminary` marks.

Run `python3 -m tests.support.real_tour` to rewrite tests/scripts/tour/story_real_cct_2021.jsonl.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import itertools
import json
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from discord import app_commands

from bot.app.arbiter import ArbiterBot
from core.berger import berger_table
from core.tour.appeals import DEFAULT_APPEAL_ZONE
from core.tour.calendar import (
    event_date,
    finals_day,
    knockout_day,
    preliminary_day,
    session_start,
)
from core.tour.knockout import Tie
from core.tour.rules import SESSION_START
from tests.support.command_world import config_for
from tests.support.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "cct2021"
STORY = ROOT / "tests" / "scripts" / "tour" / "story_real_cct_2021.jsonl"
TOUR = "Champions Chess Tour 2020-21"
HALF = Fraction(1, 2)
POINT = {"1": Fraction(1), "½": HALF, "0": Fraction(0)}
RESULT = {Fraction(1): "1-0", HALF: "½-½", Fraction(0): "0-1"}
ROUNDS = ("QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F", "3rd")
TIES = dict(zip(ROUNDS, Tie, strict=True))
START = dt.datetime(2020, 11, 20, 8, tzinfo=dt.UTC)
"""The script's first instant, before the first event."""

Event = dict[str, Any]


class DataError(ValueError):
    """The data break a knock-out rule or contradict themselves."""


@dataclass(frozen=True)
class Features:
    """Commands the story may use beyond what every branch has: the per-event points table
    (`/event create points: scoring:`), the walkover (`/series award`) and the Finals field
    (`/finals decline`, `/event player-add wildcard:`)."""

    points_option: bool = True
    award: bool = True
    finals_field: bool = True


ALL = Features()
TODAY = Features(points_option=False, award=False, finals_field=False)


@functools.cache
def bot_features() -> Features:
    """Which of the `Features` commands the bot of this checkout has (its real command tree),
    so the checks that can run today run with what is there."""

    async def options() -> dict[str, set[str]]:
        with tempfile.TemporaryDirectory() as folder:
            bot = ArbiterBot(config_for(Path(folder) / "tree.db"), run_jobs=False)
            async with bot:
                await bot.setup_hook()
                return {
                    c.qualified_name: {p.name for p in c.parameters}
                    for c in bot.tree.walk_commands()
                    if isinstance(c, app_commands.Command)
                }

    tree = asyncio.run(options())
    return Features(
        points_option="points" in tree.get("event create", set()),
        award="series award" in tree,
        finals_field="finals decline" in tree and "wildcard" in tree.get("event player-add", set()),
    )


def load_events() -> list[Event]:
    """The ten events in tour order."""
    events = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.glob("*.json"))]
    return sorted(events, key=lambda e: int(e["index"]))


def score_of(text: str) -> tuple[Fraction, Fraction]:
    """`"2.5-1.5"` as exact points (first-named player's view)."""
    a, b = text.split("-")
    return Fraction(a), Fraction(b)


def games_of(text: str) -> list[Fraction]:
    """`"1 ½ 0"` as the first-named player's points per game."""
    return [POINT[cell] for cell in text.split()]


def _ended(points: Sequence[Fraction], match_no: int, day_one: int) -> bool:
    """CCT-8d: the match is over after these games. `day_one` is +1/-1/0 for a day-1 match
    won by the first/second player or drawn (0 also on day 1 itself)."""
    a = sum(points, Fraction(0))
    b = len(points) - a
    if a >= Fraction(5, 2) or b >= Fraction(5, 2) or len(points) == 4:
        return True
    if match_no == 2 and day_one > 0 and a >= 2:
        return True
    return match_no == 2 and day_one < 0 and b >= 2


def check_day(points: Sequence[Fraction], match_no: int, day_one: int) -> None:
    """CCT-8d: a day's games end exactly when the match (or series) was decided."""
    for n in range(1, len(points)):
        if _ended(points[:n], match_no, day_one):
            raise DataError(f"match {match_no} was over after {n} games: {points}")
    if not _ended(points, match_no, day_one):
        raise DataError(f"match {match_no} was not over after {points}")


def rebuild_day(score: str, match_no: int, day_one: int) -> list[Fraction]:
    """A day's games when only its score is known: the first order (draws first, then the
    first player's wins) that ends exactly as the real match did."""
    a, b = score_of(score)
    count = int(a + b)
    for points in itertools.product((HALF, Fraction(1), Fraction(0)), repeat=count):
        if sum(points, Fraction(0)) != a:
            continue
        try:
            check_day(points, match_no, day_one)
        except DataError:
            continue
        return list(points)
    raise DataError(f"no game order gives {score} in match {match_no}")


@dataclass(frozen=True)
class Series:
    """One knock-out round as played: both days' games, the play-off, the winner."""

    round: str
    a: str
    b: str
    winner: str
    days: tuple[tuple[Fraction, ...], ...]
    rebuilt: tuple[bool, ...]
    blitz: tuple[Fraction, ...]
    blitz_first_white: str
    armageddon: tuple[str, str, str] | None
    walkover: bool


def _day_games(day: Mapping[str, Any], match_no: int, day_one: int) -> tuple[list[Fraction], bool]:
    """A day's games and whether their order is rebuilt (not read)."""
    if day["score"] is None:
        recon: Mapping[str, str] = day["reconstruction"]
        score, points, rebuilt = recon["score"], games_of(recon["games"]), True
    elif "games" in day:
        score, points = day["score"], games_of(day["games"])
        rebuilt = day.get("games_source") == "reconstructed"
    else:
        score, points, rebuilt = day["score"], rebuild_day(day["score"], match_no, day_one), True
    check_day(points, match_no, day_one)
    if score_of(score) != (sum(points, Fraction(0)), len(points) - sum(points, Fraction(0))):
        raise DataError(f"{score} is not the sum of {day}")
    return points, rebuilt


def series_of(k: Mapping[str, Any]) -> Series:
    """CCT-8d: a knock-out round from its data, checked: each day ends when it really ended,
    the play-off is held exactly when the matches are split or drawn, the winner follows."""
    a, b = k["a"], k["b"]
    if k.get("walkover"):
        return Series(k["round"], a, b, k["winner"], (), (), (), "a", None, True)
    days: list[tuple[Fraction, ...]] = []
    rebuilt: list[bool] = []
    day_one = 0
    for match_no, day in enumerate(k["days"], start=1):
        points, again = _day_games(day, match_no, day_one)
        days.append(tuple(points))
        rebuilt.append(again)
        total = sum(points, Fraction(0))
        if match_no == 1:
            day_one = (total > 2) - (total < 2)
    # CCT-8d: a match won counts +1, lost -1, drawn 0; a day-2 match the day-1 winner stopped
    # at 2 points counts 0, so the day-1 win decides. A split or twice drawn series (0) goes
    # to the play-off.
    outcome = sum((sum(d, Fraction(0)) > 2) - (sum(d, Fraction(0)) < 2) for d in days)
    winner_by_days: str | None = a if outcome > 0 else b if outcome < 0 else None
    playoff = k.get("playoff")
    if winner_by_days is not None and playoff is not None:
        raise DataError(f"{k['round']}: a play-off after a decided series")
    if winner_by_days is None and playoff is None:
        raise DataError(f"{k['round']}: split or drawn matches need a play-off")
    blitz: tuple[Fraction, ...] = ()
    armageddon = None
    first_white = "a"
    if playoff is not None:
        first_white = playoff.get("blitz_first_white", "a")
        ba, bb = score_of(playoff["blitz"])
        if "blitz_games" in playoff:
            blitz = tuple(games_of(playoff["blitz_games"]))
        else:
            blitz = tuple(
                {
                    Fraction(2): (Fraction(1), Fraction(1)),
                    Fraction(0): (Fraction(0), Fraction(0)),
                    Fraction(3, 2): (Fraction(1), HALF),
                    HALF: (Fraction(0), HALF),
                    Fraction(1): (HALF, HALF),
                }[ba]
            )
        if sum(blitz, Fraction(0)) != ba or len(blitz) != 2 or ba + bb != 2:
            raise DataError(f"{k['round']}: blitz {playoff['blitz']} v {blitz}")
        if ba == 1:
            arm = playoff.get("armageddon") or {"winner": "a" if k["winner"] == a else "b"}
            armageddon = (
                arm["winner"],
                arm.get("winner_colour") or "white",
                arm.get("result") or "",
            )
            winner_by_days = a if arm["winner"] == "a" else b
        else:
            winner_by_days = a if ba > 1 else b
    if winner_by_days != k["winner"]:
        raise DataError(f"{k['round']}: the games give {winner_by_days}, the data {k['winner']}")
    return Series(
        k["round"],
        a,
        b,
        k["winner"],
        tuple(days),
        tuple(rebuilt),
        blitz,
        first_white,
        armageddon,
        False,
    )


# ----------------------------------------------------------------------------- tour points


def points_table(text: str) -> dict[str, Any]:
    """The `/event create points:` line as the tour file's table."""
    table: dict[str, Any] = {"knockout": {}}
    for part in text.split(";"):
        words = part.split()
        if words[0] == "prelim":
            table["preliminary"] = [int(w) for w in words[1:]]
        else:
            table["knockout"][words[0]] = int(words[1])
    return table


def preliminary_order(event: Event) -> list[str]:
    """The published preliminary order, then the players whose places were not found."""
    pre = event["preliminary"]
    return list(pre["published_order"]) + list(pre.get("unordered_rest", []))


def expected_tour_points(event: Event) -> dict[str, int]:
    """CCT-6: each player's tour points from the published preliminary order and knock-out
    result, by the event's own table."""
    table = points_table(event["points"])
    order = preliminary_order(event)
    got = {p: (table["preliminary"][i] if i < 8 else 0) for i, p in enumerate(order)}
    ko = {k["round"]: k for k in event["knockout"]}
    loser = {r: (k["b"] if k["winner"] == k["a"] else k["a"]) for r, k in ko.items()}
    stage: dict[str, str] = {}
    for r in ("QF1", "QF2", "QF3", "QF4"):
        stage[loser[r]] = "quarter-final"
    if "3rd" in ko:
        stage[ko["3rd"]["winner"]] = "3rd"
        stage[loser["3rd"]] = "4th"
    else:
        stage[loser["SF1"]] = stage[loser["SF2"]] = "semi-final"
    stage[ko["F"]["winner"]] = "winner"
    stage[loser["F"]] = "runner-up"
    for player, where in stage.items():
        got[player] += table["knockout"][where]
    return got


def expected_placings(event: Event) -> list[tuple[int, str]]:
    """CCT-8c: the published top 8 (a shared place in preliminary order), then the rest of the
    preliminary order (places not found left out)."""
    known = event["preliminary"]["published_order"]
    placed = sorted(
        ((int(p), name) for p, name in event["published"]["placings"]),
        key=lambda pn: (pn[0], known.index(pn[1])),
    )
    top = {name for _, name in placed}
    rest = [(i + 1, name) for i, name in enumerate(known) if name not in top]
    return placed + rest


def expected_standings(events: Sequence[Event]) -> dict[str, int]:
    """CCT-6: tour totals after these events."""
    totals: dict[str, int] = {}
    for event in events:
        if event["type"] == "finals":
            continue
        for player, pts in expected_tour_points(event).items():
            totals[player] = totals.get(player, 0) + pts
    return totals


# ------------------------------------------------------------------------------ tour file


def stopped_early(s: Series) -> bool:
    """CCT-8d: a day-2 match ended before 4 games with nobody at 2½ (the series was decided)."""
    return (
        len(s.days) == 2
        and len(s.days[1]) < 4
        and max(sum(s.days[1], Fraction(0)), len(s.days[1]) - sum(s.days[1], Fraction(0)))
        < Fraction(5, 2)
    )


def tour_file(
    events: Sequence[Event], *, early_stops: bool = True, finals_field: bool = False
) -> dict[str, Any]:
    """The season as a tour file (docs/tour-file.md): preliminary order, knock-out
    days and play-offs, the Aimchess walkover, each event's table, the Finals matches. With
    `early_stops` false a series whose day 2 stopped early is given by its winner only, for
    readers that do not know the series-end rule of CCT-8d; with `finals_field` the Finals
    carry who declined and the wildcards (CCT-3)."""
    out: list[dict[str, Any]] = []
    finals: dict[str, Any] | None = None
    for event in events:
        if event["type"] == "finals":
            finals = {"players": draw_order(event), "matches": event["matches"]}
            if finals_field:
                q = event["qualification"]
                finals["declined"] = [{"player": p} for p in q["declined"]]
                finals["wildcards"] = [p for p in q["wildcards"] if p not in replacements(event)]
            continue
        knockout = []
        for k in event["knockout"]:
            s = series_of(k)
            entry: dict[str, Any] = {"round": s.round, "a": s.a, "b": s.b, "winner": s.winner}
            if s.walkover:
                entry["walkover"] = True
            elif stopped_early(s) and not early_stops:
                pass
            else:
                entry["days"] = [_score(d) for d in s.days]
                if s.blitz:
                    entry["playoff"] = {"blitz": _score(s.blitz)}
                    if s.armageddon:
                        entry["playoff"]["armageddon"] = s.armageddon[0]
            knockout.append(entry)
        out.append(
            {
                "name": event["event"],
                "type": event["type"],
                "start": event["start"],
                "end": event["end"],
                "points": points_table(event["points"]),
                "third_place_match": event["third_place_match"],
                "preliminary": {"order": preliminary_order(event)},
                "knockout": knockout,
            }
        )
    document: dict[str, Any] = {"name": TOUR, "events": out}
    if finals is not None:
        document["finals"] = finals
    return document


def _score(points: Sequence[Fraction]) -> str:
    a = sum(points, Fraction(0))
    return f"{_num(a)}-{_num(len(points) - a)}"


def _num(x: Fraction) -> str:
    return str(int(x)) if x.denominator == 1 else f"{float(x):g}"


# -------------------------------------------------------------------------- replay script


def member(name: str) -> str:
    """A player's Discord member name in the script."""
    return "".join(c for c in name.casefold() if c.isalnum())


class Script:
    """JSON Lines of a replay script (docs/replay.md), with the clock it has reached."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.now = START

    def session(self, start: str, day: int) -> None:
        """Move the clock to the session of the event's day `day`, unless it is there: a game
        is recorded once its session has started (CCT-9)."""
        date = event_date(dt.date.fromisoformat(start), day)
        instant = session_start(date, SESSION_START, DEFAULT_APPEAL_ZONE).astimezone(dt.UTC)
        if instant > self.now:
            self.now = instant
            self.step(at=instant.isoformat().replace("+00:00", "Z"))

    def comment(self, text: str) -> None:
        self.lines.extend(f"// {line}".rstrip() for line in text.splitlines())

    def step(self, **fields: Any) -> None:
        self.lines.append(json.dumps(fields, ensure_ascii=False))

    def command(self, who: str, command: str, **options: Any) -> None:
        self.step(**{"as": who, "command": command, "options": options})

    def report(self, event: str, game: str, result: str) -> None:
        """An arbiter's report: final on entry (CCT-9)."""
        self.command("arbi", "game report", event=event, game=game, result=result)


def synthetic_preliminary(order: Sequence[str]) -> dict[frozenset[str], str]:
    """NOT REAL: a preliminary table that reproduces a published order when no crosstable was
    found: every player beats everyone placed below (CCT-8b then ranks by points alone)."""
    return {
        frozenset((order[i], order[j])): order[i]
        for i in range(len(order))
        for j in range(i + 1, len(order))
    }


def _prelim_games(event: Event) -> Iterator[tuple[int, str, str, str]]:
    """(round, White, Black, result) of the preliminary under the script's pairing numbers."""
    pre = event["preliminary"]
    if pre.get("games"):
        for g in pre["games"]:
            yield g["round"], g["white"], g["black"], g["result"]
        return
    order = draw_order(event)
    if pre.get("pairwise"):
        result = {(a, b): r for a, b, r in pre["pairwise"]}
    else:
        winners = synthetic_preliminary(preliminary_order(event))
        result = {}
        for pair, w in winners.items():
            x, y = sorted(pair)
            result[(x, y)] = "1-0" if w == x else "0-1"
    table = berger_table(len(order))
    for r, boards in enumerate(table.rounds, start=1):
        for p in boards:
            white, black = order[p.white - 1], order[p.black - 1]
            if (white, black) in result:
                res = result[(white, black)]
            else:
                res = {"1-0": "0-1", "0-1": "1-0", "½-½": "½-½"}[result[(black, white)]]
            yield r, white, black, res


def draw_order(event: Event) -> list[str]:
    """The pairing numbers for `/event draw order:`: the real ones where known, else the
    preliminary order (not the real numbers)."""
    numbers = event.get("pairing_numbers")
    if numbers:
        return [name for name, _ in sorted(numbers.items(), key=lambda x: x[1])]
    return preliminary_order(event)


def _white_result(a_points: Fraction, a_white: bool) -> str:
    return RESULT[a_points if a_white else 1 - a_points]


def _series_steps(script: Script, name: str, start: str, s: Series, features: Features) -> None:
    if s.walkover:
        script.comment(f"{s.round}: awarded to {s.winner} without play (CCT-9).")
        if features.award:
            script.command(
                "arbi",
                "series award",
                event=name,
                round=s.round,
                winner=s.winner,
                reason="illness",
                note="The opponent withdrew through illness (ChessBase).",
            )
            script.step(**{"as": "arbi", "click": {"message": "last", "button": "Confirm"}})
            script.step(expect={"error": None})
        return
    notes = [f"day {i + 1} order rebuilt from its score" for i, r in enumerate(s.rebuilt) if r]
    script.comment(f"{s.round}: {s.a} v {s.b}" + (f" ({'; '.join(notes)})" if notes else ""))
    script.command("arbi", "series choose", event=name, round=s.round, colour="white")
    tie = TIES[s.round]
    for match_no, games in enumerate(s.days, start=1):
        script.session(start, knockout_day(tie, match_no))
        for game_no, pts in enumerate(games, start=1):
            a_white = (game_no % 2 == 1) == (match_no == 1)
            script.report(
                name, f"{s.round} day {match_no} game {game_no}", _white_result(pts, a_white)
            )
    if s.blitz or s.armageddon:
        script.session(start, knockout_day(tie, None))
    if s.blitz:
        a_first = s.blitz_first_white == "a"
        script.command(
            "arbi",
            "series choose",
            event=name,
            round=s.round,
            colour="white" if a_first else "black",
        )
        for game_no, pts in enumerate(s.blitz, start=1):
            a_white = a_first == (game_no == 1)
            script.report(name, f"{s.round} blitz {game_no}", _white_result(pts, a_white))
    if s.armageddon:
        who, colour, result = s.armageddon
        a_colour = colour if who == "a" else ("black" if colour == "white" else "white")
        script.command("arbi", "series choose", event=name, round=s.round, colour=a_colour)
        winner_white = colour == "white"
        script.report(name, f"{s.round} armageddon", result or ("1-0" if winner_white else "0-1"))
    script.step(expect={"contains": f"{s.round}: {s.winner} wins the series"})


def _finals_steps(script: Script, event: Event, features: Features, *, create: bool = True) -> None:
    name = event["event"]
    script.comment(
        "The Finals (CCT-8f, CCT-3): Nepomniachtchi, qualified on tour points, declined; three\n"
        "wildcards played. The pairing numbers are inferred from the round reports (see the\n"
        "data); each match's winner and whether it was won in the rapid games or the tie-break\n"
        "are real, the game scores are rebuilt except where the data hold them."
    )
    if create:
        script.command(
            "hq", "event create", tour=TOUR, name=name, type="finals", start=event["start"]
        )
    q = event["qualification"]
    players = list(event["players"])
    if features.finals_field:
        stand_ins = replacements(event)
        for player in q["declined"]:
            script.command(
                "hq",
                "finals decline",
                event=name,
                player=player,
                note="A scheduling clash (chess24).",
            )
            script.step(**{"as": "hq", "click": {"message": "last", "button": "Confirm"}})
            script.step(expect={"error": None})
        script.comment(
            "The reports call all three wildcards; under CCT-3 the declined place goes to\n"
            f"the next in the tour standings ({', '.join(stand_ins)}), the open places to\n"
            "wildcards."
        )
        for player in players:
            if player in q["wildcards"] and player not in stand_ins:
                script.command("hq", "event player-add", event=name, player=player, wildcard=True)
            else:
                script.command("hq", "event player-add", event=name, player=player)
    else:
        for player in players:
            script.command("hq", "event player-add", event=name, player=player)
    order = draw_order(event)
    script.command("hq", "event draw", event=name, order=", ".join(order))
    script.step(**{"as": "hq", "click": {"message": "last", "button": "Confirm"}})
    known = {frozenset((m["a"], m["b"])): m for m in event.get("known_scores", [])}
    by_pair = {frozenset((m["a"], m["b"])): m for m in event["matches"]}
    table = berger_table(len(order))
    for r, boards in enumerate(table.rounds, start=1):
        script.session(event["start"], finals_day(r, len(table.rounds)))
        for p in boards:
            white, black = order[p.white - 1], order[p.black - 1]
            pair = frozenset((white, black))
            m, real = by_pair[pair], known.get(pair)
            contest = f"R{r} {white} v {black}"
            if real is not None and real.get("round", r) != r:
                raise DataError(f"{contest}: the data put it in round {real['round']}")
            if m["decided"] == "rapid":
                games = _finals_rapid(real, white, m["winner"] == white)
                for g, pts in enumerate(games, start=1):
                    script.report(name, f"{contest} game {g}", _white_result(pts, g % 2 == 1))
                continue
            for g in range(1, 5):
                script.report(name, f"{contest} game {g}", "½-½")
            script.command("arbi", "series choose", event=name, round=contest, colour="white")
            blitz, armageddon = _finals_playoff(real, white, m["winner"])
            for g, pts in enumerate(blitz, start=1):
                script.report(name, f"{contest} blitz {g}", _white_result(pts, g == 1))
            if armageddon is not None:
                script.command("arbi", "series choose", event=name, round=contest, colour="white")
                script.report(name, f"{contest} armageddon", armageddon)
    script.command("arbi", "finals standings", event=name)


def replacements(event: Event) -> list[str]:
    """CCT-3: whom the declined qualifiers' places go to: the next players in the tour
    standings before the Finals who are not qualified already."""
    qualified = {p for p, _ in event["qualification"]["qualified"]}
    standings = sorted(event["tour_points_before"].items(), key=lambda pt: -pt[1])
    others = [p for p, _ in standings if p not in qualified]
    return others[: len(event["qualification"]["declined"])]


def _finals_playoff(
    real: Mapping[str, Any] | None, white: str, winner: str
) -> tuple[list[Fraction], str | None]:
    """A Finals tie-break (White's points per blitz game, the Armageddon result): the real
    one where the data hold it, else a rebuilt 1½-½ in the blitz."""
    playoff = (real or {}).get("playoff")
    if playoff is None:
        won = winner == white
        return ([Fraction(1), HALF] if won else [Fraction(0), HALF]), None
    a, _ = score_of(playoff["blitz"])
    mine = a if real is not None and real["a"] == white else 2 - a
    blitz = {
        Fraction(1): [HALF, HALF],
        Fraction(3, 2): [Fraction(1), HALF],
        HALF: [Fraction(0), HALF],
        Fraction(2): [Fraction(1), Fraction(1)],
        Fraction(0): [Fraction(0), Fraction(0)],
    }[mine]
    if mine != 1:
        return blitz, None
    return blitz, "1-0" if winner == white else "0-1"


def _finals_rapid(known: Mapping[str, Any] | None, white: str, white_won: bool) -> list[Fraction]:
    """A Finals match won in the rapid games: its real score where the data hold it, else a
    rebuilt 2½-½; the Berger-table White has White in game 1 (CCT-8f)."""
    if known is None:
        return [Fraction(1), HALF, Fraction(1)] if white_won else [Fraction(0), HALF, Fraction(0)]
    a, b = score_of(known["score"])
    if "games" in known:
        games = games_of(known["games"])
        return games if known["a"] == white else [1 - g for g in games]
    mine, theirs = (a, b) if known["a"] == white else (b, a)
    return rebuild_day(f"{_num(mine)}-{_num(theirs)}", 1, 0)


def story(
    events: Sequence[Event] | None = None, features: Features = ALL, *, knockouts: bool = True
) -> str:
    """The whole season as a replay script; without `knockouts`, the preliminaries only."""
    events = load_events() if events is None else list(events)
    script = Script()
    script.comment(
        "User story: the real Meltwater Champions Chess Tour 2020-21, start to end, through\n"
        "the bot (issue 31). Generated from tests/fixtures/cct2021 by\n"
        "tests/support/real_tour.py; see the README there for every figure's source and\n"
        "what is rebuilt rather than read.\n"
        "Run: python3 -m bot replay tests/scripts/tour/story_real_cct_2021.jsonl"
    )
    script.step(**_header())
    script.command(
        "hq",
        "setup set",
        hq_role="&HQ",
        arbiter_role="&Arbiters",
        announcements="#announcements",
        arbiters_channel="#arbiters",
    )
    script.command("hq", "tour create", name=TOUR)
    for event in events:
        if event["type"] == "finals":
            if not knockouts:
                continue
            _finals_steps(script, event, features)
            script.command("fan", "tour standings", tour=TOUR)
            continue
        name = event["event"]
        script.comment(f"Event {event['index']}: {name} ({event['start']} to {event['end']}).")
        options: dict[str, Any] = {
            "tour": TOUR,
            "name": name,
            "type": event["type"],
            "start": event["start"],
            "players": event["players_count"],
        }
        if not event["third_place_match"]:
            options["third_place_match"] = False
        if features.points_option:
            options["points"] = event["points"]
            options["scoring"] = event["scoring"]
        script.command("hq", "event create", **options)
        for player in event["players"]:
            script.command("hq", "event player-add", event=name, player=player)
        pre = event["preliminary"]
        if not pre.get("complete"):
            script.comment(
                "NOT REAL: no crosstable of this preliminary was found, so its results are\n"
                "made up (each player beats everyone placed below) only to reproduce the\n"
                "published order."
            )
        elif not event.get("pairing_numbers"):
            script.comment(
                "Real results from the crosstable; the pairing numbers are not the real ones."
            )
        script.command("hq", "event draw", event=name, order=", ".join(draw_order(event)))
        script.step(**{"as": "hq", "click": {"message": "last", "button": "Confirm"}})
        rounds = len(berger_table(len(draw_order(event))).rounds)
        for r, white, black, result in _prelim_games(event):
            script.session(event["start"], preliminary_day(r, rounds))
            script.report(name, f"R{r} {white} v {black}", result)
        script.command("fan", "event standings", event=name)
        if not knockouts:
            continue
        script.command("hq", "event start-knockout", event=name)
        script.step(**{"as": "hq", "click": {"message": "last", "button": "Confirm"}})
        for k in sorted(event["knockout"], key=lambda k: ROUNDS.index(k["round"])):
            _series_steps(script, name, event["start"], series_of(k), features)
        script.command("fan", "event show", event=name)
        script.command("fan", "tour standings", tour=TOUR)
    if knockouts:
        script.command("fan", "tour export", tour=TOUR)
    return "\n".join(script.lines) + "\n"


def finals_story(
    tour_file_name: str, events: Sequence[Event] | None = None, features: Features = TODAY
) -> str:
    """The nine events imported as a tour file (`tour_file_name`, beside the script), then the
    real Finals played through the bot match by match (CCT-8f) with the qualification list
    shown first (CCT-3)."""
    events = load_events() if events is None else list(events)
    finals = events[-1]
    script = Script()
    script.comment("The real Finals after the nine events imported from their tour file.")
    script.step(**_header())
    script.command(
        "hq",
        "setup set",
        hq_role="&HQ",
        arbiter_role="&Arbiters",
        announcements="#announcements",
        arbiters_channel="#arbiters",
    )
    script.command("hq", "tour import", file={"file": tour_file_name}, name=TOUR)
    script.step(expect={"contains": "imported"})
    script.command(
        "hq", "event create", tour=TOUR, name=finals["event"], type="finals", start=finals["start"]
    )
    script.command("fan", "tour qualification", tour=TOUR, event=finals["event"])
    _finals_steps(script, finals, features, create=False)
    script.command("fan", "tour standings", tour=TOUR)
    return "\n".join(script.lines) + "\n"


def _header() -> dict[str, Any]:
    return {
        "replay": 1,
        "start": START.isoformat().replace("+00:00", "Z"),
        "guild": {
            "name": "Champions Chess Tour",
            "roles": ["HQ", "Arbiters"],
            "channels": ["general", "announcements", "arbiters"],
        },
        "members": [
            {"name": "hq", "roles": ["HQ"], "manage_guild": True},
            {"name": "arbi", "roles": ["Arbiters"]},
            {"name": "fan"},
        ],
    }


if __name__ == "__main__":
    STORY.write_text(story(), encoding="utf-8")
    print(f"wrote {STORY.relative_to(ROOT)}")
