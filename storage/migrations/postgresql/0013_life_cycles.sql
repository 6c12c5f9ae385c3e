-- PostgreSQL's text of ../0013_life_cycles.sql (what it does and why is said there): BIGINT for
-- INTEGER, identities for INTEGER PRIMARY KEY, TEXT COLLATE "C" to compare byte-wise as SQLite.
ALTER TABLE matches ADD COLUMN deadline_at TEXT COLLATE "C";
ALTER TABLE seasons ADD COLUMN closed_at TEXT COLLATE "C";
DO $$
DECLARE
    found record;
BEGIN
    FOR found IN SELECT conname FROM pg_constraint
        WHERE conrelid = 'motions'::regclass AND contype = 'c'
            AND pg_get_constraintdef(oid) LIKE '%''forfeit''%'
    LOOP
        EXECUTE format('ALTER TABLE motions DROP CONSTRAINT %I', found.conname);
    END LOOP;
END
$$;
ALTER TABLE motions
    ADD CHECK (kind IN ('forfeit', 'disqualify', 'correct-result', 'exclude-club',
                        'division-makeup', 'reschedule', 'other')),
    ADD CHECK (kind NOT IN ('forfeit', 'correct-result', 'reschedule') OR match_id IS NOT NULL),
    ADD CHECK (kind NOT IN ('forfeit', 'disqualify', 'exclude-club') OR club_id IS NOT NULL);
UPDATE seasons SET
    vote_quorum = greatest(vote_quorum, 3),
    forfeits_to_disqualify = greatest(forfeits_to_disqualify, 3),
    min_club_admins = greatest(min_club_admins, 2),
    timeout_ratio_limit_percent = greatest(timeout_ratio_limit_percent, 25)
WHERE vote_quorum < 3 OR forfeits_to_disqualify < 3 OR min_club_admins < 2
    OR timeout_ratio_limit_percent < 25;
