DROP TRIGGER IF EXISTS tables_tableevent_chain_head ON tables_tableevent;

DROP FUNCTION IF EXISTS tables_journal_head_follow();
