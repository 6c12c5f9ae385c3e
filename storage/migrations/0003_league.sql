-- The CL league as facts: clubs, seasons, divisions, matches, boards, at-start facts, closed
-- accounts, rosters and director decisions. Every row belongs to one guild (guild_id) and
-- every link between rows carries the guild_id too (composite foreign keys), so a row can
-- never point at another guild's club, season or match. Constraints make impossible states
-- unstorable: a club in two divisions of a season, a board number twice in a match, board
-- points not adding up to 2 × the season's games per board, a match between clubs of
-- different divisions, a challenge issued by a club not in the match.

-- Clubs (CL-2..4). `chesscom_id` is the chess.com url-id (NULL for a club imported from a
-- season file without one); `name_key` is the display name case-folded (unique per guild).
CREATE TABLE clubs (
    id                  INTEGER PRIMARY KEY,
    guild_id            INTEGER NOT NULL,
    chesscom_id         TEXT    CHECK (chesscom_id IS NULL
                                       OR (chesscom_id <> '' AND chesscom_id = lower(trim(chesscom_id)))),
    name                TEXT    NOT NULL CHECK (name <> ''),
    name_key            TEXT    NOT NULL CHECK (name_key <> ''),
    status              TEXT    NOT NULL DEFAULT 'pending'
                        CHECK (status IN ('pending', 'approved', 'rejected', 'excluded', 'withdrawn')),
    decided_by          INTEGER,           -- Discord user id of the last decision (NULL: the bot / cli)
    decided_at          TEXT,              -- ISO 8601 UTC of the last decision
    reason              TEXT,              -- why (a rejection, an exclusion …)
    reminder_channel_id INTEGER,           -- where the club's reminders go (NULL: announcements)
    registered_by       INTEGER,
    created_at          TEXT    NOT NULL,
    UNIQUE (guild_id, id),
    CHECK (status = 'pending' OR decided_at IS NOT NULL)
);
CREATE UNIQUE INDEX clubs_name ON clubs (guild_id, name_key);
CREATE UNIQUE INDEX clubs_chesscom ON clubs (guild_id, chesscom_id) WHERE chesscom_id IS NOT NULL;

-- Club admins become links to club rows. Every club url-id admins were linked to before this
-- migration becomes a pending club of that guild (name = url-id), which HQ decides as any new
-- registration; the links themselves are kept as they were.
INSERT INTO clubs (guild_id, chesscom_id, name, name_key, status, created_at)
    SELECT guild_id, club, club, lower(club), 'pending', min(added_at)
    FROM club_admins GROUP BY guild_id, club;
ALTER TABLE club_admins RENAME TO club_admins_by_url;
CREATE TABLE club_admins (
    guild_id    INTEGER NOT NULL,
    club_id     INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    added_at    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, club_id, user_id),
    FOREIGN KEY (guild_id, club_id) REFERENCES clubs (guild_id, id) ON DELETE CASCADE
);
INSERT INTO club_admins (guild_id, club_id, user_id, added_at)
    SELECT a.guild_id, c.id, a.user_id, a.added_at
    FROM club_admins_by_url AS a
    JOIN clubs AS c ON c.guild_id = a.guild_id AND c.chesscom_id = a.club;
DROP TABLE club_admins_by_url;
CREATE INDEX club_admins_user ON club_admins (guild_id, user_id);

-- Seasons: rule values frozen at creation (CCT-16), a round calendar (first round + round
-- days, or explicit dates as a JSON list), and a version bumped by every unit of work that
-- changes anything of the season (the standings cache is keyed by it).
CREATE TABLE seasons (
    id                       INTEGER PRIMARY KEY,
    guild_id                 INTEGER NOT NULL,
    name                     TEXT    NOT NULL CHECK (name <> ''),
    name_key                 TEXT    NOT NULL CHECK (name_key <> ''),
    status                   TEXT    NOT NULL DEFAULT 'setup'
                             CHECK (status IN ('setup', 'scheduled', 'finished')),
    games_per_board          INTEGER NOT NULL CHECK (games_per_board >= 1),
    challenge_deadline_hours INTEGER NOT NULL CHECK (challenge_deadline_hours >= 0),
    max_members              INTEGER NOT NULL CHECK (max_members >= 1),
    max_avg_rating           REAL    NOT NULL CHECK (max_avg_rating > 0),
    forfeits_to_disqualify   INTEGER NOT NULL CHECK (forfeits_to_disqualify >= 1),
    promotion_places         INTEGER NOT NULL CHECK (promotion_places >= 0),
    divisions_cutoff         TEXT,             -- YYYY-MM-DD (CL-1) or NULL
    first_round              TEXT,             -- YYYY-MM-DD or NULL
    round_days               INTEGER NOT NULL DEFAULT 7 CHECK (round_days >= 1),
    round_dates              TEXT    CHECK (round_dates IS NULL OR json_valid(round_dates)),
    version                  INTEGER NOT NULL DEFAULT 0,
    created_by               INTEGER,
    created_at               TEXT    NOT NULL,
    UNIQUE (guild_id, id),
    UNIQUE (guild_id, id, games_per_board)    -- boards check their points against it
);
CREATE UNIQUE INDEX seasons_name ON seasons (guild_id, name_key);

