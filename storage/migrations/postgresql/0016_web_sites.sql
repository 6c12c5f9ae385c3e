-- The public web site (docs/web.md): a guild's competitions are shown under its slug only
-- after its HQ opts in with /setup web; turning it off deletes the row. The second index
-- lets the site ask cheaply whether anything in a guild changed since a page was made.
CREATE TABLE web_sites (
    guild_id     BIGINT  PRIMARY KEY,
    slug         TEXT    NOT NULL UNIQUE,
    published_at TEXT    NOT NULL
);

CREATE INDEX audit_guild_id ON audit (guild_id, id);
