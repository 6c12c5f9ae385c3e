"""The CL team league, CL-1 to CL-23: season facts go in, and forfeits, adjustments,
disqualifications, standings and the promotion proposal come out.
"""

from core.league.promotion import Move, Proposal, promotion_proposal
from core.league.report import LeagueReport, end_of_day, league_report

__all__ = [
    "LeagueReport",
    "Move",
    "Proposal",
    "end_of_day",
    "league_report",
    "promotion_proposal",
]
