-- PostgreSQL's text of ../0017_notifications.sql (what it does and why is said there): BIGINT
-- for INTEGER, TEXT COLLATE "C" to compare byte-wise as SQLite.
CREATE TABLE notification_choices (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    kind        TEXT COLLATE "C" NOT NULL CHECK (kind <> ''),
    enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    changed_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id, kind)
);

CREATE TABLE closed_dms (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    closed_at   TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

ALTER TABLE outbox ADD COLUMN dm_user_id BIGINT;
