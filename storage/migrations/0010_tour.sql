-- The CCT tour as facts: tours (rules frozen at creation, CCT-16), their players and
-- Ambassadors, events (type, size, dates, 3rd-place match, tie-break reading, the draw, the
-- knock-out start), each event's players (entry order, drawn pairing numbers, knock-out seeds,
-- an imported official place), the games with their report life cycle, knock-out series and
-- Finals matches (colour choices, or an imported outcome), disconnection incidents (CCT-10),
-- fair-play appeals (CCT-11), arbiter overrides (CCT-9) and event pins. Standings, placings,
-- tour points, ranking, qualification and prizes are derived by core/tour, never stored.
-- Every row belongs to one guild, and every link between rows carries the guild_id (and the
-- tour_id where a player must be of the event's tour), so no row can point at another's.

-- Where disputed results and CCT-7 flags go (NULL: the announcements channel).
ALTER TABLE guild_settings ADD COLUMN arbiters_channel_id INTEGER;

CREATE TABLE tours (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    name        TEXT    NOT NULL CHECK (name <> ''),
    name_key    TEXT    NOT NULL CHECK (name_key <> ''),
    rules       TEXT    NOT NULL CHECK (json_valid(rules)),   -- CCT-16: frozen at creation
    created_by  INTEGER,
    created_at  TEXT    NOT NULL,
    UNIQUE (guild_id, id)
);
CREATE UNIQUE INDEX tours_name ON tours (guild_id, name_key);

-- A tour's players: a name, optionally a linked member (one player per member per tour) and
-- chess.com / lichess usernames; Ambassadors (CCT-3, CCT-5); `expelled_at` once an arbiter
-- expelled the player (CCT-9: no prize, CCT-5).
CREATE TABLE tour_players (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    tour_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL CHECK (name <> ''),
    name_key    TEXT    NOT NULL CHECK (name_key <> ''),
    user_id     INTEGER,
    chesscom    TEXT    CHECK (chesscom IS NULL OR chesscom = lower(chesscom)),
    lichess     TEXT    CHECK (lichess IS NULL OR lichess = lower(lichess)),
    ambassador  INTEGER NOT NULL DEFAULT 0 CHECK (ambassador IN (0, 1)),
    expelled_at TEXT,
    created_at  TEXT    NOT NULL,
    UNIQUE (tour_id, name_key),
    UNIQUE (guild_id, id),
    UNIQUE (guild_id, tour_id, id),
    FOREIGN KEY (guild_id, tour_id) REFERENCES tours (guild_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX tour_players_user ON tour_players (tour_id, user_id) WHERE user_id IS NOT NULL;
CREATE INDEX tour_players_member ON tour_players (guild_id, user_id);

-- Events in tour order (position 1 first). `rules` freezes the event's own values (tour
-- points table, time controls) from its tour's (CCT-16). The draw (CCT-8a) is its seed
-- (NULL when the pairing numbers were drawn elsewhere and given), who drew and when;
-- `lots_seed` a drawing of lots for ties left after every criterion (CORE-3); the knock-out
-- start freezes the seeds (event_players.ko_seed). `version` goes up with every change.
CREATE TABLE tour_events (
    id                  INTEGER PRIMARY KEY,
    guild_id            INTEGER NOT NULL,
    tour_id             INTEGER NOT NULL,
    position            INTEGER NOT NULL CHECK (position >= 1),
    name                TEXT    NOT NULL CHECK (name <> ''),
    name_key            TEXT    NOT NULL CHECK (name_key <> ''),
    type                TEXT    NOT NULL CHECK (type IN ('regular', 'major', 'finals')),
    size                INTEGER NOT NULL CHECK (size BETWEEN 3 AND 24),
    start               TEXT    NOT NULL,          -- YYYY-MM-DD, day 1
    third_place_match   INTEGER NOT NULL DEFAULT 1 CHECK (third_place_match IN (0, 1)),
    tiebreaks           TEXT    NOT NULL DEFAULT 'cct' CHECK (tiebreaks IN ('cct', 'fide2024')),
    rules               TEXT    NOT NULL CHECK (json_valid(rules)),
    draw_seed           TEXT,
    drawn_by            INTEGER,
    drawn_at            TEXT,
    lots_seed           TEXT,
    knockout_started_at TEXT,
    knockout_started_by INTEGER,
    recorded            INTEGER NOT NULL DEFAULT 0 CHECK (recorded IN (0, 1)),  -- imported results
    version             INTEGER NOT NULL DEFAULT 1,
    created_by          INTEGER,
    created_at          TEXT    NOT NULL,
    UNIQUE (tour_id, position),
    UNIQUE (tour_id, name_key),
    UNIQUE (guild_id, id),
    UNIQUE (guild_id, tour_id, id),
    CHECK (draw_seed IS NULL OR drawn_at IS NOT NULL),
    CHECK (knockout_started_at IS NULL OR drawn_at IS NOT NULL),
    FOREIGN KEY (guild_id, tour_id) REFERENCES tours (guild_id, id) ON DELETE CASCADE
);
CREATE INDEX tour_events_guild ON tour_events (guild_id, tour_id, position);

-- An event's players: the order they were entered (the draw shuffles it, CCT-8a), the
-- pairing number drawn, the knock-out seed (places 1-8 when the knock-out started, CCT-8c),
-- and an imported official preliminary place.
CREATE TABLE event_players (
    guild_id       INTEGER NOT NULL,
    tour_id        INTEGER NOT NULL,
    event_id       INTEGER NOT NULL,
    player_id      INTEGER NOT NULL,
    entry_no       INTEGER NOT NULL CHECK (entry_no >= 1),
    pairing_no     INTEGER CHECK (pairing_no >= 1),
    ko_seed        INTEGER CHECK (ko_seed BETWEEN 1 AND 8),
    recorded_place INTEGER CHECK (recorded_place >= 1),
    PRIMARY KEY (event_id, player_id),
    UNIQUE (event_id, entry_no),
    UNIQUE (event_id, pairing_no),
    UNIQUE (event_id, ko_seed),
    UNIQUE (event_id, recorded_place),
    FOREIGN KEY (guild_id, tour_id, event_id)
        REFERENCES tour_events (guild_id, tour_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, tour_id, player_id) REFERENCES tour_players (guild_id, tour_id, id)
) WITHOUT ROWID;
CREATE INDEX event_players_player ON event_players (guild_id, player_id);

-- Knock-out series (key QF1 … SF2, F, 3rd) and Finals matches (key R<round>B<board>): the
-- first player's colour choices (CCT-8e; 'white' or 'black'), who chose, and for an imported
-- event the recorded outcome (the tour file's round as JSON).
CREATE TABLE tour_contests (
    guild_id          INTEGER NOT NULL,
    event_id          INTEGER NOT NULL,
    key               TEXT    NOT NULL CHECK (key <> ''),
    colour_game_1     TEXT    CHECK (colour_game_1 IN ('white', 'black')),
    colour_blitz_1    TEXT    CHECK (colour_blitz_1 IN ('white', 'black')),
    colour_armageddon TEXT    CHECK (colour_armageddon IN ('white', 'black')),
    chosen_by         INTEGER,
    chosen_at         TEXT,
    recorded          TEXT    CHECK (recorded IS NULL OR json_valid(recorded)),
    PRIMARY KEY (event_id, key),
    FOREIGN KEY (guild_id, event_id) REFERENCES tour_events (guild_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Games: a preliminary game (round, board; made by the draw), a knock-out game (contest,
-- phase, match, number) or a Finals game (contest, round, board, phase, number), with its
-- result's life cycle (core/tour/game_reports.py): who reported it and when, who confirmed,
-- disputed or decided it and when. `source_ref` is the chess.com / lichess game URL or a PGN
-- fingerprint it was read from: one game of the board counts once in the whole guild.
CREATE TABLE tour_games (
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
    reported_side TEXT    CHECK (reported_side IN ('white', 'black')),
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
CREATE UNIQUE INDEX tour_games_slot ON tour_games (
    event_id, stage, ifnull(contest, ''), ifnull(round, 0), ifnull(board, 0), phase,
    ifnull(match_no, 0), game_no
);
CREATE UNIQUE INDEX tour_games_source ON tour_games (guild_id, source_ref)
    WHERE source_ref IS NOT NULL;
CREATE INDEX tour_games_white ON tour_games (guild_id, white_id, status);
CREATE INDEX tour_games_black ON tour_games (guild_id, black_id, status);

-- CCT-10: a disconnection as the arbiter recorded it, with the computed outcome.
CREATE TABLE tour_incidents (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL,
    event_id        INTEGER NOT NULL,
    game            TEXT    NOT NULL CHECK (game <> ''),      -- the game's name in the event
    player_id       INTEGER NOT NULL,
    clock_seconds   INTEGER NOT NULL CHECK (clock_seconds >= 0),
    reconnected     INTEGER NOT NULL CHECK (reconnected IN (0, 1)),
    offline_seconds INTEGER CHECK (offline_seconds >= 0),
    backup          INTEGER NOT NULL CHECK (backup IN (0, 1)),
    outcome         TEXT    NOT NULL CHECK (outcome IN ('continue', 'paused', 'lost')),
    clock_after     INTEGER,
    reason          TEXT    NOT NULL,
    recorded_by     INTEGER,
    recorded_at     TEXT    NOT NULL,
    FOREIGN KEY (guild_id, event_id) REFERENCES tour_events (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, player_id) REFERENCES tour_players (guild_id, id)
);
CREATE INDEX tour_incidents_event ON tour_incidents (guild_id, event_id, id);

-- CCT-11: a fair-play appeal accepted in time (a late one is refused, not stored), its
-- deadline, and the arbiter's decision.
CREATE TABLE tour_appeals (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    event_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL CHECK (game <> ''),
    player_id   INTEGER NOT NULL,
    lodged_by   INTEGER NOT NULL,
    text        TEXT    NOT NULL CHECK (text <> ''),
    lodged_at   TEXT    NOT NULL,
    deadline    TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'upheld', 'dismissed')),
    decided_by  INTEGER,
    decided_at  TEXT,
    reason      TEXT,
    CHECK ((status = 'open') = (decided_at IS NULL)),
    FOREIGN KEY (guild_id, event_id) REFERENCES tour_events (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, player_id) REFERENCES tour_players (guild_id, id)
);
CREATE INDEX tour_appeals_event ON tour_appeals (guild_id, event_id, id);

-- CCT-9: an arbiter's correction of a result, with its ground and explanation; `expelled`
-- lists the players it expelled (a deliberate disconnection).
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
CREATE INDEX tour_overrides_event ON tour_overrides (guild_id, event_id, id);

-- An event's pinned message (standings, then the bracket), posted through the outbox and
-- kept at the event's version (`rendered_version`).
CREATE TABLE tour_pins (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    event_id         INTEGER NOT NULL UNIQUE,
    channel_id       INTEGER NOT NULL,
    outbox_id        INTEGER NOT NULL REFERENCES outbox (id),
    rendered_version INTEGER NOT NULL,
    created_by       INTEGER,
    created_at       TEXT    NOT NULL,
    FOREIGN KEY (guild_id, event_id) REFERENCES tour_events (guild_id, id) ON DELETE CASCADE
);
