-- The rest of a season's rule values, frozen at creation like the others (CCT-16): the CL-15
-- reminder offsets before the challenge deadline (a JSON list of hours), CL-8's relegated
-- places (promotion_places holds the promoted ones), the CL-23 vote deadline and quorum, the
-- CL-2..4 admin minimum and the CL-21 timeout-ratio limit. Seasons created before this
-- migration get the regulation defaults (relegated: their promotion places).
ALTER TABLE seasons ADD COLUMN reminder_hours TEXT NOT NULL DEFAULT '[48, 12]'
    CHECK (json_valid(reminder_hours) AND json_type(reminder_hours) = 'array');
ALTER TABLE seasons ADD COLUMN relegated INTEGER NOT NULL DEFAULT 3 CHECK (relegated >= 0);
ALTER TABLE seasons ADD COLUMN vote_deadline_hours INTEGER NOT NULL DEFAULT 72
    CHECK (vote_deadline_hours >= 1);
ALTER TABLE seasons ADD COLUMN vote_quorum INTEGER NOT NULL DEFAULT 3 CHECK (vote_quorum >= 1);
ALTER TABLE seasons ADD COLUMN min_club_admins INTEGER NOT NULL DEFAULT 2
    CHECK (min_club_admins >= 1);
ALTER TABLE seasons ADD COLUMN timeout_ratio_limit_percent REAL NOT NULL DEFAULT 25
    CHECK (timeout_ratio_limit_percent BETWEEN 0 AND 100);
UPDATE seasons SET relegated = promotion_places;
