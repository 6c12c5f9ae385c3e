"""The demo tour as a replay script, as docs/replay.md describes.

It sets up the guild, its organiser, arbiter and players. Then each event runs on the virtual clock.
It is created and drawn the morning of its first day, and each session's games are entered after it
at 20:30 in the appeals zone. The bot posts the round reminders at 16:00 and closes the appeals at
midnight on its own. The knock-out starts after day 3, followed by each knock-out day's games and
the Finals' nine rounds. The world's staged moments from bot/offline/demo/tour_world.py come with
`expect` steps checking each of them.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any
from zoneinfo import ZoneInfo

from bot.offline.demo.tour_world import TOUR, Choice, EventPlan, Item, Report, TourWorld
from core.tour.calendar import KNOCKOUT_FIRST_DAY, preliminary_day
from core.tour.knockout import Tie
from core.tour.ranking import EventType

GUILD = "Tour Club"
WEB_SLUG = "demo-tour"
"""The tour demo's guild on the public web site, as its HQ turns it on with `/setup web`."""
ZONE = ZoneInfo("Europe/Paris")
"""CCT-11's zone, the config default. The sessions' days and hours are read in it."""
POLL_MINUTES = 180
"""How often the bot polls chess.com and lichess in the demo, so a day of polls stays quick."""
STAGES = (
    ("qf", (Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4)),
    ("sf", (Tie.SF1, Tie.SF2)),
    ("f", (Tie.FINAL, Tie.THIRD_PLACE)),
)
MATE_WHITE = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"
MATE_BLACK = "1. f3 e5 2. g4 Qh4# 0-1"


def local(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    """An instant of the appeals zone's clock, in UTC."""
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=ZONE).astimezone(dt.UTC)


def instant(value: dt.datetime) -> str:
    """A script instant such as `2026-03-02T16:00:00Z`."""
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class TourScript:
    """The script's lines, the step numbers where each stage begins, and the summary's counts.

    The step numbers are for progress. The counts are those of the staged moments.
    """

    lines: list[str] = field(default_factory=list)
    stages: dict[int, str] = field(default_factory=dict)
    steps: int = 0
    staged: list[str] = field(default_factory=list)
    clock: dt.datetime | None = None

    def text(self) -> str:
        """The script as a file."""
        return "\n".join(self.lines) + "\n"

    def comment(self, text: str) -> None:
        """A `//` line."""
        self.lines.append(f"// {text}")

    def step(self, obj: dict[str, Any]) -> int:
        """Adds a step and returns its number."""
        self.lines.append(json.dumps(obj, ensure_ascii=False))
        self.steps += 1
        return self.steps

    def stage(self, name: str) -> None:
        """The next step begins a stage, shown as progress."""
        self.stages[self.steps + 1] = name

    def at(self, when: dt.datetime) -> None:
        """Advances the clock, never backwards and never to where it is."""
        if self.clock is None or when > self.clock:
            self.step({"at": instant(when)})
            self.clock = when

    def command(self, member: str, path: str, **options: Any) -> int:
        """A slash command by `member`."""
        return self.step({"as": member, "command": path, "options": options})

    def expect(self, **checks: Any) -> None:
        """Check the previous step."""
        self.step({"expect": checks})


def _header(world: TourWorld) -> dict[str, Any]:
    """The script's header: the guild, its organiser, arbiter and players, the config."""
    members = [
        {"name": "hq", "roles": ["HQ"], "manage_guild": True},
        {"name": "arbi", "roles": ["Arbiters"]},
    ] + [{"name": p.member} for p in world.players]
    return {
        "replay": 1,
        "start": instant(local(world.events[0].start, 8)),
        "guild": {
            "name": GUILD,
            "roles": ["HQ", "Arbiters"],
            "channels": ["general", "announcements", "arbiters"],
        },
        "members": members,
        "config": {"chesscom": {"poll_minutes": POLL_MINUTES}},
    }


def _mate_pgn(result: str, **tags: str) -> str:
    """A short legal rapid game's PGN ending in mate, with `tags` then its result and time control.

    A chess.com `Link` tag, when given, comes last as chess.com writes it.
    """
    link = tags.pop("Link", None)
    tags |= {"Result": result, "TimeControl": "900+10"}
    if link is not None:
        tags["Link"] = link
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags.items())
    return f"{head}\n{MATE_WHITE if result == '1-0' else MATE_BLACK}\n"


