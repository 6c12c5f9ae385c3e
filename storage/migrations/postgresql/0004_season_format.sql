-- PostgreSQL's text of ../0004_season_format.sql (what it does and why is said there): BIGINT for
-- INTEGER, identities for INTEGER PRIMARY KEY, TEXT COLLATE "C" to compare byte-wise as SQLite.
ALTER TABLE seasons ADD COLUMN clubs_per_division BIGINT NOT NULL DEFAULT 13 CHECK (clubs_per_division >= 2);
ALTER TABLE seasons ADD COLUMN start_time TEXT COLLATE "C" NOT NULL DEFAULT '11:00' CHECK (start_time ~ '^[0-2][0-9]:[0-5][0-9]$');
ALTER TABLE seasons ADD COLUMN start_zone TEXT COLLATE "C" NOT NULL DEFAULT 'America/Los_Angeles' CHECK (start_zone <> '');
