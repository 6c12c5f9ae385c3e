"""The replay story of issue 36, its tour half: a Regular whose players act only from direct
messages and `/my games`.

The organiser enters eight players, links their chess.com accounts and draws the event. Every
preliminary game is played on chess.com, where the bot finds it and reports it for the players.
Each report is confirmed by one of its players, from the direct message that asked for it or from
`/my games`. One player has closed his direct messages, so the bot mentions him in the channel
instead, with the same buttons. The bot restarts between a day's reports and their
confirmations. The arbiter enters the knock-out's games and colour choices, and the event ends with
its wrap-up. `tests/stories/test_notified_story.py` plays it.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from bot.offline.demo.tour_script import local
from bot.offline.demo.tour_world import Choice, EventPlan, Report, generate
from core.tour.calendar import KNOCKOUT_FIRST_DAY, preliminary_day
from core.tour.knockout import Tie

TOUR = "Notified Tour"
SEED = 1
STAGES = ((Tie.QF1, Tie.QF2, Tie.QF3, Tie.QF4), (Tie.SF1, Tie.SF2), (Tie.FINAL, Tie.THIRD_PLACE))
MATE_WHITE = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0"
MATE_BLACK = "1. f3 e5 2. g4 Qh4# 0-1"
DRAWN = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2"
"""A short game drawn by agreement, its moves legal."""
BY_DM = 2
"""Of every three confirmations, those made from a direct message: the third is from /my games."""


def _instant(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def member(name: str) -> str:
    """A player's member in the guild: their first name, lowercase."""
    return name.split()[0].lower()


def username(name: str) -> str:
    """A player's chess.com username, such as `AlinaVarga`."""
    return name.replace(" ", "")


def _archive_game(report: Report, ended: dt.datetime, number: int) -> dict[str, Any]:
    """A rapid game as chess.com's archives publish it, with the report's result."""
    white, black = username(report.white), username(report.black)
    url = f"https://www.chess.com/game/live/{number}"
    result = {"1-0": "1-0", "0-1": "0-1"}.get(report.result, "1/2-1/2")
    moves = {"1-0": MATE_WHITE, "0-1": MATE_BLACK}.get(report.result, DRAWN)
    tags = {
        "Event": "Live Chess",
        "Site": "Chess.com",
        "White": white,
        "Black": black,
        "Result": result,
        "TimeControl": "900+10",
        "Link": url,
    }
    pgn = "".join(f'[{key} "{value}"]\n' for key, value in tags.items()) + f"\n{moves}\n"
    outcome = {"1-0": ("win", "checkmated"), "0-1": ("checkmated", "win")}
    white_result, black_result = outcome.get(report.result, ("agreed", "agreed"))
    return {
        "url": url,
        "pgn": pgn,
        "time_control": "900+10",
        "end_time": int(ended.timestamp()),
        "rated": True,
        "time_class": "rapid",
        "rules": "chess",
        "white": {"username": white, "rating": 1850, "result": white_result},
        "black": {"username": black, "rating": 1820, "result": black_result},
    }


def _confirmer(report: Report) -> str:
    """The player who confirms a report: the one who lost, else Black."""
    return member(report.white if report.result == "0-1" else report.black)


