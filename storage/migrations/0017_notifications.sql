-- Personal notifications (docs/notifications.md). A member's choice per kind of direct message
-- is stored only once they make it; until then the kind's default applies, which the bot
-- knows. A member whose direct messages Discord refused (50007) is noted, so later
-- notifications mention them in the channel instead until they run /notify again.
CREATE TABLE notification_choices (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind <> ''),
    enabled     INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    changed_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id, kind)
);

CREATE TABLE closed_dms (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    closed_at   TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- An outbox row with dm_user_id is a direct message to that member. Its channel_id is then the
-- guild channel of the public record, where the member is mentioned if the message cannot
-- be delivered privately.
ALTER TABLE outbox ADD COLUMN dm_user_id INTEGER;
