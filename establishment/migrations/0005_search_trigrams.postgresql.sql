-- The players' search (establishment.selectors.player_search) and the exclusion list's: trigram
-- indexes for a search that forgives typos. Both extensions are trusted (PostgreSQL 13+): a
-- database owner may create them.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- A name folded as establishment.identity.name_key folds it: no accents, lower case, hyphens,
-- apostrophes, dots and commas as spaces, one space between words. unaccent() is only STABLE
-- (its dictionary could change); with the dictionary named it is safe to call IMMUTABLE, which
-- a generated column and an index need.
CREATE OR REPLACE FUNCTION casino_fold(text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
    SELECT btrim(regexp_replace(
        lower(public.unaccent('public.unaccent'::regdictionary, $1)),
        '[[:space:]''’`´.,‐‑‒–—-]+', ' ', 'g'
    ))
$$;

-- The folded name, kept by the database itself (whoever writes the row: the services, a bulk
-- load): the search reads it instead of folding every candidate's name at every keystroke.
-- Not a field of the Django model (Django never writes it); a change of `name`'s type must drop
-- it first and add it again.
ALTER TABLE establishment_player
    ADD COLUMN name_folded text GENERATED ALWAYS AS (casino_fold(name)) STORED;

-- GIN: contains (LIKE '%…%') and word similarity (%>, the typos) on the name, contains and
-- equality on the numbers. B-tree: names that begin with what was typed, in order, the first
-- page read from the index alone.
CREATE INDEX casino_player_name_trgm ON establishment_player
    USING gin (name_folded gin_trgm_ops);
CREATE INDEX casino_player_name_prefix ON establishment_player
    (name_folded text_pattern_ops, name);
CREATE INDEX casino_player_member_trgm ON establishment_player
    USING gin (lower(member_number) gin_trgm_ops);
CREATE INDEX casino_player_document_trgm ON establishment_player
    USING gin (lower(document_number) gin_trgm_ops);

-- The exclusion list's names are stored folded already (surname_key, first_names_key).
CREATE INDEX casino_exclusion_name_trgm ON establishment_exclusionentry
    USING gin ((surname_key || ' ' || first_names_key) gin_trgm_ops);
CREATE INDEX casino_exclusion_name_prefix ON establishment_exclusionentry
    ((surname_key || ' ' || first_names_key) text_pattern_ops);
CREATE INDEX casino_exclusion_reference ON establishment_exclusionentry (lower(reference));
