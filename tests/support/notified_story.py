"""The replay story of issue 36: a league season acted on only from direct messages and `/my`.

Four clubs play a one-division season of six matches. Every step the bot asks of a club's admin,
issuing or accepting a CL-15 challenge, is taken from the direct message that asked for it or from
`/my matches`, and the directors vote on a CL-21 motion from their direct messages and
`/my votes`. The results come from chess.com, played there, and the bot reads them. Fulham's
second admin has closed his direct messages, so the bot mentions him in the channel instead. The
bot restarts between a challenge and its acceptance, and the acceptance is clicked on the direct
message sent before the restart. `tests/stories/test_notified_story.py` plays it.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from bot.offline.demo.chesscom_payloads import (
    Board,
    ListedMatch,
    club_matches,
    club_profile,
    player_profile,
    player_stats,
    team_match,
)
from bot.offline.demo.world import Club, Player
from bot.rendering.league.match_buttons import LABELS

START = dt.datetime(2017, 8, 1, 9, tzinfo=dt.UTC)
SEASON = "CL 2017"
GUILD = "CL League"
FIRST_ROUND = dt.date(2017, 9, 5)
KICK_OFF = dt.time(18)
"""The hour of a round's matches, UTC, as the season's schedule sets it."""
NOTICE = dt.timedelta(hours=120)
"""CL-15: the challenge deadline before the start."""
CHESSCOM_BASE = 7_000_000
FIELD = "The chess.com match id or URL"
"""The label of the challenge form's one field."""
DIRECTORS = ("dora", "dmitri", "diane")
CLOSED = "hal"
"""Fulham's second admin, whose direct messages are closed."""


def _club(name: str, admins: tuple[str, str], number: int, rating: int) -> Club:
    url_id = name.lower().replace(" ", "-")
    prefix = url_id.split("-")[0][:3]
    players = [Player(f"{prefix}_player{k}", rating - 20 * k) for k in range(1, 5)]
    return Club(name, url_id, 1000 + number, 0, 120, players, admins)


CLUBS = (
    _club("Arsenal Fans", ("ann", "bob"), 1, 1500),
    _club("Chelsea Fans", ("cat", "dan"), 2, 1480),
    _club("Everton Fans", ("eve", "fay"), 3, 1460),
    _club("Fulham Fans", ("gus", "hal"), 4, 1440),
)


@dataclass(frozen=True)
class Fixture:
    """A match of the season as the schedule numbers it: its round, clubs and home points.

    `home_points` are the home club's game points out of 8, four boards of two games.
    """

    number: int
    round: int
    home: Club
    away: Club
    home_points: float

    @property
    def start(self) -> dt.datetime:
        day = FIRST_ROUND + dt.timedelta(days=7 * (self.round - 1))
        return dt.datetime.combine(day, KICK_OFF, tzinfo=dt.UTC)

    @property
    def deadline(self) -> dt.datetime:
        return self.start - NOTICE

    @property
    def chesscom(self) -> int:
        return CHESSCOM_BASE + self.number

    @property
    def name(self) -> str:
        return f"{GUILD} R{self.round}: {self.home.name} vs {self.away.name}"

    def boards(self) -> list[Board]:
        """Four boards whose home points add up to `home_points`."""
        left = self.home_points
        boards = []
        for home, away in zip(self.home.players, self.away.players, strict=True):
            white = min(1.0, left)
            left -= white
            black = min(1.0, left)
            left -= black
            boards.append(Board(home, away, (white, black)))
        return boards


def _club_named(name: str) -> Club:
    return next(club for club in CLUBS if club.name.startswith(name))


FIXTURES = (
    Fixture(1, 1, _club_named("Arsenal"), _club_named("Fulham"), 6),
    Fixture(2, 1, _club_named("Chelsea"), _club_named("Everton"), 5),
    Fixture(3, 2, _club_named("Fulham"), _club_named("Everton"), 3),
    Fixture(4, 2, _club_named("Arsenal"), _club_named("Chelsea"), 5),
    Fixture(5, 3, _club_named("Chelsea"), _club_named("Fulham"), 6),
    Fixture(6, 3, _club_named("Everton"), _club_named("Arsenal"), 2),
)
"""CL-12's Berger order for the four clubs, as `season schedule` numbers the matches."""
OPTED_IN = {
    "ann": ("match-start", "match-result"),
    "gus": ("match-result",),
    CLOSED: ("match-result",),
    "eve": ("forfeit",),
    "fay": ("forfeit",),
}
"""The admins who also want, by direct message, what is off by default."""
FINAL_ORDER = ("Arsenal Fans", "Chelsea Fans", "Everton Fans", "Fulham Fans")


