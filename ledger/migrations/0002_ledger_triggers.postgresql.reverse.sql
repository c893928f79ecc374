DROP TRIGGER IF EXISTS ledger_transaction_append_only ON ledger_transaction;
DROP TRIGGER IF EXISTS ledger_entry_append_only ON ledger_entry;
DROP FUNCTION IF EXISTS ledger_refuse_change();
DROP TRIGGER IF EXISTS ledger_transaction_has_entries ON ledger_transaction;
DROP FUNCTION IF EXISTS ledger_transaction_has_entries_check();
DROP TRIGGER IF EXISTS ledger_entry_zero_sum ON ledger_entry;
DROP FUNCTION IF EXISTS ledger_entry_zero_sum_check();