-- Divisions (CL-7) in the season's order, best first (position 1 is the top division).
CREATE TABLE divisions (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    season_id   INTEGER NOT NULL,
    position    INTEGER NOT NULL CHECK (position >= 1),
    name        TEXT    NOT NULL CHECK (name <> ''),
    min_players INTEGER NOT NULL CHECK (min_players >= 1),
    UNIQUE (season_id, position),
    UNIQUE (season_id, name),
    UNIQUE (guild_id, season_id, id),
    FOREIGN KEY (guild_id, season_id) REFERENCES seasons (guild_id, id) ON DELETE CASCADE
);

-- A club plays in at most one division of a season (the primary key). `position` is the
-- club's pairing order in its division; `withdrawn` marks a club not continuing (CL-8).
CREATE TABLE division_clubs (
    guild_id    INTEGER NOT NULL,
    season_id   INTEGER NOT NULL,
    division_id INTEGER NOT NULL,
    club_id     INTEGER NOT NULL,
    position    INTEGER NOT NULL CHECK (position >= 1),
    withdrawn   INTEGER NOT NULL DEFAULT 0 CHECK (withdrawn IN (0, 1)),
    PRIMARY KEY (season_id, club_id),
    UNIQUE (division_id, position),
    UNIQUE (guild_id, season_id, division_id, club_id),
    FOREIGN KEY (guild_id, season_id, division_id)
        REFERENCES divisions (guild_id, season_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, club_id) REFERENCES clubs (guild_id, id)
);
CREATE INDEX division_clubs_club ON division_clubs (guild_id, club_id);

-- Matches (CL-12..15): both clubs members of the match's division (foreign keys into
-- division_clubs); `key` is the match's id in the season file (unique in the season).
-- A challenge's issue and acceptance each say how it was learned.
CREATE TABLE matches (
    id                INTEGER PRIMARY KEY,
    guild_id          INTEGER NOT NULL,
    season_id         INTEGER NOT NULL,
    division_id       INTEGER NOT NULL,
    key               TEXT    NOT NULL CHECK (key <> ''),
    round             INTEGER NOT NULL CHECK (round >= 1),
    home_club_id      INTEGER NOT NULL,
    away_club_id      INTEGER NOT NULL,
    start             TEXT    NOT NULL,        -- ISO 8601 UTC
    games_per_board   INTEGER NOT NULL,        -- the season's (foreign key): boards check against it
    chesscom_match_id INTEGER,
    issued_by_club_id INTEGER,
    issued_at         TEXT,
    issued_source     TEXT    CHECK (issued_source IN ('declared', 'chesscom', 'director')),
    accepted_at       TEXT,
    accepted_source   TEXT    CHECK (accepted_source IN ('declared', 'chesscom', 'director')),
    finished_at       TEXT,
    UNIQUE (season_id, key),
    UNIQUE (guild_id, id),
    UNIQUE (guild_id, id, games_per_board),
    CHECK (home_club_id <> away_club_id),
    CHECK ((issued_by_club_id IS NULL) = (issued_at IS NULL)
           AND (issued_at IS NULL) = (issued_source IS NULL)),
    CHECK (issued_by_club_id IS NULL OR issued_by_club_id IN (home_club_id, away_club_id)),
    CHECK ((accepted_at IS NULL) = (accepted_source IS NULL)),
    CHECK (accepted_at IS NULL OR issued_at IS NOT NULL),
    FOREIGN KEY (guild_id, season_id, games_per_board)
        REFERENCES seasons (guild_id, id, games_per_board) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, season_id, division_id)
        REFERENCES divisions (guild_id, season_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, season_id, division_id, home_club_id)
        REFERENCES division_clubs (guild_id, season_id, division_id, club_id),
    FOREIGN KEY (guild_id, season_id, division_id, away_club_id)
        REFERENCES division_clubs (guild_id, season_id, division_id, club_id)
);
CREATE INDEX matches_season ON matches (guild_id, season_id, start);
CREATE INDEX matches_division ON matches (guild_id, season_id, division_id);
CREATE INDEX matches_home ON matches (guild_id, season_id, division_id, home_club_id);
CREATE INDEX matches_away ON matches (guild_id, season_id, division_id, away_club_id);
CREATE UNIQUE INDEX matches_chesscom ON matches (guild_id, chesscom_match_id)
    WHERE chesscom_match_id IS NOT NULL;

-- A club's facts at match start (CL-5, CL-6, CL-20); the club must play the match.
CREATE TABLE match_at_start (
    guild_id    INTEGER NOT NULL,
    match_id    INTEGER NOT NULL,
    club_id     INTEGER NOT NULL,
    members     INTEGER CHECK (members >= 0),
    avg_rating  REAL    CHECK (avg_rating >= 0),   -- the daily average as given (a double)
    players     INTEGER CHECK (players >= 0),
    observed_at TEXT,                              -- when the snapshot was taken (NULL: unknown)
    PRIMARY KEY (match_id, club_id),
    FOREIGN KEY (guild_id, match_id) REFERENCES matches (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, club_id) REFERENCES clubs (guild_id, id)
);
CREATE TRIGGER match_at_start_club_plays BEFORE INSERT ON match_at_start
WHEN NOT EXISTS (SELECT 1 FROM matches WHERE id = NEW.match_id
                 AND NEW.club_id IN (home_club_id, away_club_id))
