-- The Finals field as it forms (CCT-3 and its Interpretation): a player entered in the
-- Finals as the organiser's wildcard into a place the qualification lists cannot fill, and
-- the qualified players who declined the Finals, in the order they did (each decline's
-- place is offered to the next in line; core/tour/qualification.py derives who). A decline
-- is a fact of its Finals event: withdrawn (the row deleted) only before the draw.
ALTER TABLE event_players ADD COLUMN wildcard INTEGER NOT NULL DEFAULT 0
    CHECK (wildcard IN (0, 1));

CREATE TABLE finals_declines (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    tour_id     INTEGER NOT NULL,
    event_id    INTEGER NOT NULL,
    player_id   INTEGER NOT NULL,
    note        TEXT,
    declined_by INTEGER,
    declined_at TEXT    NOT NULL,
    UNIQUE (event_id, player_id),
    FOREIGN KEY (guild_id, tour_id, event_id)
        REFERENCES tour_events (guild_id, tour_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, tour_id, player_id) REFERENCES tour_players (guild_id, tour_id, id)
);
CREATE INDEX finals_declines_event ON finals_declines (guild_id, event_id, id);
