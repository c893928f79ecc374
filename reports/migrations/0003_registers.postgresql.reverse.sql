-- Signed registers: the append-only triggers removed.

DROP TRIGGER IF EXISTS reports_register_no_update ON reports_register;

DROP TRIGGER IF EXISTS reports_register_no_delete ON reports_register;

DROP TRIGGER IF EXISTS reports_registersignature_no_update ON reports_registersignature;

DROP TRIGGER IF EXISTS reports_registersignature_no_delete ON reports_registersignature;

DROP FUNCTION IF EXISTS reports_register_refuse_change();
