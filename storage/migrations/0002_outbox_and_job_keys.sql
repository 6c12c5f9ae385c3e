-- Scheduled jobs get a natural key: at most one pending job per (guild, kind, subject), so
-- re-scheduling a deadline moves the pending job instead of adding a second one. Jobs stored
-- before this migration each get a subject of their own.
ALTER TABLE scheduled_jobs ADD COLUMN subject TEXT NOT NULL DEFAULT '';
UPDATE scheduled_jobs SET subject = 'job:' || id;
CREATE UNIQUE INDEX scheduled_jobs_natural_key
    ON scheduled_jobs (guild_id, kind, subject) WHERE status = 'pending';

-- The outbox: messages written in the same transaction as the change they announce, delivered
-- by the bot in order per channel and marked sent only once Discord accepted them.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,   -- also the message nonce: "outbox-<id>"
    guild_id        INTEGER NOT NULL,
    channel_id      INTEGER NOT NULL,
    edit_of         INTEGER,               -- a message id to edit instead of posting anew
    content         TEXT,
    embeds          TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(embeds)),
    status          TEXT    NOT NULL DEFAULT 'pending'
                    CHECK (status IN ('pending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,                  -- ISO 8601 UTC; NULL: at once
    message_id      INTEGER,               -- Discord's id of the message, once accepted
    error           TEXT,                  -- the last error (a failed row: why it gave up)
    created_at      TEXT    NOT NULL,
    finished_at     TEXT,
    CHECK (content IS NOT NULL OR embeds <> '[]')
);
CREATE INDEX outbox_pending ON outbox (status, channel_id, id);
CREATE INDEX outbox_guild_status ON outbox (guild_id, status, id);
