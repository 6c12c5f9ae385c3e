"""Pydantic models of the chess.com Published-Data API payloads Arbiter reads.

Every model tolerates missing keys and ignores unknown ones, because the API omits keys freely. Most
matches have no `settings`, a `played_as_*` key is missing until that game ends, and `chess_daily`
is missing for a player who never played daily chess. Usernames compare case-insensitively through
`username_key`.
"""

from __future__ import annotations

import functools
from datetime import datetime
from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field

from bot.formats.numbers import HalfPoints, Username
from core.results import STANDARD, Outcome

REGISTRATION = "registration"
IN_PROGRESS = "in_progress"
FINISHED = "finished"
SCHEDULED = "scheduled"
STARTED_STATUSES = frozenset({IN_PROGRESS, FINISHED})
"""Match statuses in which the boards are set and games are being or were played."""

DRAW_CODES = frozenset(
    {"agreed", "repetition", "stalemate", "insufficient", "50move", "timevsinsufficient"}
)
"""Game result codes worth ½ to the player they are reported for."""

WIN_CODE = "win"
FAIR_PLAY_STATUS = "closed:fair_play_violations"


def username_key(name: str) -> str:
    """The form under which two chess.com usernames are equal. They compare case-insensitively."""
    return name.casefold()


def game_outcome(code: str) -> Outcome:
    """CORE-2: what a chess.com result code means for the player it is reported for.

    `win` is a win. `agreed`, `repetition`, `stalemate`, `insufficient`, `50move` and
    `timevsinsufficient` are draws. Every other code, such as `timeout` or `resigned`, is a loss.
    """
    code = code.strip().lower()
    if code == WIN_CODE:
        return Outcome.WIN
    if code in DRAW_CODES:
        return Outcome.DRAW
    return Outcome.LOSS


def game_points(code: str) -> Fraction:
    """Points a player scored in one game from its result code: win 1, the draws ½, else 0."""
    return STANDARD.points(game_outcome(code))


_HALVES = {outcome: int(2 * STANDARD.points(outcome)) for outcome in Outcome}
"""`STANDARD`'s points of each outcome in whole half-points, since CORE-1 scores halves."""


@functools.lru_cache(maxsize=256)
def game_halves(code: str) -> int:
    """`game_points` in half-points: a win 2, a draw 1, else 0.

    The integers sum into whole boards. They are kept per code, since a match reads a few codes many
    times.
    """
    return _HALVES[game_outcome(code)]


def is_closed_status(status: str | None) -> bool:
    """CL-19: True for a closed account, meaning any status starting with `closed`."""
    return status is not None and status.strip().lower().startswith("closed")


def is_fair_play_status(status: str | None) -> bool:
    """True for an account closed for fair-play violations."""
    return status is not None and status.strip().lower() == FAIR_PLAY_STATUS


def last_segment(url: str | None) -> str | None:
    """The last path segment of an API URL, such as a club url-id, a username or a board number."""
    if not url:
        return None
    segment = url.rstrip("/").rsplit("/", 1)[-1]
    return segment or None


class _Payload(BaseModel):
    """Base of API payload models: immutable, unknown keys ignored, `@id` read as `api_id`."""

    model_config = ConfigDict(frozen=True, extra="ignore", populate_by_name=True)


class MatchSettings(_Payload):
    """A team match's settings, where any key may be missing.

    Daily time controls are strings such as `"1/259200"`. Live ones are an integer of seconds plus
    `time_increment`.
    """

    rules: str | None = None
    time_class: str | None = None
    time_control: str | int | None = None
    time_increment: int | None = None
    min_team_players: int | None = None
    max_team_players: int | None = None
    min_required_games: int | None = None
    min_rating: int | None = None
    max_rating: int | None = None
    autostart: bool | None = None


