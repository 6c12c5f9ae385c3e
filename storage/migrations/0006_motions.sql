-- Director motions (CL-23): what is put to the vote, its frozen electorate (the members holding
-- the director role when it opened), its deadline and outcome, and the message that shows it.
-- `subject` holds what the kind's action needs beyond the columns (corrected boards, the CL-8
-- proposal and next season's name, free text), as JSON.
CREATE TABLE motions (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('forfeit', 'disqualify', 'correct-result',
                                                 'exclude-club', 'division-makeup', 'other')),
    season_id   INTEGER,
    match_id    INTEGER,
    club_id     INTEGER,
    rule        TEXT,
    subject     TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(subject)),
    reason      TEXT    NOT NULL CHECK (reason <> ''),
    opened_by   INTEGER,                -- Discord user id; NULL: the bot (CL-21 removals)
    opened_at   TEXT    NOT NULL,
    deadline    TEXT    NOT NULL,
    quorum      INTEGER NOT NULL CHECK (quorum >= 1),
    electorate  TEXT    NOT NULL CHECK (json_valid(electorate)),  -- user ids, frozen
    status      TEXT    NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'passed', 'rejected', 'no-decision')),
    closed_at   TEXT,
    outcome     TEXT,                   -- what closing did (the action applied, or why not)
    channel_id  INTEGER,                -- where the motion message went
    outbox_id   INTEGER,                -- its outbox row (Discord's message id once sent)
    UNIQUE (guild_id, id),
    CHECK ((status = 'open') = (closed_at IS NULL)),
    CHECK (kind NOT IN ('forfeit', 'correct-result') OR match_id IS NOT NULL),
    CHECK (kind NOT IN ('forfeit', 'disqualify', 'exclude-club') OR club_id IS NOT NULL),
    FOREIGN KEY (guild_id, season_id) REFERENCES seasons (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, match_id) REFERENCES matches (guild_id, id) ON DELETE CASCADE,
    FOREIGN KEY (guild_id, club_id) REFERENCES clubs (guild_id, id)
);
CREATE INDEX motions_status ON motions (guild_id, status, id);

-- One vote per director per motion, changeable until the motion closes.
CREATE TABLE motion_votes (
    guild_id    INTEGER NOT NULL,
    motion_id   INTEGER NOT NULL,
    director_id INTEGER NOT NULL,
    choice      INTEGER NOT NULL CHECK (choice IN (0, 1)),   -- 1 yes, 0 no
    at          TEXT    NOT NULL,
    PRIMARY KEY (motion_id, director_id),
    FOREIGN KEY (guild_id, motion_id) REFERENCES motions (guild_id, id) ON DELETE CASCADE
) WITHOUT ROWID;

-- Where motion messages go (NULL: the announcements channel).
ALTER TABLE guild_settings ADD COLUMN directors_channel_id INTEGER;

-- Outbox messages may carry message components (the motion's Yes / No buttons, disabled once
-- it closes); NULL leaves an edited message's components as they are.
ALTER TABLE outbox ADD COLUMN components TEXT CHECK (components IS NULL OR json_valid(components));
