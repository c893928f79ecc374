-- The history refuses TRUNCATE too (docs/security.md). casino_history_protect(table, refusal,
-- with_rows) gives a history table its statement trigger BEFORE TRUNCATE (the name
-- <table>_no_truncate) and, with `with_rows`, its row triggers BEFORE UPDATE and BEFORE DELETE
-- (<table>_no_update, <table>_no_delete), all calling `refusal`, a function that raises naming
-- the statement (TG_OP) and the table. A TRUNCATE ... CASCADE from a table the history refers to
-- (auth_user) is refused as well: the triggers of every table it would empty fire first. Only
-- the tables' owner may create or drop triggers; the application's role may not TRUNCATE at all.

CREATE OR REPLACE FUNCTION casino_history_protect(tbl text, refusal text, with_rows boolean)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF with_rows THEN
        EXECUTE format('CREATE TRIGGER %I BEFORE UPDATE ON %I FOR EACH ROW EXECUTE FUNCTION %I()',
            tbl || '_no_update', tbl, refusal);
        EXECUTE format('CREATE TRIGGER %I BEFORE DELETE ON %I FOR EACH ROW EXECUTE FUNCTION %I()',
            tbl || '_no_delete', tbl, refusal);
    END IF;
    EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION %I()',
        tbl || '_no_truncate', tbl, refusal);
END $$;

-- What casino_history_protect made, removed (a migration's way back).
CREATE OR REPLACE FUNCTION casino_history_unprotect(tbl text, with_rows boolean)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', tbl || '_no_truncate', tbl);
    IF with_rows THEN
        EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', tbl || '_no_update', tbl);
        EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', tbl || '_no_delete', tbl);
    END IF;
END $$;

REVOKE ALL ON FUNCTION casino_history_protect(text, text, boolean) FROM PUBLIC;
REVOKE ALL ON FUNCTION casino_history_unprotect(text, boolean) FROM PUBLIC;

-- The audit log (0002) and the house's settings (0006) have their row triggers already.
SELECT casino_history_protect(tbl, refusal, false) FROM (VALUES
    ('establishment_auditentry', 'establishment_audit_refuse_change'),
    ('establishment_housesettings', 'establishment_house_refuse_change')
) AS history (tbl, refusal);
