"""Reads of the door: the players' search (as the receptionist types) and the exclusion list's.

On PostgreSQL the search forgives typos: pg_trgm's word similarity on the folded name
(accents and case ignored), beside a contains match on the name, the member number and the
document number, served by the trigram indexes (GIN for LIKE, GiST for the nearest names) of
establishment/migrations/0005_search_trigrams.postgresql.sql. On SQLite (the embedded
default) there are no trigrams: a case-insensitive contains match on the name and a prefix
match on the numbers.
"""

from __future__ import annotations

from typing import TypeVar

from django.db import connection, transaction
from django.db.models import Model, Q, QuerySet

from establishment.identity import name_key
from establishment.models import ExclusionEntry, ExclusionImport, Player

_Row = TypeVar("_Row", bound=Model)

# Shorter queries match too much to be worth a search (one letter is half the register).
MINIMUM_QUERY = 2
# Word similarity under which a near name is not offered (pg_trgm's own threshold is 0.6: too
# strict for a typo in a short surname).
WORD_SIMILARITY = 0.45


def _like(text: str) -> str:
    """`text` as a LIKE pattern matching it anywhere, its wildcards escaped."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


# What was typed, looked for in three steps, each served by an index of the migration
# (`name_folded` is the column it adds: casino_fold(name), kept by the database); a step runs
# only when the ones before it found nothing, so the common case (a name begun, a number) is
# one statement:
# 1. a member or document number typed whole (trigram GIN, equality), and the names that
#    begin with it, in order (b-tree, text_pattern_ops);
# 2. names and numbers that contain it (trigram GIN, LIKE);
# 3. a typo: the names nearest by word similarity to what was typed, among those near its
#    first word (trigram GIN, `%>`), at most `NEAR_CANDIDATES` weighed, so that a typo in a
#    surname thousands share costs a bounded time (typing on narrows it).
_PLAYER_STEPS = (
    f"""
    (SELECT p.id, 0 AS tier, p.name FROM {Player._meta.db_table} p
      WHERE lower(p.member_number) = %(exact)s OR lower(p.document_number) = %(exact)s
      LIMIT %(limit)s)
    UNION ALL
    (SELECT p.id, 1, p.name FROM {Player._meta.db_table} p
      WHERE p.name_folded LIKE %(prefix)s
      ORDER BY p.name_folded, p.name LIMIT %(limit)s)
    ORDER BY 2, 3
    """,
    f"""
    SELECT p.id FROM {Player._meta.db_table} p
    WHERE p.name_folded LIKE %(like)s
       OR lower(p.member_number) LIKE %(number)s
       OR lower(p.document_number) LIKE %(number)s
    LIMIT %(limit)s
    """,
    f"""
    SELECT id FROM (
      SELECT p.id, p.name, p.name_folded FROM {Player._meta.db_table} p
      WHERE p.name_folded %%> %(first)s LIMIT %(candidates)s
    ) near
    ORDER BY word_similarity(%(folded)s, near.name_folded) DESC, near.name
    LIMIT %(limit)s
    """,
)

_EXCLUSION_NAME = "(e.surname_key || ' ' || e.first_names_key)"
_EXCLUSION_STEPS = (
    f"""
    (SELECT e.id, 0 AS tier, '' AS name FROM {ExclusionEntry._meta.db_table} e
      WHERE lower(e.reference) = %(exact)s LIMIT %(limit)s)
    UNION ALL
    (SELECT e.id, 1, {_EXCLUSION_NAME} FROM {ExclusionEntry._meta.db_table} e
      WHERE {_EXCLUSION_NAME} LIKE %(prefix)s
      ORDER BY {_EXCLUSION_NAME} LIMIT %(limit)s)
    ORDER BY 2, 3
    """,
    f"""
    SELECT e.id FROM {ExclusionEntry._meta.db_table} e
    WHERE {_EXCLUSION_NAME} LIKE %(like)s LIMIT %(limit)s
    """,
    f"""
    SELECT id FROM (
      SELECT e.id, {_EXCLUSION_NAME} AS name FROM {ExclusionEntry._meta.db_table} e
      WHERE {_EXCLUSION_NAME} %%> %(first)s LIMIT %(candidates)s
    ) near
    ORDER BY word_similarity(%(folded)s, near.name) DESC, near.name
    LIMIT %(limit)s
    """,
)
# The most near names weighed for one search (see above).
NEAR_CANDIDATES = 300


def _ids(steps: tuple[str, str, str], text: str, limit: int) -> list[int]:
    """The ids the first step that finds anything finds, best first, at most `limit`."""
    folded = name_key(text)
    if not folded:  # only punctuation: nothing to look for
        return []
    words = folded.split()
    params: dict[str, str | int] = {
        "folded": folded,
        "first": words[0] if words and len(words[0]) >= 3 else folded,
        "like": _like(folded),
        "prefix": _like(folded)[1:],
        "exact": text.lower(),
        "number": _like(text.lower()),
        "limit": limit,
        "candidates": NEAR_CANDIDATES,
    }
    found, contains, near = steps
    with connection.cursor() as cursor:
        for sql in (found, contains):
            cursor.execute(sql, params)
            ids = [row[0] for row in cursor.fetchall()]
            if ids:
                return list(dict.fromkeys(ids))[:limit]
    if len(folded) < 3:
        return []
    # pg_trgm's threshold for `%>`, local to this transaction (or to the caller's, when it
    # runs inside one): the session keeps its own; only this search uses the operator.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('pg_trgm.word_similarity_threshold', %s, true)",
            [str(WORD_SIMILARITY)],
        )
        cursor.execute(near, params)
        return [row[0] for row in cursor.fetchall()]


def _in_order(items: QuerySet[_Row], ids: list[int]) -> list[_Row]:
    found = {item.pk: item for item in items.filter(pk__in=ids)}
    return [found[pk] for pk in ids if pk in found]


def player_search(*, query: str, limit: int = 20) -> list[Player]:
    """Players by name, member number or document number, best first, at most `limit`: on
    PostgreSQL a typo is forgiven ("Dupond" finds DUPONT); "" or one letter finds nothing."""
    text = " ".join(str(query).split())
    if len(text) < MINIMUM_QUERY:
        return []
    limit = max(1, min(int(limit), 100))
    if connection.vendor == "postgresql":
        ids = _ids(_PLAYER_STEPS, text, limit)
        return _in_order(Player.objects.all(), ids)
    matched = Player.objects.filter(
        Q(name__icontains=text)
        | Q(member_number__istartswith=text)
        | Q(document_number__istartswith=text)
    )
    return list(matched.order_by("name", "member_number")[:limit])


def exclusion_search(*, query: str = "", limit: int = 50) -> list[ExclusionEntry]:
    """Entries of the exclusion list by name (folded; typo-tolerant on PostgreSQL) or by the
    list's reference, lifted ones included (they are the list's history); without a query,
    the latest added."""
    text = " ".join(str(query).split())
    limit = max(1, min(int(limit), 200))
    entries = ExclusionEntry.objects.select_related("added_by", "lifted_by")
    if len(text) < MINIMUM_QUERY:
        return list(entries.order_by("-added_at", "-pk")[:limit])
    folded = name_key(text)
    if connection.vendor == "postgresql":
        ids = _ids(_EXCLUSION_STEPS, text, limit)
        return _in_order(entries, ids)
    words = folded.split()
    if not words:
        return []
    matched = entries.filter(Q(reference__iexact=text) | Q(surname_key__startswith=words[0]))
    found = [
        entry
        for entry in matched.order_by("surname_key", "first_names_key", "pk")
        if folded in f"{entry.surname_key} {entry.first_names_key}"
        or entry.reference.lower() == text.lower()
    ]
    return found[:limit]


def exclusion_import_list(*, limit: int = 10) -> list[ExclusionImport]:
    """The latest imports of the exclusion list, newest first (without their files' text)."""
    return list(ExclusionImport.objects.select_related("created_by").defer("content")[:limit])
