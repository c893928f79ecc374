-- The signed registers (0003) hold against TRUNCATE too, even the owner's, and the counts of
-- the cagnotte and the reports' sign-offs are append-only as the registers are: UPDATE and
-- DELETE refused on them (a count is never changed, docs/registers.md), TRUNCATE on all four
-- (casino_history_protect, establishment 0008). A TRUNCATE ... CASCADE from a table they refer
-- to (reports_settlementreport, auth_user) is refused as well.

CREATE OR REPLACE FUNCTION reports_history_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$ BEGIN
    RAISE EXCEPTION '% on % refused: the counts and sign-offs of a report are append-only',
        TG_OP, TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END $$;

SELECT casino_history_protect(tbl, refusal, refusal = 'reports_history_refuse_change') FROM (VALUES
    ('reports_register', 'reports_register_refuse_change'),
    ('reports_registersignature', 'reports_register_refuse_change'),
    ('reports_countedcagnotte', 'reports_history_refuse_change'),
    ('reports_reportsignoff', 'reports_history_refuse_change')
) AS history (tbl, refusal);