def _chesscom_game(
    white: str, black: str, result: str, ended: dt.datetime, number: int
) -> dict[str, Any]:
    """An archive game as chess.com publishes it, a short legal PGN with the result."""
    won = result == "1-0"
    url = f"https://www.chess.com/game/live/{number}"
    pgn = _mate_pgn(
        result, Event="Live Chess", Site="Chess.com", White=white, Black=black, Link=url
    )
    return {
        "url": url,
        "pgn": pgn,
        "time_control": "900+10",
        "end_time": int(ended.timestamp()),
        "rated": True,
        "time_class": "rapid",
        "rules": "chess",
        "white": {"username": white, "rating": 1850, "result": "win" if won else "checkmated"},
        "black": {"username": black, "rating": 1820, "result": "checkmated" if won else "win"},
    }


def _lichess_game(
    white: str, black: str, result: str, ended: dt.datetime, game_id: str
) -> dict[str, Any]:
    """An exported game as lichess publishes it with `pgnInJson`."""
    won = result == "1-0"
    site = f"https://lichess.org/{game_id}"
    pgn = _mate_pgn(result, Event="Rated rapid game", Site=site, White=white, Black=black)
    millis = int(ended.timestamp() * 1000)
    return {
        "id": game_id,
        "rated": True,
        "variant": "standard",
        "speed": "rapid",
        "perf": "rapid",
        "createdAt": millis - 40 * 60_000,
        "lastMoveAt": millis,
        "status": "mate",
        "winner": "white" if won else "black",
        "players": {
            "white": {"user": {"name": white, "id": white.lower()}, "rating": 1800},
            "black": {"user": {"name": black, "id": black.lower()}, "rating": 1790},
        },
        "pgn": pgn,
        "clock": {"initial": 900, "increment": 10, "totalTime": 1300},
    }


def _username(name: str, site: str) -> str:
    """A player's username on a site, such as `AlinaVarga` or `alina-varga`."""
    first, last = name.split()
    return f"{first}{last}" if site == "chesscom" else f"{first}-{last}".lower()