BEGIN
    SELECT RAISE(ABORT, 'at-start facts of a club that does not play the match');
END;

-- Boards (CL-14): points as integer half-points adding up to 2 × the season's games per
-- board (carried from the season through the match by foreign keys); a board number once
-- per match (the primary key). Players are chess.com usernames as given.
CREATE TABLE boards (
    guild_id        INTEGER NOT NULL,
    match_id        INTEGER NOT NULL,
    board           INTEGER NOT NULL CHECK (board >= 1),
    home_player     TEXT    NOT NULL CHECK (home_player <> ''),
    away_player     TEXT    NOT NULL CHECK (away_player <> ''),
    home_half       INTEGER NOT NULL CHECK (home_half >= 0),
    away_half       INTEGER NOT NULL CHECK (away_half >= 0),
    games_per_board INTEGER NOT NULL,
    PRIMARY KEY (match_id, board),
    CHECK (home_half + away_half = 2 * games_per_board),
    FOREIGN KEY (guild_id, match_id, games_per_board)
        REFERENCES matches (guild_id, id, games_per_board) ON DELETE CASCADE
) WITHOUT ROWID;

-- Closed chess.com accounts of a season (CL-19): when the bot saw them and the status text.
CREATE TABLE closed_accounts (
    guild_id     INTEGER NOT NULL,
    season_id    INTEGER NOT NULL,
    username     TEXT    NOT NULL CHECK (username <> ''),
    username_key TEXT    NOT NULL,
    seen_at      TEXT,
    status       TEXT,
    PRIMARY KEY (season_id, username_key),
    FOREIGN KEY (guild_id, season_id) REFERENCES seasons (guild_id, id) ON DELETE CASCADE
);

-- Roster links: a chess.com account belongs to at most one Discord user of a guild.
CREATE TABLE roster_links (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    username     TEXT    NOT NULL CHECK (username <> ''),
    username_key TEXT    NOT NULL,
    linked_by    INTEGER,
    linked_at    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, username_key)
);
CREATE INDEX roster_links_user ON roster_links (guild_id, user_id);

-- Roster removals (CL-18, CL-21): a club removes a player for a reason the bot verifies.
CREATE TABLE roster_removals (
    id           INTEGER PRIMARY KEY,
    guild_id     INTEGER NOT NULL,
    season_id    INTEGER NOT NULL,
    club_id      INTEGER NOT NULL,
    username     TEXT    NOT NULL CHECK (username <> ''),
    reason       TEXT    NOT NULL CHECK (reason IN ('multi-team', 'timeouts', 'other')),
    note         TEXT,
    verification TEXT    NOT NULL DEFAULT 'pending'
                 CHECK (verification IN ('pending', 'verified', 'refuted', 'motion')),
    requested_by INTEGER,
    requested_at TEXT    NOT NULL,
    FOREIGN KEY (guild_id, season_id) REFERENCES seasons (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, club_id) REFERENCES clubs (guild_id, id)
);
CREATE INDEX roster_removals_club ON roster_removals (guild_id, season_id, club_id);

-- Director decisions (CL-23): what was decided about whom under which rule, when (NULL: at
-- the match start), and the motion that passed it when there is one.
CREATE TABLE director_decisions (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    season_id   INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('forfeit', 'disqualification',
                                                 'result-correction', 'exclusion',
                                                 'division-makeup')),
    match_id    INTEGER,
    club_id     INTEGER,
    rule        TEXT    NOT NULL CHECK (rule <> ''),
    decided_at  TEXT,
    motion_id   INTEGER,
    note        TEXT,
    recorded_at TEXT    NOT NULL,
    CHECK (kind <> 'forfeit' OR (match_id IS NOT NULL AND club_id IS NOT NULL)),
    CHECK (kind NOT IN ('disqualification', 'exclusion') OR club_id IS NOT NULL),
    CHECK (kind <> 'result-correction' OR match_id IS NOT NULL),
    FOREIGN KEY (guild_id, season_id) REFERENCES seasons (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, match_id) REFERENCES matches (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, club_id) REFERENCES clubs (guild_id, id)
);
CREATE INDEX director_decisions_season ON director_decisions (guild_id, season_id, kind);
CREATE TRIGGER director_decisions_match_club BEFORE INSERT ON director_decisions
WHEN NEW.match_id IS NOT NULL AND (
    NOT EXISTS (SELECT 1 FROM matches WHERE id = NEW.match_id AND season_id = NEW.season_id)
    OR (NEW.club_id IS NOT NULL AND NOT EXISTS (
        SELECT 1 FROM matches WHERE id = NEW.match_id
        AND NEW.club_id IN (home_club_id, away_club_id))))
BEGIN
    SELECT RAISE(ABORT, 'a decision about a match of another season or a club not in it');
END;
