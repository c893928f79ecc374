-- The auditor's desk: the append-only triggers removed.

DROP TRIGGER IF EXISTS audit_alert_no_update;

DROP TRIGGER IF EXISTS audit_alert_no_delete;

DROP TRIGGER IF EXISTS audit_acknowledgement_no_update;

DROP TRIGGER IF EXISTS audit_acknowledgement_no_delete;

DROP TRIGGER IF EXISTS audit_reaudit_no_update;

DROP TRIGGER IF EXISTS audit_reaudit_no_delete;
