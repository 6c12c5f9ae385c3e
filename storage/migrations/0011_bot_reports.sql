-- A game the bot found on chess.com or lichess.org is reported by the bot itself
-- (`reported_side` 'system', `source` 'bot'): it waits for either player's Confirm or
-- Dispute, as a player's report waits for the opponent's. SQLite cannot change a CHECK, so
-- tour_games is rebuilt with the wider one; tour_overrides (the one table referring to it)
-- is set aside first and rebuilt after, so dropping the old table cascades to nothing.

CREATE TEMP TABLE saved_overrides AS SELECT * FROM tour_overrides;
DROP TABLE tour_overrides;

CREATE TABLE tour_games_new (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL,
    tour_id       INTEGER NOT NULL,
    event_id      INTEGER NOT NULL,
    stage         TEXT    NOT NULL CHECK (stage IN ('preliminary', 'knockout', 'finals')),
    contest       TEXT,
    round         INTEGER CHECK (round >= 1),
    board         INTEGER CHECK (board >= 1),
    phase         TEXT    NOT NULL DEFAULT 'rapid' CHECK (phase IN ('rapid', 'blitz', 'armageddon')),
    match_no      INTEGER CHECK (match_no IN (1, 2)),
    game_no       INTEGER NOT NULL DEFAULT 1 CHECK (game_no BETWEEN 1 AND 4),
    white_id      INTEGER NOT NULL,
    black_id      INTEGER NOT NULL,
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'reported', 'confirmed', 'disputed', 'decided')),
    result        TEXT    CHECK (result IN ('1-0', '1/2-1/2', '0-1', '+/-', '-/+', '-/-')),
    source        TEXT    CHECK (source IN ('player', 'arbiter', 'bot', 'import', 'incident')),
    reported_by   INTEGER,
    reported_side TEXT    CHECK (reported_side IN ('white', 'black', 'system')),
    reported_at   TEXT,
    settled_by    INTEGER,
    settled_at    TEXT,
    pgn           TEXT,
    source_ref    TEXT,
    early_draw    INTEGER NOT NULL DEFAULT 0 CHECK (early_draw IN (0, 1)),
    UNIQUE (guild_id, id),
    CHECK (white_id <> black_id),
    CHECK ((status = 'open') = (result IS NULL)),
    CHECK (status <> 'reported' OR reported_side IS NOT NULL),
    CHECK ((stage = 'preliminary') = (contest IS NULL)),
    CHECK (stage = 'knockout' OR (round IS NOT NULL AND board IS NOT NULL)),
    CHECK ((phase = 'rapid') = (match_no IS NOT NULL) OR stage = 'preliminary'),
    FOREIGN KEY (guild_id, tour_id, event_id)
        REFERENCES tour_events (guild_id, tour_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, tour_id, white_id) REFERENCES tour_players (guild_id, tour_id, id),
    FOREIGN KEY (guild_id, tour_id, black_id) REFERENCES tour_players (guild_id, tour_id, id)
);
INSERT INTO tour_games_new SELECT * FROM tour_games;
DROP TABLE tour_games;
ALTER TABLE tour_games_new RENAME TO tour_games;

CREATE UNIQUE INDEX tour_games_slot ON tour_games (
    event_id, stage, ifnull(contest, ''), ifnull(round, 0), ifnull(board, 0), phase,
    ifnull(match_no, 0), game_no
);
CREATE UNIQUE INDEX tour_games_source ON tour_games (guild_id, source_ref)
    WHERE source_ref IS NOT NULL;
CREATE INDEX tour_games_white ON tour_games (guild_id, white_id, status);
CREATE INDEX tour_games_black ON tour_games (guild_id, black_id, status);

CREATE TABLE tour_overrides (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    event_id    INTEGER NOT NULL,
    game_id     INTEGER NOT NULL,
    old_result  TEXT,
    new_result  TEXT    NOT NULL,
    ground      TEXT    NOT NULL,
    explanation TEXT    NOT NULL CHECK (explanation <> ''),
    expelled    TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(expelled)),
    arbiter_id  INTEGER,
    decided_at  TEXT    NOT NULL,
    FOREIGN KEY (guild_id, event_id) REFERENCES tour_events (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, game_id) REFERENCES tour_games (guild_id, id) ON DELETE CASCADE
);
INSERT INTO tour_overrides SELECT * FROM saved_overrides;
DROP TABLE saved_overrides;
CREATE INDEX tour_overrides_event ON tour_overrides (guild_id, event_id, id);
