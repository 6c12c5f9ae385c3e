-- The forfeit motion a CL-21 removal's verification opened (set in the unit of work that
-- opens it): a removal with a motion, or verified or refuted, is not verified again.
ALTER TABLE roster_removals ADD COLUMN motion_id INTEGER REFERENCES motions (id);
