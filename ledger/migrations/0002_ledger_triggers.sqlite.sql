-- Ledger invariant 3 on SQLite: append-only. (SQLite has no deferred triggers, so the zero sum
-- is checked by ledger.services.post before insert.) RAISE(ABORT) is an IntegrityError.
CREATE TRIGGER ledger_entry_no_update BEFORE UPDATE ON ledger_entry
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on ledger_entry refused: the ledger is append-only; post a reversal instead');
END;

CREATE TRIGGER ledger_entry_no_delete BEFORE DELETE ON ledger_entry
BEGIN
    SELECT RAISE(ABORT, 'DELETE on ledger_entry refused: the ledger is append-only; post a reversal instead');
END;

CREATE TRIGGER ledger_transaction_no_update BEFORE UPDATE ON ledger_transaction
BEGIN
    SELECT RAISE(ABORT, 'UPDATE on ledger_transaction refused: the ledger is append-only; post a reversal instead');
END;

CREATE TRIGGER ledger_transaction_no_delete BEFORE DELETE ON ledger_transaction
BEGIN
    SELECT RAISE(ABORT, 'DELETE on ledger_transaction refused: the ledger is append-only; post a reversal instead');
END;
