-- CL-18: the boards a chess.com player played, found by their name (compared case-insensitively)
-- instead of by reading every board of the season: what each result import asks to know
-- whether its players also play for another club (`MatchReader.plays_elsewhere`). The name
-- comes first: a look-up by guild alone (every row of one guild) must not take these.
CREATE INDEX boards_home_player ON boards (lower(home_player), guild_id);
CREATE INDEX boards_away_player ON boards (lower(away_player), guild_id);
