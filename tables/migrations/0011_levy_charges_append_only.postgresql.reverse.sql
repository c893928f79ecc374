-- The levy charges' triggers removed.

SELECT casino_history_unprotect('tables_levycharge', true);
