"""The CCT individual tour (CCT-2..CCT-16): events, knock-out series, the Finals, tour points
and ranking, qualification, prizes, and the arbiter's rules for games."""
