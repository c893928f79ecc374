-- The auditor's desk: the append-only triggers removed.

DROP TRIGGER IF EXISTS audit_alert_no_update ON audit_alert;

DROP TRIGGER IF EXISTS audit_alert_no_delete ON audit_alert;

DROP TRIGGER IF EXISTS audit_acknowledgement_no_update ON audit_acknowledgement;

DROP TRIGGER IF EXISTS audit_acknowledgement_no_delete ON audit_acknowledgement;

DROP TRIGGER IF EXISTS audit_reaudit_no_update ON audit_reaudit;

DROP TRIGGER IF EXISTS audit_reaudit_no_delete ON audit_reaudit;

DROP FUNCTION IF EXISTS audit_desk_refuse_change();
