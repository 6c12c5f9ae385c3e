-- PostgreSQL's text of ../0008_removal_motion.sql (what it does and why is said there): BIGINT for
-- INTEGER, identities for INTEGER PRIMARY KEY, TEXT COLLATE "C" to compare byte-wise as SQLite.
ALTER TABLE roster_removals ADD COLUMN motion_id BIGINT REFERENCES motions (id);
