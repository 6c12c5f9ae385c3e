-- rebuilds tables
-- Issue 19: the match and season life cycles and the regulation's floors.
--
-- A match's own CL-15 challenge deadline, fixed by a passed reschedule motion: the deadline
-- already judged when it moved after it (the judgement stands), or its new start when the
-- notice no longer fits. NULL: the season's challenge_deadline_hours before the start.
ALTER TABLE matches ADD COLUMN deadline_at TEXT;

-- When the season was closed: its division make-up motion passed (CL-8). NULL: not closed.
-- (A season stored as 'finished' before this migration counts as closed too.)
ALTER TABLE seasons ADD COLUMN closed_at TEXT;

-- Motions of a new kind, `reschedule` (CL-13, CL-15): a match moved after its challenge
-- deadline or to a start closer than it. SQLite cannot change a CHECK in place: the table
-- is rebuilt with the same rows (its votes and removals keep pointing at them). PostgreSQL
-- changes the three CHECKs naming the kinds in place instead (dropping the table there
-- would take its votes' and removals' foreign keys with it): postgresql/0013_life_cycles.sql.
CREATE TABLE motions_new (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('forfeit', 'disqualify', 'correct-result',
                                                 'exclude-club', 'division-makeup',
                                                 'reschedule', 'other')),
    season_id   INTEGER,
    match_id    INTEGER,
    club_id     INTEGER,
    rule        TEXT,
    subject     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(subject)),
    reason      TEXT    NOT NULL CHECK (reason <> ''),
    opened_by   INTEGER,
    opened_at   TEXT    NOT NULL,
    deadline    TEXT    NOT NULL,
    quorum      INTEGER NOT NULL CHECK (quorum >= 1),
    electorate  TEXT    NOT NULL CHECK (json_valid(electorate)),
    status      TEXT    NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'passed', 'rejected', 'no-decision')),
    closed_at   TEXT,
    outcome     TEXT,
    channel_id  INTEGER,
    outbox_id   INTEGER,
    UNIQUE (guild_id, id),
    CHECK ((status = 'open') = (closed_at IS NULL)),
    CHECK (kind NOT IN ('forfeit', 'correct-result', 'reschedule') OR match_id IS NOT NULL),
    CHECK (kind NOT IN ('forfeit', 'disqualify', 'exclude-club') OR club_id IS NOT NULL),
    FOREIGN KEY (guild_id, season_id) REFERENCES seasons (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, match_id) REFERENCES matches (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, club_id) REFERENCES clubs (guild_id, id)
);
INSERT INTO motions_new (id, guild_id, kind, season_id, match_id, club_id, rule, subject,
    reason, opened_by, opened_at, deadline, quorum, electorate, status, closed_at, outcome,
    channel_id, outbox_id)
SELECT id, guild_id, kind, season_id, match_id, club_id, rule, subject, reason, opened_by,
    opened_at, deadline, quorum, electorate, status, closed_at, outcome, channel_id, outbox_id
FROM motions;
DROP TABLE motions;
ALTER TABLE motions_new RENAME TO motions;
CREATE INDEX motions_status ON motions (guild_id, status, id);

-- The regulation's fixed parts (CL-23's 3 voting directors, CL-15/20/21's 3 forfeits, CL-3's
-- 2 admins, CL-21's 25 %) were settings before: a season frozen below one is raised to it.
UPDATE seasons SET
    vote_quorum = max(vote_quorum, 3),
    forfeits_to_disqualify = max(forfeits_to_disqualify, 3),
    min_club_admins = max(min_club_admins, 2),
    timeout_ratio_limit_percent = max(timeout_ratio_limit_percent, 25)
WHERE vote_quorum < 3 OR forfeits_to_disqualify < 3 OR min_club_admins < 2
    OR timeout_ratio_limit_percent < 25;
