"""The kinds of direct message a member can choose with `/notify`, and who each is for.

A kind is on by default only when it asks this member to act: a challenge their club must issue
or accept, a game report awaiting their confirmation, a motion awaiting their vote. The others
are off until the member turns them on. A member's choice is stored per guild.
"""

from __future__ import annotations

import enum


class Audience(enum.Enum):
    """Who a kind of direct message is for."""

    CLUB_ADMINS = "club admins"
    PLAYERS = "tour players"
    DIRECTORS = "directors"


class Kind(enum.Enum):
    """A kind of direct message: its stored name, its audience, its default and its line."""

    CHALLENGE = ("challenge", Audience.CLUB_ADMINS, True, "my club's challenge to issue or accept")
    MATCH_START = ("match-start", Audience.CLUB_ADMINS, False, "my club's match starting")
    MATCH_RESULT = ("match-result", Audience.CLUB_ADMINS, False, "my club's result counted")
    FORFEIT = ("forfeit", Audience.CLUB_ADMINS, False, "a forfeit or disqualification of my club")
    SESSION = ("session", Audience.PLAYERS, False, "my next game's session approaching")
    CONFIRM = ("confirm", Audience.PLAYERS, True, "a report on my game awaiting my confirmation")
    GAME_OUTCOME = ("game-outcome", Audience.PLAYERS, False, "my game confirmed or disputed")
    APPEAL = ("appeal", Audience.PLAYERS, False, "an appeal I lodged decided")
    VOTE = ("vote", Audience.DIRECTORS, True, "a motion awaiting my vote")
    VOTE_CLOSING = ("vote-closing", Audience.DIRECTORS, True, "a motion closing before my vote")

    def __init__(self, key: str, audience: Audience, default: bool, line: str) -> None:
        self.key = key
        self.audience = audience
        self.default = default
        self.line = line

    @classmethod
    def named(cls, key: str) -> Kind | None:
        """The kind stored as `key`, or None for a name Arbiter does not know."""
        return next((kind for kind in cls if kind.key == key), None)


def wants(kind: Kind, choices: dict[str, bool]) -> bool:
    """Whether a member with the stored `choices` gets `kind` by direct message."""
    return choices.get(kind.key, kind.default)
