-- Ledger invariants held by PostgreSQL (docs/ledger.md; RELIABILITY-PERFORMANCE.md 1 and 3).

-- Invariant 1: every transaction sums to zero. A deferred constraint trigger: it runs at COMMIT,
-- once per inserted entry, when all the entries of the transaction are in.
CREATE OR REPLACE FUNCTION ledger_entry_zero_sum_check() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    imbalance bigint;
BEGIN
    SELECT COALESCE(SUM(CASE WHEN side = 'credit' THEN amount ELSE -amount END), 0)
      INTO imbalance
      FROM ledger_entry
     WHERE transaction_id = NEW.transaction_id;
    IF imbalance <> 0 THEN
        RAISE EXCEPTION 'ledger transaction % does not sum to zero (credits - debits = %)',
            NEW.transaction_id, imbalance
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER ledger_entry_zero_sum
    AFTER INSERT ON ledger_entry
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_entry_zero_sum_check();

-- A transaction without entries is refused at COMMIT too.
CREATE OR REPLACE FUNCTION ledger_transaction_has_entries_check() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM ledger_entry WHERE transaction_id = NEW.id) THEN
        RAISE EXCEPTION 'ledger transaction % has no entries', NEW.id
            USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END;
$$;

CREATE CONSTRAINT TRIGGER ledger_transaction_has_entries
    AFTER INSERT ON ledger_transaction
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW EXECUTE FUNCTION ledger_transaction_has_entries_check();

-- Invariant 3: append-only. UPDATE and DELETE of entries and transactions are refused.
-- (TRUNCATE is refused by 0005_refuse_truncate, and the application's role may not TRUNCATE:
-- docs/security.md.)
CREATE OR REPLACE FUNCTION ledger_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '% on % refused: the ledger is append-only; post a reversal instead',
        TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER ledger_entry_append_only
    BEFORE UPDATE OR DELETE ON ledger_entry
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();

CREATE TRIGGER ledger_transaction_append_only
    BEFORE UPDATE OR DELETE ON ledger_transaction
    FOR EACH ROW EXECUTE FUNCTION ledger_refuse_change();
