DROP TRIGGER IF EXISTS tables_tableevent_chain_head;