@dataclass
class TourStory:
    """The tour story's lines, its event, and who confirms by direct message or `/my games`."""

    lines: list[str]
    plan: EventPlan
    closed: str
    by_dm: dict[str, int] = field(default_factory=dict)
    by_view: dict[str, int] = field(default_factory=dict)
    by_mention: dict[str, int] = field(default_factory=dict)
    opted_in: list[str] = field(default_factory=list)
    """Players who chose session reminders and game outcomes by direct message too."""

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class _Writer:
    def __init__(self, dms: bool) -> None:
        self.dms = dms
        self.plan = generate(SEED).events[0]
        self.lines: list[str] = []
        self.number = 7_200_000
        self.confirmations = 0
        self.closed = _confirmer(self.plan.prelim_reports(1)[0])
        self.story = TourStory(self.lines, self.plan, self.closed)

    def step(self, obj: dict[str, Any]) -> None:
        self.lines.append(json.dumps(obj, ensure_ascii=False))

    def at(self, when: dt.datetime) -> None:
        self.step({"at": _instant(when)})

    def command(self, who: str, path: str, **options: Any) -> None:
        self.step({"as": who, "command": path, "options": options})

    def expect(self, **checks: Any) -> None:
        self.step({"expect": checks})

    def set_up(self) -> None:
        plan = self.plan
        self.lines.append(
            "// Issue 36's story, its tour half: players confirm their games only from direct"
        )
        self.lines.append(
            "// messages and /my games (generated by tests/support/notified_tour_story.py)."
        )
        members = [
            {"name": "hq", "roles": ["HQ"], "manage_guild": True},
            {"name": "arbi", "roles": ["Arbiters"]},
        ] + [{"name": member(name)} for name in plan.entrants]
        header = {
            "replay": 1,
            "start": _instant(local(plan.start, 8)),
            "guild": {
                "name": "Tour Club",
                "roles": ["HQ", "Arbiters"],
                "channels": ["general", "announcements", "arbiters"],
            },
            "members": members,
            "config": {"chesscom": {"poll_minutes": 180}},
        }
        self.step(header)
        self.command(
            "hq",
            "setup set",
            hq_role="&HQ",
            arbiter_role="&Arbiters",
            announcements="#announcements",
            arbiters_channel="#arbiters",
        )
        self.step({"close_dms": self.closed})
        self.command("hq", "tour create", name=TOUR)
        self.command(
            "hq",
            "event create",
            tour=TOUR,
            name=plan.name,
            type=plan.type.value,
            start=plan.start.isoformat(),
            players=len(plan.entrants),
        )
        for name in plan.entrants:
            self.command(
                "hq", "event player-add", event=plan.name, player=name, user="@" + member(name)
            )
            self.command(
                "hq", "tour link", player=name, user="@" + member(name), chesscom=username(name)
            )
        self.lines.append(
            "// half the players also want their sessions and outcomes by direct message"
        )
        for name in plan.entrants[:4]:
            for kind in ("session", "game-outcome"):
                self.command(member(name), "notify", kind=kind, on=True)
                self.expect(ephemeral=True, error=None)
            self.story.opted_in.append(member(name))
        self.command("hq", "event draw", event=plan.name, seed=plan.seed)
        self.step({"as": "hq", "click": {"message": "last", "button": "Confirm"}})
        self.expect(posts_contain=f"{plan.name}: pairings", error=None)

    def preliminary(self) -> None:
        plan = self.plan
        rounds = max(p.round for p in plan.pairings)
        for day in (1, 2, 3):
            date = plan.start + dt.timedelta(days=day - 1)
            reports = [
                report
                for n in range(1, rounds + 1)
                if preliminary_day(n, rounds) == day
                for report in plan.prelim_reports(n)
            ]
            self.lines.append(f"// day {day}: {len(reports)} games played on chess.com")
            self.at(local(date, 19, 45))
            for report in reports:
                self.number += 1
                game = _archive_game(report, local(date, 19, 30), self.number)
                self.step({"chesscom": {"game": game}})
            self.at(local(date + dt.timedelta(days=1), 0, 5))
            self.expect(posts_contain=f"Found on chess.com: **{plan.name}**", error=None)
            if day == 2:
                self.lines.append("// the bot restarts before the players answer")
                self.step({"restart": {}})
            self.at(local(date + dt.timedelta(days=1), 7, 30))
            for report in reports:
                self.confirm(report)

    def confirm(self, report: Report) -> None:
        """One of the game's players confirms the bot's report: the one who lost, else Black.

        Two of three do it from the direct message about that game, the third from `/my games`.
        The player whose direct messages are closed answers on the channel's mention of him.
        """
        who = _confirmer(report)
        self.confirmations += 1
        if who == self.closed:
            mention = f"@{who}, I could not send you a direct message"
            click = {"message": "last", "button": "Confirm", "containing": [mention, report.game]}
            self.step({"as": who, "click": click})
            self.story.by_mention[who] = self.story.by_mention.get(who, 0) + 1
        elif self.dms and self.confirmations % 3 != 0:
            click = {"dm": "last", "button": "Confirm", "containing": f"{report.game} "}
            self.step({"as": who, "click": click})
            self.story.by_dm[who] = self.story.by_dm.get(who, 0) + 1
        else:
            self.command(who, "my games")
            self.step({"as": who, "click": {"message": "last", "button": "Confirm 1"}})
            self.story.by_view[who] = self.story.by_view.get(who, 0) + 1
        self.expect(contains=f"{report.game} ", error=None)
        self.expect(contains="confirmed")

    def knockout(self) -> None:
        plan = self.plan
        self.lines.append("// the knock-out, its games and colour choices entered by the arbiter")
        self.at(local(plan.start + dt.timedelta(days=3), 9))
        self.command("hq", "event start-knockout", event=plan.name)
        self.step({"as": "hq", "click": {"message": "last", "button": "Confirm"}})
        self.expect(posts_contain="The knock-out of", error=None)
        for ties in STAGES:
            first = KNOCKOUT_FIRST_DAY[ties[0]]
            for offset in (0, 1):
                date = plan.start + dt.timedelta(days=first + offset - 1)
                self.at(local(date, 20, 30))
                for tie in ties:
                    items = plan.series[tie]
                    split = next(
                        i
                        for i, item in enumerate(items)
                        if isinstance(item, Report) and " day 2 " in f" {item.game} "
                    )
                    for item in items[:split] if offset == 0 else items[split:]:
                        if isinstance(item, Choice):
                            self.command(
                                "arbi",
                                "series choose",
                                event=plan.name,
                                round=item.contest,
                                colour=item.colour,
                            )
                        else:
                            self.command(
                                "arbi",
                                "game report",
                                event=plan.name,
                                game=item.game,
                                result=item.result,
                            )
                        self.expect(error=None)
        self.expect(posts_contain=f"{plan.name} is over")

    def write(self) -> TourStory:
        self.set_up()
        self.preliminary()
        self.knockout()
        return self.story


def tour_story(dms: bool = True) -> TourStory:
    """The tour story's script. Without `dms` every confirmation is made from `/my games`."""
    return _Writer(dms).write()