class MatchPlayer(_Payload):
    """A player of a team match.

    In registration it holds the rating, timeout_percent and status. Once started it holds the board
    URL, the status and `played_as_white` or `played_as_black` once each game ends. The username
    passes the one name gate in `core.names`, as every door's do. A payload with another is refused
    rather than stored as a player no command can name.
    """

    username: Username
    status: str | None = None
    board: str | None = None
    stats: str | None = None
    played_as_white: str | None = None
    played_as_black: str | None = None
    rating: int | None = None
    timeout_percent: float | None = None

    @functools.cached_property
    def board_number(self) -> int | None:
        """The board number, which the board URL ends in, or None before the match started."""
        segment = last_segment(self.board)
        return int(segment) if segment and segment.isdigit() else None

    @property
    def is_closed(self) -> bool:
        """True when the account is closed, by CL-19."""
        return is_closed_status(self.status)


class MatchTeam(_Payload):
    """One club's side of a team match: its players, score, fair-play removals and result."""

    api_id: str | None = Field(None, alias="@id")
    name: str = ""
    url: str | None = None
    score: HalfPoints | None = None
    result: str | None = None
    players: list[MatchPlayer] = Field(default_factory=list)
    fair_play_removals: list[str] = Field(default_factory=list)

    @property
    def url_id(self) -> str | None:
        """The club's url-id, such as `team-romania`, taken from its API or web URL."""
        return last_segment(self.api_id) or last_segment(self.url)


class TeamMatch(_Payload):
    """A daily or live team match, from `/match/{id}` or `/match/live/{id}`."""

    api_id: str | None = Field(None, alias="@id")
    name: str = ""
    url: str | None = None
    description: str | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    status: str = ""
    boards: int | None = None
    settings: MatchSettings = Field(default_factory=MatchSettings)
    teams: dict[str, MatchTeam] = Field(default_factory=dict)

    @property
    def team1(self) -> MatchTeam | None:
        """The first club, which on chess.com is the club that created the challenge."""
        return self.teams.get("team1")

    @property
    def team2(self) -> MatchTeam | None:
        """The second club, or None when the payload does not list it yet."""
        return self.teams.get("team2")

    @property
    def match_id(self) -> str | None:
        """The chess.com match id, the last segment of `@id`."""
        return last_segment(self.api_id) or last_segment(self.url)

    @property
    def is_live(self) -> bool:
        """True for a live team match, whose URL has `/live/`."""
        return "/live/" in (self.api_id or self.url or "")

    @property
    def started(self) -> bool:
        """True once the boards are set, `in_progress` or `finished`."""
        return self.status in STARTED_STATUSES


class BoardGamePlayer(_Payload):
    """A side of one game on a match board."""

    username: str = ""
    rating: int | None = None
    result: str | None = None


class BoardGame(_Payload):
    """One game of a match board. `end_time` and results are absent while it runs."""

    url: str | None = None
    time_class: str | None = None
    time_control: str | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    rated: bool | None = None
    white: BoardGamePlayer = Field(default_factory=BoardGamePlayer)
    black: BoardGamePlayer = Field(default_factory=BoardGamePlayer)


class ArchiveGame(BoardGame):
    """A game of a player's monthly archive at `/player/{name}/games/{YYYY}/{MM}`.

    It is a finished live or daily game with its PGN and its variant in `rules`, which is `chess`
    for standard chess. `initial_setup` is the FEN of the position it started from.
    """

    pgn: str | None = None
    rules: str | None = None
    uuid: str | None = None
    initial_setup: str | None = None
    fen: str | None = None


class GameArchive(_Payload):
    """A player's monthly game archive: the games they finished that month, oldest first."""

    games: list[ArchiveGame] = Field(default_factory=list)


class MatchBoard(_Payload):
    """A board of a team match at `/match/{id}/{board}`: each player's board score and games."""

    board_scores: dict[str, HalfPoints] = Field(default_factory=dict)
    games: list[BoardGame] = Field(default_factory=list)