def _instant(value: dt.datetime) -> str:
    return value.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(order=True)
class _Timed:
    at: dt.datetime
    order: int
    steps: list[dict[str, Any]] = field(compare=False)
    comment: str | None = field(default=None, compare=False)


@dataclass
class LeagueStory:
    """The league story's lines, and who the script expects to get which direct messages."""

    lines: list[str]
    dms: dict[str, list[str]]
    """For each member, texts of the direct messages the script expects them to get."""
    by_dm: set[str]
    by_view: set[str]
    by_mention: set[str]
    """Who acted from a direct message, from `/my …`, and from the channel's mention."""

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class _Writer:
    def __init__(self) -> None:
        self.timeline: list[_Timed] = []
        self.lists: dict[str, dict[int, ListedMatch]] = {c.url_id: {} for c in CLUBS}
        self.dms: dict[str, list[str]] = {}
        self.by_dm: set[str] = set()
        self.by_view: set[str] = set()
        self.by_mention: set[str] = set()

    def at(
        self, when: dt.datetime, steps: list[dict[str, Any]], comment: str | None = None
    ) -> None:
        self.timeline.append(_Timed(when, len(self.timeline), steps, comment))

    @staticmethod
    def serve(path: str, payload: Any) -> dict[str, Any]:
        return {"chesscom": {"path": f"/pub/{path}", "json": payload}}

    def listed(self, club: Club, item: ListedMatch) -> dict[str, Any]:
        self.lists[club.url_id][item.match_id] = item
        ordered = sorted(self.lists[club.url_id].values(), key=lambda m: m.match_id)
        return self.serve(f"club/{club.url_id}/matches", club_matches(ordered))

    def expect_dms(self, club: Club, text: str) -> None:
        """The club's admins should get a direct message containing `text`, or a mention."""
        for admin in club.admins:
            self.dms.setdefault(admin, []).append(text)

    # -- the season --------------------------------------------------------------------------

    def opening(self) -> None:
        steps: list[dict[str, Any]] = [
            {
                "as": "hq",
                "command": "setup set",
                "options": {
                    "hq_role": "&HQ",
                    "director_role": "&Directors",
                    "arbiter_role": "&Arbiters",
                    "announcements": "#announcements",
                    "directors_channel": "#directors",
                },
            },
            {"expect": {"error": None}},
            {"close_dms": CLOSED},
        ]
        for admin, kinds in OPTED_IN.items():
            for kind in kinds:
                steps += [
                    {"as": admin, "command": "notify", "options": {"kind": kind, "on": True}},
                    {"expect": {"ephemeral": True, "error": None}},
                ]
        for number, club in enumerate(CLUBS):
            steps.append(self.serve(f"club/{club.url_id}", club_profile(club)))
            steps.append(self.serve(f"club/{club.url_id}/matches", club_matches([])))
            for offset, player in enumerate(club.players):
                profile = player_profile(player, 10 * number + offset)
                steps.append(self.serve(f"player/{player.username}", profile))
                steps.append(self.serve(f"player/{player.username}/stats", player_stats(player)))
            steps += [
                {
                    "as": club.admins[0],
                    "command": "club register",
                    "options": {"chesscom_club": club.url_id, "admin2": f"@{club.admins[1]}"},
                },
                {"expect": {"error": None}},
                {"as": "hq", "command": "club approve", "options": {"club": club.name}},
                {"expect": {"error": None}},
            ]
        self.at(START, steps, "set-up: four clubs register and HQ approves them")
        season: list[dict[str, Any]] = [
            {
                "as": "hq",
                "command": "season create",
                "options": {"name": SEASON, "first_round": FIRST_ROUND.isoformat()},
            },
            {"expect": {"error": None}},
        ]
        for club in CLUBS:
            season += [
                {
                    "as": "hq",
                    "command": "season club-add",
                    "options": {
                        "season": SEASON,
                        "division": "Premier Division",
                        "club": club.name,
                    },
                },
                {"expect": {"error": None}},
            ]
        season += [
            {"as": "hq", "command": "season schedule", "options": {"season": SEASON}},
            {"as": "hq", "click": {"message": "last", "button": "Confirm"}},
            {"expect": {"error": None, "posts_contain": "is scheduled: 6 matches"}},
        ]
        self.at(START + dt.timedelta(days=1), season, "HQ creates and schedules the season")

    def challenge(self, f: Fixture) -> None:
        """CL-15: the home club records its challenge and the other accepts it.

        Each does it from the direct message that asked, or, for Chelsea, from `/my matches`.
        Fulham's second admin, whose direct messages are closed, accepts match 5 from the
        channel's mention of him. The bot restarts between match 1's challenge and its
        acceptance, which is clicked on the direct message sent before the restart.
        """
        issuer, other = f.home, f.away
        registration = team_match(
            f.chesscom, f.name, issuer, other, f.boards(), "registration", f.start, {}
        )
        issue_at = f.deadline - dt.timedelta(hours=47)
        asked = f"**{issuer.name}** vs **{other.name}** (match {f.number})"
        self.expect_dms(issuer, f"the chess.com challenge of {asked} must be issued")
        self.expect_dms(other, f"the chess.com challenge of {asked} must be issued")
        steps = [
            self.serve(f"match/{f.chesscom}", registration),
            self.listed(issuer, ListedMatch(f.chesscom, f.name, other, f.start, "registered")),
            self.listed(other, ListedMatch(f.chesscom, f.name, issuer, f.start, "registered")),
            *self.act(issuer.admins[0], f.number, "challenge", {FIELD: str(f.chesscom)}),
        ]
        self.expect_dms(other, f"**{issuer.name}** issued the chess.com challenge of {asked}")
        self.at(issue_at, steps, f"match {f.number}: {issuer.name} records its challenge")
        accept: list[dict[str, Any]] = []
        if f.number == 1:
            accept.append({"restart": {}})
        acceptor = CLOSED if CLOSED in other.admins and f.number == 5 else other.admins[0]
        accept += self.act(acceptor, f.number, "accept")
        self.at(issue_at + dt.timedelta(hours=6), accept, f"match {f.number}: {other.name} accepts")

    def act(
        self, admin: str, match: int, action: str, fields: dict[str, str] | None = None
    ) -> list[dict[str, Any]]:
        """`admin` records or accepts a challenge: from the direct message about the match, from
        `/my matches` for Chelsea, or from the channel's mention of an admin whose DMs are closed.
        """
        label = LABELS[action]
        click: dict[str, Any] = {"button": label, "containing": f"(match {match})"}
        steps: list[dict[str, Any]] = []
        if admin == CLOSED:
            click |= {"message": "last", "containing": f"@{admin}, I could not send you a"}
            self.by_mention.add(admin)
        elif admin in _club_named("Chelsea").admins:
            steps.append({"as": admin, "command": "my matches"})
            click = {"message": "last", "button": f"#{match} {label}"}
            self.by_view.add(admin)
        else:
            click["dm"] = "last"
            self.by_dm.add(admin)
        if fields is not None:
            click["fields"] = fields
        steps += [{"as": admin, "click": click}, {"expect": {"error": None}}]
        return steps

    def play(self, f: Fixture) -> None:
        """The match on chess.com: in progress before its start, finished five days later."""
        boards = f.boards()
        running = team_match(f.chesscom, f.name, f.home, f.away, boards, "in_progress", f.start, {})
        steps = [
            self.serve(f"match/{f.chesscom}", running),
            self.listed(f.home, ListedMatch(f.chesscom, f.name, f.away, f.start, "in_progress")),
            self.listed(f.away, ListedMatch(f.chesscom, f.name, f.home, f.start, "in_progress")),
        ]
        self.at(f.start - dt.timedelta(hours=1), steps)
        end = f.start + dt.timedelta(days=5)
        finished = team_match(
            f.chesscom, f.name, f.home, f.away, boards, "finished", f.start, {}, end
        )
        mine = f.home_points
        result = "win" if mine > 4 else "lose" if mine < 4 else "draw"
        flipped = {"win": "lose", "lose": "win", "draw": "draw"}[result]
        steps = [
            self.serve(f"match/{f.chesscom}", finished),
            self.listed(
                f.home, ListedMatch(f.chesscom, f.name, f.away, f.start, "finished", result)
            ),
            self.listed(
                f.away, ListedMatch(f.chesscom, f.name, f.home, f.start, "finished", flipped)
            ),
        ]
        self.at(end, steps)

    def motion(self) -> None:
        """CL-21: Everton removes a player for a reason the bot cannot verify, and the directors
        pass the motion it opens, so Everton forfeits its next match.

        One votes from the direct message that opened it, one from `/my votes`, and the last
        from the direct message saying the motion closes before her vote is in.
        """
        everton = _club_named("Everton")
        when = dt.datetime(2017, 9, 17, 20, tzinfo=dt.UTC)
        removal: list[dict[str, Any]] = [
            {
                "as": everton.admins[0],
                "command": "roster remove",
                "options": {
                    "club": everton.name,
                    "player": everton.players[-1].username,
                    "reason": "other",
                    "note": "inactive",
                },
            },
            {"expect": {"error": None}},
        ]
        first, second, last = DIRECTORS
        motion = "Motion 1 · forfeit: match 6"
        removal += [
            {"as": first, "click": {"dm": "last", "button": "Yes", "containing": motion}},
            {"expect": {"error": None, "contains": "Your vote on motion 1: yes"}},
            {"as": second, "command": "my votes"},
            {"as": second, "click": {"message": "last", "button": "Yes #1"}},
            {"expect": {"error": None, "contains": "Your vote on motion 1: yes"}},
        ]
        self.by_dm.add(first)
        self.by_view.add(second)
        self.by_dm.add(last)
        for director in DIRECTORS:
            self.dms.setdefault(director, []).append("is open and awaits your vote")
        self.dms.setdefault(last, []).append("your vote is not in")
        self.at(when, removal, "CL-21: Everton removes a player; the directors vote")
        late: list[dict[str, Any]] = [
            {
                "as": last,
                "click": {"dm": "last", "button": "Yes", "containing": "your vote is not in"},
            },
            {"expect": {"error": None, "contains": "The motion is closed: passed."}},
        ]
        self.at(when + dt.timedelta(hours=61), late, "the last director votes before the close")

    def closing(self) -> None:
        last = max(f.start for f in FIXTURES)
        steps: list[dict[str, Any]] = [
            {"as": "zed", "command": "standings", "options": {"season": SEASON}},
            {"expect": {"error": None}},
        ]
        self.at(last + dt.timedelta(days=14), steps, "the final standings")

    def write(self) -> LeagueStory:
        self.opening()
        for f in FIXTURES:
            self.challenge(f)
            self.play(f)
        self.motion()
        self.closing()
        members = [{"name": "hq", "roles": ["HQ"], "manage_guild": True}]
        members += [{"name": d, "roles": ["Directors"]} for d in DIRECTORS]
        members.append({"name": "arbi", "roles": ["Arbiters"]})
        members += [{"name": admin} for club in CLUBS for admin in club.admins]
        members.append({"name": "zed"})
        header = {
            "replay": 1,
            "start": _instant(START),
            "guild": {
                "name": GUILD,
                "roles": ["HQ", "Directors", "Arbiters"],
                "channels": ["general", "announcements", "directors"],
            },
            "members": members,
            "config": {
                "rules": {"cl": {"min_players": [2, 2, 2], "promoted": 1, "relegated": 1}},
                "chesscom": {"poll_minutes": 1440},
            },
        }
        lines = [
            "// Issue 36's story: a season acted on only from direct messages and /my views",
            "// (generated by tests/support/notified_story.py).",
            json.dumps(header),
        ]
        clock = START
        for timed in sorted(self.timeline):
            if timed.comment:
                lines.append(f"// {timed.comment}")
            if timed.at > clock:
                clock = timed.at
                lines.append(json.dumps({"at": _instant(clock)}))
            lines += [json.dumps(step) for step in timed.steps]
        return LeagueStory(lines, self.dms, self.by_dm, self.by_view, self.by_mention)


def league_story() -> LeagueStory:
    """The league story's script."""
    return _Writer().write()
