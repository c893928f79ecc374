-- The voids' row triggers removed.

DROP TRIGGER IF EXISTS tables_voidrequest_no_update;

DROP TRIGGER IF EXISTS tables_voidrequest_no_delete;

DROP TRIGGER IF EXISTS tables_voiddecision_no_update;

DROP TRIGGER IF EXISTS tables_voiddecision_no_delete;
