-- The levy charges' triggers removed.

DROP TRIGGER IF EXISTS tables_levycharge_no_update;

DROP TRIGGER IF EXISTS tables_levycharge_no_delete;
