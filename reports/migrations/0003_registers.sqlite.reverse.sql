-- Signed registers: the append-only triggers removed.

DROP TRIGGER IF EXISTS reports_register_no_update;

DROP TRIGGER IF EXISTS reports_register_no_delete;

DROP TRIGGER IF EXISTS reports_registersignature_no_update;

DROP TRIGGER IF EXISTS reports_registersignature_no_delete;
