-- PostgreSQL's text of ../0005_season_settings.sql (what it does and why is said there): BIGINT for
-- INTEGER, identities for INTEGER PRIMARY KEY, TEXT COLLATE "C" to compare byte-wise as SQLite.
ALTER TABLE seasons ADD COLUMN reminder_hours TEXT COLLATE "C" NOT NULL DEFAULT '[48, 12]' CHECK ((reminder_hours IS JSON) AND (reminder_hours IS JSON ARRAY));
ALTER TABLE seasons ADD COLUMN relegated BIGINT NOT NULL DEFAULT 3 CHECK (relegated >= 0);
ALTER TABLE seasons ADD COLUMN vote_deadline_hours BIGINT NOT NULL DEFAULT 72 CHECK (vote_deadline_hours >= 1);
ALTER TABLE seasons ADD COLUMN vote_quorum BIGINT NOT NULL DEFAULT 3 CHECK (vote_quorum >= 1);
ALTER TABLE seasons ADD COLUMN min_club_admins BIGINT NOT NULL DEFAULT 2 CHECK (min_club_admins >= 1);
ALTER TABLE seasons ADD COLUMN timeout_ratio_limit_percent DOUBLE PRECISION NOT NULL DEFAULT 25 CHECK (timeout_ratio_limit_percent BETWEEN 0 AND 100);
UPDATE seasons SET relegated = promotion_places;
