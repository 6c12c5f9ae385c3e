-- Standings pins: one message per division of a season that the bot keeps up to date. The
-- message is posted through the outbox (`outbox_id`; its Discord id is the outbox row's
-- `message_id` once sent) and edited through the outbox whenever the season's version moves
-- past `rendered_version`, the version the message shows. Pinning a division again replaces
-- its pin (one per division).
CREATE TABLE standings_pins (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    season_id        INTEGER NOT NULL,
    division_id      INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    outbox_id        INTEGER NOT NULL REFERENCES outbox (id),
    rendered_version INTEGER NOT NULL,
    created_by       INTEGER,
    created_at       TEXT    NOT NULL,
    UNIQUE (season_id, division_id),
    FOREIGN KEY (guild_id, season_id, division_id)
        REFERENCES divisions (guild_id, season_id, id) ON DELETE CASCADE
);
CREATE INDEX standings_pins_guild ON standings_pins (guild_id, season_id);
