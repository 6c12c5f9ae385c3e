-- PostgreSQL's text of ../0009_outbox_mentions.sql (what it does and why is said there): BIGINT for
-- INTEGER, identities for INTEGER PRIMARY KEY, TEXT COLLATE "C" to compare byte-wise as SQLite.
ALTER TABLE outbox ADD COLUMN ping_users TEXT COLLATE "C" NOT NULL DEFAULT '[]' CHECK ((ping_users IS JSON));
