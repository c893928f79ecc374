-- A table session's journal head follows its lines: each new line leaves its number and hash
-- in the head named 'tables.journal.<table session>' (tables/chain.py, `journal_chain`).

CREATE OR REPLACE FUNCTION tables_journal_head_follow() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO establishment_chainhead (name, position, last_hash)
    VALUES ('tables.journal.' || NEW.table_session_id, NEW.seq, NEW.chain_hash)
    ON CONFLICT (name) DO UPDATE SET position = EXCLUDED.position, last_hash = EXCLUDED.last_hash;
    RETURN NULL;
END;
$$;

CREATE TRIGGER tables_tableevent_chain_head AFTER INSERT ON tables_tableevent
    FOR EACH ROW EXECUTE FUNCTION tables_journal_head_follow();
