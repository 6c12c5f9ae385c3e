"""chess.com Published-Data API: the client, its payload models, and season facts read from them."""

from bot.chesscom.client import (
    DEFAULT_BASE_URL,
    ChessComClient,
    ChessComSettings,
    ClientSettings,
)
from bot.chesscom.facts import FactsError, MatchFacts, Placement, club_at_start, match_facts
from bot.chesscom.reader import RatingSource, read_club_at_start, read_match

__all__ = [
    "DEFAULT_BASE_URL",
    "ChessComClient",
    "ChessComSettings",
    "ClientSettings",
    "FactsError",
    "MatchFacts",
    "Placement",
    "RatingSource",
    "club_at_start",
    "match_facts",
    "read_club_at_start",
    "read_match",
]
