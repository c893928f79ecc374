-- A table session's journal head follows its lines: each new line leaves its number and hash
-- in the head named 'tables.journal.<table session>' (tables/chain.py, `journal_chain`).

CREATE TRIGGER tables_tableevent_chain_head AFTER INSERT ON tables_tableevent
BEGIN
    INSERT INTO establishment_chainhead (name, position, last_hash)
    VALUES ('tables.journal.' || NEW.table_session_id, NEW.seq, NEW.chain_hash)
    ON CONFLICT (name) DO UPDATE SET position = excluded.position, last_hash = excluded.last_hash;
END;
