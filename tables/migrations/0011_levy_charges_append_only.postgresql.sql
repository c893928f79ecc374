-- The levy charges refuse UPDATE, DELETE and TRUNCATE (casino_history_protect, establishment
-- 0008): a charge made in error is reversed in the books, never edited or removed.

SELECT casino_history_protect('tables_levycharge', 'tables_history_refuse_change', true);
