-- Mentions are opt-in per message: the users an outbox message pings (a CL-15 reminder pings
-- the admins it names), as a JSON array of ids. The sender allows exactly these and nothing
-- else (no @everyone, no roles), so a mention in user text never pings, also after a restart.
ALTER TABLE outbox ADD COLUMN ping_users TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(ping_users));
