DROP TRIGGER IF EXISTS ledger_transaction_no_delete;
DROP TRIGGER IF EXISTS ledger_transaction_no_update;
DROP TRIGGER IF EXISTS ledger_entry_no_delete;
DROP TRIGGER IF EXISTS ledger_entry_no_update;
