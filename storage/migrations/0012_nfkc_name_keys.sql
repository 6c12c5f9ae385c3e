-- Names are compared by their NFKC case-fold with spaces collapsed (core.names.name_key), so
-- compatibility look-alikes (full-width `Ｃｌｕｂ`, `ﬁ`, superscripts) are one name. Keys
-- written by the plain case-fold of earlier versions are rewritten with `arbiter_name_key`
-- (the same function, registered by storage.migrations). A row whose new key another row of
-- its guild already holds keeps its old key: names stored before the gate stay distinct
-- rather than failing the upgrade.
-- PostgreSQL has nothing to rewrite (postgresql/0012_nfkc_name_keys.sql).
UPDATE OR IGNORE clubs SET name_key = arbiter_name_key(name)
    WHERE name_key <> arbiter_name_key(name);
UPDATE OR IGNORE seasons SET name_key = arbiter_name_key(name)
    WHERE name_key <> arbiter_name_key(name);
UPDATE OR IGNORE roster_links SET username_key = arbiter_name_key(username)
    WHERE username_key <> arbiter_name_key(username);
UPDATE OR IGNORE closed_accounts SET username_key = arbiter_name_key(username)
    WHERE username_key <> arbiter_name_key(username);
