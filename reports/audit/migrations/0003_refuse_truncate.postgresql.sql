-- The auditor's desk's rows hold against TRUNCATE too, even the owner's
-- (casino_history_protect, establishment 0008), refused by the function of the row triggers (0002).

SELECT casino_history_protect(tbl, 'audit_desk_refuse_change', false)
FROM unnest(ARRAY['audit_alert', 'audit_acknowledgement', 'audit_reaudit']) AS tbl;
