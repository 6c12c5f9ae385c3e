-- Foundation: audit trail, guild settings, club admins and durable scheduled jobs.
-- Every row belongs to one Discord guild (guild_id); repositories always filter on it.

CREATE TABLE audit (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    actor_id    INTEGER,                -- Discord user id; NULL for the bot itself
    action      TEXT    NOT NULL,       -- e.g. 'setup.set'
    subject     TEXT    NOT NULL,       -- what was changed, e.g. 'guild_settings'
    details     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(details)),
    at          TEXT    NOT NULL        -- ISO 8601, UTC
);
CREATE INDEX audit_guild_at ON audit (guild_id, at);

CREATE TABLE guild_settings (
    guild_id                 INTEGER PRIMARY KEY,
    hq_role_id               INTEGER,
    director_role_id         INTEGER,
    arbiter_role_id          INTEGER,
    announcements_channel_id INTEGER,
    updated_at               TEXT    NOT NULL
);

-- Club admins (CL-2..4): Discord users linked to a chess.com club (its url-id).
CREATE TABLE club_admins (
    guild_id    INTEGER NOT NULL,
    club        TEXT    NOT NULL CHECK (club <> ''),
    user_id     INTEGER NOT NULL,
    added_at    TEXT    NOT NULL,
    PRIMARY KEY (guild_id, club, user_id)
);
CREATE INDEX club_admins_user ON club_admins (guild_id, user_id);

-- The only truth for deadlines and reminders; the scheduler is rebuilt from it at start-up.
CREATE TABLE scheduled_jobs (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    due_at      TEXT    NOT NULL,       -- ISO 8601, UTC
    payload     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(payload)),
    status      TEXT    NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'running', 'done', 'failed', 'cancelled')),
    error       TEXT,
    created_at  TEXT    NOT NULL,
    finished_at TEXT
);
CREATE INDEX scheduled_jobs_pending ON scheduled_jobs (status, due_at);
