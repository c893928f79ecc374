"""History that cannot be rewritten quietly (docs/security.md, "The history's hash chains"):
the audit log, the books and each table session's journal are hash chains, and
`history_verify` names the first broken link of each.

The history is tampered with as its owner, triggers off: on PostgreSQL through
`tests.db_owner.owner_cursor` (committed rows: transactional tests), on SQLite by dropping the
append-only triggers inside the test's own transaction. A concurrency test on PostgreSQL posts
from several threads at once, with its control (docs/conventions.md, rule 10).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction

from establishment.chain import AUDIT_CHAIN, GENESIS, ChainHead, audit_content, link
from establishment.models import AuditEntry
from establishment.services import audit, audit_entry, audit_rows_insert
from ledger.chain import LEDGER_CHAIN
from ledger.models import Entry, Transaction
from ledger.services import Leg, post
from reports.history import ChainBreak, HistoryCheck, history_verify
from tables.chain import journal_chain
from tables.models import TableEvent, TableSession
from tests.concurrency import kit
from tests.concurrency.kit import Floor, floor_open
from tests.concurrency.threads import together
from tests.db_owner import owner_cursor
from tests.factories import UserFactory

ON_POSTGRES = connection.vendor == "postgresql"
# PostgreSQL: the owner's connection sees committed rows only; SQLite: one connection, the
# test's transaction rolled back with the triggers it dropped.
pytestmark = pytest.mark.django_db(transaction=ON_POSTGRES, serialized_rollback=ON_POSTGRES)

Tamper = Callable[..., None]


@pytest.fixture
def tamper() -> Iterator[Tamper]:
    """Run SQL on the history as its owner with the append-only triggers off. `{json}` in the
    statement stands for a JSON parameter."""
    if ON_POSTGRES:

        def as_owner(sql: str, params: Sequence[Any] = ()) -> None:
            with owner_cursor() as cursor:
                cursor.execute(sql.replace("{json}", "%s::jsonb"), params)

        yield as_owner
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' "
            "AND (name LIKE '%no_update' OR name LIKE '%no_delete')"
        )
        for (name,) in cursor.fetchall():
            cursor.execute(f"DROP TRIGGER {name}")

    def in_place(sql: str, params: Sequence[Any] = ()) -> None:
        with connection.cursor() as cursor:
            cursor.execute(sql.replace("{json}", "%s"), params)

    yield in_place


@pytest.fixture
def night() -> TableSession:
    """A table with its shoe cut and two coups settled (journal lines, audit rows, postings),
    and audit rows written one by one and several at once."""
    floor: Floor = floor_open()
    at = kit.Croupier(kit.cf_table(floor), floor.croupier)
    at.do("new_shoe", cut_by=1)
    at.play(kit.cf_banker_wins(1000))
    at.do("continue_bank", 1, reliquat=0)
    at.play(kit.cf_ponte_wins(1950))  # the bank as the first coup left it
    audit(user=floor.manager, action="a_note", note="é ü")
    audit_rows_insert(
        [audit_entry(user=floor.manager, action="bulk", n=n, client="tests") for n in range(3)]
    )
    return at.table_session


def _broken(found: HistoryCheck, chain: str) -> ChainBreak:
    (check,) = [c for c in found.chains if c.chain == chain]
    assert check.broken is not None, f"{chain} verified although tampered with"
    assert [b.chain for b in found.breaks] == [chain], found.breaks  # the others still hold
    return check.broken


def _lines(table_session: TableSession) -> list[TableEvent]:
    return list(TableEvent.objects.filter(table_session=table_session).order_by("seq"))


def _posted() -> list[Transaction]:
    return list(Transaction.objects.order_by("chain_position"))


# -- a clean history -------------------------------------------------------------------------


def test_a_clean_history_verifies_and_every_head_is_its_chains_last_row(
    night: TableSession,
) -> None:
    found = history_verify()
    assert found.ok, found.breaks
    names = {c.chain for c in found.chains}
    assert {AUDIT_CHAIN, LEDGER_CHAIN, journal_chain(night.pk)} <= names
    lines = _lines(night)
    posted = _posted()
    entries = list(AuditEntry.objects.order_by("chain_position"))
    assert [t.chain_position for t in posted] == list(range(1, len(posted) + 1))
    assert [e.chain_position for e in entries] == list(range(1, len(entries) + 1))
    assert len(posted) >= 2 and len(lines) > 10
    # Each row's hash is its content after the row before it, from the fixed genesis.
    assert entries[0].chain_hash == link(GENESIS, audit_content(entries[0]))
    heads = {h.name: (h.position, h.last_hash) for h in ChainHead.objects.all()}
    assert heads[AUDIT_CHAIN] == (entries[-1].chain_position, entries[-1].chain_hash)
    assert heads[LEDGER_CHAIN] == (posted[-1].chain_position, posted[-1].chain_hash)
    assert heads[journal_chain(night.pk)] == (lines[-1].seq, lines[-1].chain_hash)
    assert found.heads[AUDIT_CHAIN] == heads[AUDIT_CHAIN]


def test_the_command_says_every_link_holds_and_prints_json(night: TableSession) -> None:
    out = StringIO()
    call_command("history_verify", stdout=out)
    assert "every link holds" in out.getvalue()
    out = StringIO()
    call_command("history_verify", "--json", stdout=out)
    printed = json.loads(out.getvalue())
    assert printed["ok"] is True and printed["breaks"] == []
    assert printed["rows"] == sum(c["rows"] for c in printed["chains"]) > 0


def test_a_row_the_application_writes_without_its_hash_is_refused(night: TableSession) -> None:
    line = _lines(night)[-1]
    with pytest.raises(IntegrityError), transaction.atomic():
        TableEvent.objects.bulk_create(
            [
                TableEvent(
                    table_session=night,
                    seq=line.seq + 1,
                    kind=line.kind,
                    idempotency_key="unchained",
                    recorded_by=line.recorded_by,
                    recorded_at=line.recorded_at,
                )
            ]
        )


# -- tampered with ---------------------------------------------------------------------------


def test_an_amount_changed_names_its_transaction(night: TableSession, tamper: Tamper) -> None:
    first, second = _posted()[:2]
    entry = Entry.objects.filter(transaction=second).order_by("pk").first()
    assert entry is not None
    tamper("UPDATE ledger_entry SET amount = amount + 10 WHERE id = %s", [entry.pk])
    broken = _broken(history_verify(), LEDGER_CHAIN)
    assert (broken.kind, broken.row, broken.position) == ("changed", second.pk, 2)
    assert broken.stored == second.chain_hash and broken.expected != broken.stored
    assert first.chain_position == 1


def test_a_journal_payload_changed_names_its_line(night: TableSession, tamper: Tamper) -> None:
    line = _lines(night)[4]
    tamper(
        "UPDATE tables_tableevent SET action = {json} WHERE id = %s",
        [json.dumps({**line.action, "amount": 1_000_000}), line.pk],
    )
    broken = _broken(history_verify(), journal_chain(night.pk))
    assert (broken.kind, broken.row, broken.position) == ("changed", line.pk, line.seq)
    assert broken.stored == line.chain_hash


def test_an_audit_row_changed_names_it(night: TableSession, tamper: Tamper) -> None:
    entry = AuditEntry.objects.get(action="a_note")
    tamper(
        "UPDATE establishment_auditentry SET actor_id = %s WHERE id = %s",
        [
            UserFactory.create().pk,
            entry.pk,
        ],
    )
    broken = _broken(history_verify(), AUDIT_CHAIN)
    assert (broken.kind, broken.row, broken.position) == ("changed", entry.pk, entry.chain_position)


def test_a_row_deleted_is_a_gap_at_the_row_after_it(night: TableSession, tamper: Tamper) -> None:
    lines = _lines(night)
    tamper("DELETE FROM tables_tableevent WHERE id = %s", [lines[3].pk])
    broken = _broken(history_verify(), journal_chain(night.pk))
    assert (broken.kind, broken.row, broken.position) == ("gap", lines[4].pk, lines[4].seq)
    assert "position 4 expected, 5 found" in broken.detail


def test_two_lines_exchanged_are_reordered(night: TableSession, tamper: Tamper) -> None:
    lines = _lines(night)
    a, b = lines[2], lines[3]
    for pk, seq in ((a.pk, 100_000), (b.pk, a.seq), (a.pk, b.seq)):
        tamper("UPDATE tables_tableevent SET seq = %s WHERE id = %s", [seq, pk])
    broken = _broken(history_verify(), journal_chain(night.pk))
    assert (broken.kind, broken.row, broken.position) == ("reordered", b.pk, a.seq)


def test_two_audit_rows_exchanged_are_reordered(night: TableSession, tamper: Tamper) -> None:
    first, second = AuditEntry.objects.filter(action="bulk").order_by("chain_position")[:2]
    moves = ((first, 10**9), (second, first.chain_position), (first, second.chain_position))
    for row, position in moves:
        tamper(
            "UPDATE establishment_auditentry SET chain_position = %s WHERE id = %s",
            [position, row.pk],
        )
    broken = _broken(history_verify(), AUDIT_CHAIN)
    assert (broken.kind, broken.row, broken.position) == (
        "reordered",
        second.pk,
        first.chain_position,
    )


def test_two_transactions_ids_exchanged_break_the_books(
    night: TableSession, tamper: Tamper
) -> None:
    first, second = _posted()[:2]
    spare = max(t.pk for t in _posted()) + 1000
    for pk, new in ((first.pk, spare), (second.pk, first.pk), (spare, second.pk)):
        tamper("UPDATE ledger_transaction SET id = %s WHERE id = %s", [new, pk])
    broken = _broken(history_verify(), LEDGER_CHAIN)
    assert broken.position == 1 and broken.kind in {"changed", "reordered"}


def test_the_journals_tail_deleted_is_truncated(night: TableSession, tamper: Tamper) -> None:
    lines = _lines(night)
    tamper("DELETE FROM tables_tableevent WHERE id IN (%s, %s)", [lines[-1].pk, lines[-2].pk])
    broken = _broken(history_verify(), journal_chain(night.pk))
    assert (broken.kind, broken.position) == ("truncated", lines[-3].seq)
    assert broken.expected == lines[-1].chain_hash and broken.stored == lines[-3].chain_hash


def test_the_whole_audit_log_deleted_is_truncated(night: TableSession, tamper: Tamper) -> None:
    last = AuditEntry.objects.order_by("chain_position").last()
    assert last is not None
    tamper("DELETE FROM establishment_auditentry")
    broken = _broken(history_verify(), AUDIT_CHAIN)
    assert (broken.kind, broken.row, broken.stored) == ("truncated", None, None)
    assert broken.expected == last.chain_hash
    assert f"rows 1 to {last.chain_position} are missing" in broken.detail


def test_the_whole_books_and_a_journal_deleted_are_truncated(
    night: TableSession, tamper: Tamper
) -> None:
    tamper("DELETE FROM ledger_entry")
    tamper("DELETE FROM ledger_transaction")
    tamper("DELETE FROM tables_tableevent WHERE table_session_id = %s", [night.pk])
    found = history_verify()
    kinds = {b.chain: b.kind for b in found.breaks}
    assert kinds == {LEDGER_CHAIN: "truncated", journal_chain(night.pk): "truncated"}
    with pytest.raises(CommandError, match="2 broken chain"):
        call_command("history_verify", stdout=StringIO(), stderr=StringIO())


def test_a_chain_recomputed_after_a_change_is_caught_by_the_heads_noted_before(
    night: TableSession, tamper: Tamper, tmp_path: Any
) -> None:
    noted = tmp_path / "heads.json"
    out = StringIO()
    call_command("history_verify", "--json", stdout=out)
    noted.write_text(out.getvalue(), encoding="utf-8")
    last = AuditEntry.objects.order_by("chain_position").last()
    assert last is not None
    # The last row rewritten, its hash and the head recomputed: the chain holds again…
    last.data = {**last.data, "n": 99}
    previous = AuditEntry.objects.get(chain_position=last.chain_position - 1).chain_hash
    forged = link(previous, audit_content(last))
    tamper(
        "UPDATE establishment_auditentry SET data = {json}, chain_hash = %s WHERE id = %s",
        [json.dumps(last.data), forged, last.pk],
    )
    tamper(
        "UPDATE establishment_chainhead SET last_hash = %s WHERE name = %s", [forged, AUDIT_CHAIN]
    )
    assert history_verify().ok
    # …but not against the head noted before.
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("history_verify", "--anchors", str(noted), stdout=StringIO(), stderr=err)
    assert "establishment.audit: rewritten" in err.getvalue()


def test_anchors_that_are_not_history_verify_output_are_refused(tmp_path: Any) -> None:
    wrong = tmp_path / "wrong.json"
    wrong.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(CommandError, match="expects the JSON written by history_verify"):
        call_command("history_verify", "--anchors", str(wrong))


# -- concurrency -----------------------------------------------------------------------------


WRITERS = 6
EACH = 8


@pytest.mark.postgres
def test_writers_at_once_leave_one_unbroken_chain_of_the_books_and_the_audit_log() -> None:
    floor = floor_open()
    books = [_player_account(floor, f"C{n}") for n in range(2)]
    # Every writer posts and audits in one transaction, as the table's services do.
    outcomes = together(
        [lambda n=n: _post_and_audit(floor, books, n) for n in range(WRITERS)]  # type: ignore[misc]
    )
    assert [o.error for o in outcomes] == [None] * WRITERS
    found = history_verify()
    assert found.ok, found.breaks
    assert Transaction.objects.count() == WRITERS * EACH
    assert ChainHead.objects.get(name=LEDGER_CHAIN).position == WRITERS * EACH
    positions = list(AuditEntry.objects.order_by("chain_position").values_list("chain_position"))
    assert [p for (p,) in positions] == list(range(1, len(positions) + 1))


@pytest.mark.postgres
def test_control_writers_that_read_the_end_without_the_heads_lock_break_the_chain() -> None:
    """The control: each writer reads the audit log's last row (no lock) and appends after it,
    as a chain without its head's lock would. Writers meet on a position or fork the chain."""
    floor = floor_open()
    audit(user=floor.manager, action="first")
    outcomes = together([lambda: _unlocked_audit(floor) for _n in range(WRITERS)])
    refused = [o.error for o in outcomes if isinstance(o.error, IntegrityError)]
    assert len(refused) >= 1, "no two writers met: the control shows nothing"


def _player_account(floor: Floor, code: str) -> Any:
    from establishment.models import Player
    from ledger.models import AccountKind
    from ledger.services import account_get_or_create

    player = Player.objects.create(name=code, member_number=code)
    return account_get_or_create(
        kind=AccountKind.PLAYER_POSITION, player=player, gaming_session=floor.gaming_session
    )


def _post_and_audit(floor: Floor, books: list[Any], writer: int) -> None:
    for n in range(EACH):
        with transaction.atomic(durable=True):
            post(
                legs=[Leg.debit(books[0], 10, "stake"), Leg.credit(books[1], 10, "stake")],
                idempotency_key=f"w{writer}-{n}",
                posted_by=floor.manager,
            )
            audit(user=floor.manager, action="concurrent", writer=writer, n=n)


def _unlocked_audit(floor: Floor) -> None:
    with transaction.atomic(durable=True):
        last = AuditEntry.objects.order_by("chain_position").last()
        assert last is not None
        time.sleep(0.05)  # widen the window between the read and the write
        entry = audit_entry(user=floor.manager, action="unlocked")
        entry.chain_position = last.chain_position + 1
        entry.chain_hash = link(last.chain_hash, audit_content(entry))
        AuditEntry.objects.bulk_create([entry])