class _Writer:
    """Writes one world's script, event by event."""

    def __init__(self, world: TourWorld) -> None:
        self.world = world
        self.script = TourScript()
        self.member = {p.name: p.member for p in world.players}
        self.entered: set[str] = set()
        self.number = 7_100_000

    def report(self, item: Report, event: str, by: str = "arbi") -> int:
        """A game's result entered by the arbiter, unless `by` says who, and returns its step."""
        return self.script.command(
            by, "game report", event=event, game=item.game, result=item.result
        )

    def appeal(self, item: Report, player: str, event: str, text: str) -> int:
        """`player` lodging an appeal about a game with `text`, and returns its step."""
        return self.script.command(
            self.member[player], "appeal lodge", event=event, game=item.game, text=text
        )

    def items(self, event: str, items: list[Item]) -> None:
        """A contest's colour choices and games, in playing order."""
        for item in items:
            if isinstance(item, Choice):
                who = "hq" if item.chooser is None else self.member[item.chooser]
                self.script.command(
                    who, "series choose", event=event, round=item.contest, colour=item.colour
                )
            else:
                self.report(item, event)

    def set_up(self, plan: EventPlan) -> None:
        """The event created, its players entered with the sites' pairs linked, and drawn."""
        s = self.script
        s.stage(f"{plan.name}: entries and the draw")
        s.at(local(plan.start, 9))
        s.command(
            "hq",
            "event create",
            tour=TOUR,
            name=plan.name,
            type=plan.type.value,
            start=plan.start.isoformat(),
            players=len(plan.entrants),
        )
        for name in plan.entrants:
            s.command(
                "hq", "event player-add", event=plan.name, player=name, user="@" + self.member[name]
            )
            self.entered.add(name)
        for site, pair, event_no in (
            ("chesscom", self.world.chesscom_pair, 0),
            ("lichess", self.world.lichess_pair, 1),
        ):
            if self.world.events[event_no] is plan:
                for name in pair:
                    s.command(
                        "hq",
                        "tour link",
                        player=name,
                        user="@" + self.member[name],
                        **{site: _username(name, site)},
                    )
        draw = s.command("hq", "event draw", event=plan.name, seed=plan.seed)
        s.step({"as": "hq", "click": {"step": draw, "button": "Confirm"}})
        s.expect(posts_contain=f"{plan.name}: pairings")

    def preliminary(self, plan: EventPlan, index: int) -> None:
        """The three preliminary days: each session's games after it, the staged moments."""
        s = self.script
        rounds = max(p.round for p in plan.pairings)
        s.stage(f"{plan.name}: preliminary")
        for day in (1, 2, 3):
            date = plan.start + dt.timedelta(days=day - 1)
            reports = [
                r
                for n in range(1, rounds + 1)
                if preliminary_day(n, rounds) == day
                for r in plan.prelim_reports(n)
            ]
            site = self._site_game(plan, index, day, date)
            if index == 2 and day == 2:
                first = plan.prelim_reports(1)[0]
                s.at(local(date, 10))
                self.appeal(
                    first, first.white, plan.name, "A late complaint about yesterday's game."
                )
                s.expect(contains="too late")
                s.staged.append("a late appeal refused (CCT-11)")
            s.at(local(date, 20, 30))
            if site is not None:
                expected, confirm = site
                s.expect(posts_contain=expected)
                if confirm is not None:
                    s.step({"as": confirm, "click": {"message": "last", "button": "Confirm"}})
                    s.expect(contains="confirmed")
            skip = {site_game for site_game in self._site_names(plan, index)}
            staged = self._staged(plan, index, day, [r for r in reports if r.game not in skip])
            for report in reports:
                if report.game not in skip and report.game not in staged:
                    self.report(report, plan.name)
            if index == 1 and day == 1:
                loser = next(r for r in reports if r.result != "½-½" and r.game not in skip)
                appellant = loser.black if loser.result == "1-0" else loser.white
                s.at(local(date, 21, 30))
                self.appeal(
                    loser, appellant, plan.name, "My opponent's camera showed a second screen."
                )
                s.expect(contains="recorded at")
                s.staged.append("an appeal lodged in time (CCT-11)")
            if index == 1 and day == 2:
                s.command(
                    "arbi",
                    "appeal decide",
                    appeal=1,
                    decision="dismissed",
                    reason="The second screen was the player's own clock",
                )
                s.expect(contains="dismissed")

    def _site_names(self, plan: EventPlan, index: int) -> list[str]:
        """The event's games a site serves. The bot reports them, not the arbiter."""
        if index > 1:
            return []
        white, black = self.world.chesscom_pair if index == 0 else self.world.lichess_pair
        return [r.game for r in self._all(plan) if (r.white, r.black) == (white, black)]

    def _all(self, plan: EventPlan) -> list[Report]:
        """Every preliminary game of the event, round by round."""
        rounds = max(p.round for p in plan.pairings)
        return [r for n in range(1, rounds + 1) for r in plan.prelim_reports(n)]

    def _site_game(
        self, plan: EventPlan, index: int, day: int, date: dt.date
    ) -> tuple[str, str | None] | None:
        """The day's game a site serves, added before the session's poll.

        It gives what the bot then posts and who confirms it. None means nobody, and the timer
        confirms it.
        """
        if index > 1 or day != 1:
            return None
        white, black = self.world.chesscom_pair if index == 0 else self.world.lichess_pair
        game = next(r for r in self._all(plan) if (r.white, r.black) == (white, black))
        ended = local(date, 18, 30)
        self.number += 1
        if index == 0:
            data = _chesscom_game(
                _username(white, "chesscom"),
                _username(black, "chesscom"),
                game.result,
                ended,
                self.number,
            )
            self.script.step({"chesscom": {"game": data}})
            self.script.staged.append("a game found on chess.com by polling, confirmed by a player")
            loser = black if game.result == "1-0" else white
            return f"Found on chess.com: **{plan.name}**, {game.game}", self.member[loser]
        data = _lichess_game(
            _username(white, "lichess"),
            _username(black, "lichess"),
            game.result,
            ended,
            f"Demo{self.number % 10000:04d}",
        )
        self.script.step({"lichess": {"games": [data]}})
        self.script.staged.append(
            "a game found on lichess.org by polling, confirmed by the 12-hour timer"
        )
        return f"Found on lichess.org: **{plan.name}**, {game.game}", None

    def _staged(self, plan: EventPlan, index: int, day: int, reports: list[Report]) -> set[str]:
        """The day's staged reports and their games: player reports, a dispute and a
        disconnection.
        """
        s = self.script
        done: set[str] = set()
        decisive = [r for r in reports if r.result != "½-½"]
        if index == 0 and day == 1:
            for report in decisive[:2]:
                winner = report.white if report.result == "1-0" else report.black
                loser = report.black if winner == report.white else report.white
                step = self.report(report, plan.name, by=self.member[winner])
                s.expect(contains="waiting for the opponent")
                s.step({"as": self.member[loser], "click": {"step": step, "button": "Confirm"}})
                done.add(report.game)
            s.staged.append("player reports confirmed by the opponent")
        if index == 0 and day == 2:
            report = decisive[0]
            winner = report.white if report.result == "1-0" else report.black
            loser = report.black if winner == report.white else report.white
            wrong = "0-1" if report.result == "1-0" else "1-0"
            step = s.command(
                self.member[loser], "game report", event=plan.name, game=report.game, result=wrong
            )
            s.step({"as": self.member[winner], "click": {"step": step, "button": "Dispute"}})
            s.expect(posts_contain="Disputed in")
            self.report(report, plan.name)
            s.expect(contains="decided by an arbiter")
            s.staged.append("a disputed report settled by an arbiter")
            done.add(report.game)
        if index == 1 and day == 2:
            report = decisive[0]
            loser = report.black if report.result == "1-0" else report.white
            s.command(
                "arbi",
                "incident disconnection",
                event=plan.name,
                game=report.game,
                player=loser,
                clock_seconds=12,
                reconnected_within_30s=False,
                backup_connection=True,
            )
            s.expect(posts_contain="Disconnection in")
            s.staged.append("a disconnection ruled lost (CCT-10)")
            done.add(report.game)
        return done

    def knockout(self, plan: EventPlan) -> None:
        """The knock-out started, then each stage's two days of games."""
        s = self.script
        start = s.command("hq", "event start-knockout", event=plan.name)
        s.step({"as": "hq", "click": {"step": start, "button": "Confirm"}})
        s.expect(posts_contain="The knock-out of")
        s.stage(f"{plan.name}: knock-out")
        for _, ties in STAGES:
            first = KNOCKOUT_FIRST_DAY[ties[0]]
            for offset in (0, 1):
                date = plan.start + dt.timedelta(days=first + offset - 1)
                s.at(local(date, 20, 30))
                for tie in ties:
                    items = plan.series[tie]
                    split = next(
                        i
                        for i, item in enumerate(items)
                        if isinstance(item, Report) and " day 2 " in f" {item.game} "
                    )
                    self.items(plan.name, items[:split] if offset == 0 else items[split:])
                    if offset == 1 and tie is plan.armageddon:
                        s.expect(posts_contain="wins the series")
                        s.staged.append(f"a knock-out round decided by Armageddon ({plan.name})")
        s.expect(posts_contain=f"{plan.name} is over")

    def finals(self, plan: EventPlan) -> None:
        """The Ambassadors named, the Finals entered and drawn, then its nine rounds."""
        s = self.script
        s.stage("Ambassadors and the Finals")
        s.at(local(plan.start, 8, 30))
        for name in self.world.ambassadors:
            s.command("hq", "tour ambassador-add", tour=TOUR, player=name)
        self.set_up(plan)
        s.stage(f"{plan.name}: nine rounds")
        for round_no in range(1, 10):
            s.at(local(plan.start + dt.timedelta(days=round_no - 1), 20, 30))
            for board in range(1, 6):
                self.items(plan.name, plan.finals[(round_no, board)])
        s.expect(posts_contain=f"{plan.name}** is over")
        s.at(local(plan.start + dt.timedelta(days=9), 10))
        s.command(self.member[plan.entrants[0]], "tour standings", tour=TOUR)
        s.command(self.member[plan.entrants[0]], "finals standings", event=plan.name)

    def write(self) -> TourScript:
        """The whole script: the header, the set-up, then every event."""
        s = self.script
        s.comment(
            f"The demo tour of seed {self.world.seed} (arbiter demo --tour): two Regulars and a"
        )
        s.comment(
            "Major of 8, then a 10-player Finals, played through the real bot on the virtual clock."
        )
        s.comment(
            "Written by bot/offline/demo/tour_script.py; the bot posts reminders, polls the sites,"
        )
        s.comment("confirms reports, closes appeals and wraps each event up on its own.")
        s.step(_header(self.world))
        s.steps = 0  # the header is no step
        s.stage("set-up")
        s.command(
            "hq",
            "setup set",
            hq_role="&HQ",
            arbiter_role="&Arbiters",
            announcements="#announcements",
            arbiters_channel="#arbiters",
        )
        s.command("hq", "setup web", slug=WEB_SLUG)
        s.expect(contains=f"/g/{WEB_SLUG}/")
        s.command("hq", "tour create", name=TOUR)
        for index, plan in enumerate(self.world.events):
            if plan.type is EventType.FINALS:
                self.finals(plan)
                continue
            self.set_up(plan)
            self.preliminary(plan, index)
            self.knockout(plan)
        return s


def tour_script(world: TourWorld) -> TourScript:
    """The world's tour as a replay script."""
    return _Writer(world).write()
