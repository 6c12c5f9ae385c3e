"""The CCT individual tour, CCT-2 to CCT-16.

It covers events, knock-out series, the Finals, tour points and ranking, qualification, prizes and
the arbiter's rules for games.
"""