class ClubProfile(_Payload):
    """A club's profile at `/club/{url-id}`: member count, average daily rating and admins."""

    api_id: str | None = Field(None, alias="@id")
    name: str = ""
    club_id: int | None = None
    url: str | None = None
    average_daily_rating: float | None = None
    members_count: int | None = None
    created: datetime | None = None
    last_activity: datetime | None = None
    admin: list[str] = Field(default_factory=list)
    visibility: str | None = None

    @property
    def url_id(self) -> str | None:
        """The club's url-id."""
        return last_segment(self.api_id) or last_segment(self.url)

    @property
    def admins(self) -> list[str]:
        """The admins' usernames. The API lists player URLs."""
        return [name for name in (last_segment(url) for url in self.admin) if name]


class ClubMember(_Payload):
    """A club member and when they joined."""

    username: str
    joined: datetime | None = None


class ClubMembers(_Payload):
    """A club's members at `/club/{url-id}/members`, in disjoint activity groups."""

    weekly: list[ClubMember] = Field(default_factory=list)
    monthly: list[ClubMember] = Field(default_factory=list)
    all_time: list[ClubMember] = Field(default_factory=list)

    @property
    def all(self) -> list[ClubMember]:
        """Every member once. The groups are disjoint, but duplicates are dropped all the same."""
        seen: set[str] = set()
        members: list[ClubMember] = []
        for member in [*self.weekly, *self.monthly, *self.all_time]:
            key = username_key(member.username)
            if key not in seen:
                seen.add(key)
                members.append(member)
        return members


class ClubMatch(_Payload):
    """A team match in a club's match list."""

    api_id: str | None = Field(None, alias="@id")
    name: str = ""
    opponent: str | None = None
    start_time: datetime | None = None
    time_class: str | None = None
    result: str | None = None

    @property
    def match_id(self) -> str | None:
        """The chess.com match id."""
        return last_segment(self.api_id)


class ClubMatches(_Payload):
    """A club's team matches at `/club/{url-id}/matches`, by state."""

    finished: list[ClubMatch] = Field(default_factory=list)
    in_progress: list[ClubMatch] = Field(default_factory=list)
    registered: list[ClubMatch] = Field(default_factory=list)


class PlayerProfile(_Payload):
    """A player's profile at `/player/{name}`. By CL-19 `status` tells a closed account."""

    api_id: str | None = Field(None, alias="@id")
    username: str = ""
    player_id: int | None = None
    url: str | None = None
    name: str | None = None
    status: str | None = None
    joined: datetime | None = None
    last_online: datetime | None = None

    @property
    def is_closed(self) -> bool:
        """CL-19: True when the account is closed, with any `closed…` status."""
        return is_closed_status(self.status)

    @property
    def is_fair_play_closed(self) -> bool:
        """True when the account was closed for fair-play violations."""
        return is_fair_play_status(self.status)


class Rating(_Payload):
    """A rating at a date."""

    rating: int | None = None
    date: datetime | None = None
    rd: int | None = None


class GameRecord(_Payload):
    """Win, loss and draw counts. Daily modes add time per move and the timeout percentage."""

    win: int | None = None
    loss: int | None = None
    draw: int | None = None
    time_per_move: int | None = None
    timeout_percent: float | None = None


class ModeStats(_Payload):
    """A player's statistics in one game mode."""

    last: Rating | None = None
    best: Rating | None = None
    record: GameRecord | None = None


class PlayerStats(_Payload):
    """A player's statistics at `/player/{name}/stats`.

    `chess_daily` is absent for a player who never played daily chess.
    """

    chess_daily: ModeStats | None = None
    chess960_daily: ModeStats | None = None
    chess_rapid: ModeStats | None = None
    chess_blitz: ModeStats | None = None
    chess_bullet: ModeStats | None = None

    @property
    def daily_rating(self) -> int | None:
        """The current daily rating, or None for a player without daily games."""
        daily = self.chess_daily
        return daily.last.rating if daily and daily.last else None

    @property
    def daily_timeout_percent(self) -> float | None:
        """The daily timeout percentage for CL-21's 25 % threshold, or None without daily games."""
        daily = self.chess_daily
        return daily.record.timeout_percent if daily and daily.record else None
