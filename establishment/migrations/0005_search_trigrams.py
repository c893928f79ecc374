"""The players' search, typo-tolerant on PostgreSQL: pg_trgm's trigram indexes (GIN) on the
folded name (accents and case ignored: `casino_fold`, unaccent made immutable), the member
number and the document number, and on the exclusion list's folded names
(establishment.selectors).

The SQL lives beside this file, one script per database and direction
(0005_search_trigrams.<vendor>[.reverse].sql, run by establishment.sql_scripts). SQLite has
no trigrams: its script adds a case-insensitive index on the name, for the selectors' prefix
and contains fallback.
"""

from __future__ import annotations

from django.db import migrations

from establishment.sql_scripts import sql_script_steps

forwards, backwards = sql_script_steps(__file__)


class Migration(migrations.Migration):
    dependencies = [("establishment", "0004_players_and_door")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
