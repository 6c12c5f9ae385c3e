-- A season's format, frozen at creation like its rule values (CCT-16): clubs per division
-- (CL-12) and the local start time and zone of its matches (CL-13, CL-22). Seasons created
-- before this migration get the regulation defaults.
ALTER TABLE seasons ADD COLUMN clubs_per_division INTEGER NOT NULL DEFAULT 13
    CHECK (clubs_per_division >= 2);
ALTER TABLE seasons ADD COLUMN start_time TEXT NOT NULL DEFAULT '11:00'
    CHECK (start_time GLOB '[0-2][0-9]:[0-5][0-9]');
ALTER TABLE seasons ADD COLUMN start_zone TEXT NOT NULL DEFAULT 'America/Los_Angeles'
    CHECK (start_zone <> '');
