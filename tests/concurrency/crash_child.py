"""A recording process for the crash-safety test (tests/tables/test_crash_safety.py).

    python -m tests.concurrency.crash_child <table session pk> <croupier pk> <coups>

Records coups at a chemin de fer table through `tables.services.record`, as a croupier would,
from wherever the table stands (so a new process resumes where a killed one stopped), and
prints `RECORDED <seq>` after each commit. With `CRASH_INSIDE=1` it stops inside the
transaction of the first action that settles a coup — the ledger entries and the coup row
written, the journal line and the COMMIT not yet — prints `INSIDE <seq>` and waits there to be
killed. `DATABASE_URL` names the database (the test database of the parent).
"""

from __future__ import annotations

import itertools
import os
import sys
import time
import uuid
from typing import Any

import django

CARD_VALUE = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _value(ranks: tuple[str, str]) -> int:
    return sum(CARD_VALUE.get(r, 0) if r in CARD_VALUE else int(r) for r in ranks) % 10


def _candidates(phase: str, legal: list[str]) -> list[tuple[str, Any, dict[str, Any]]]:
    """The next action of a banker-wins coup at a fixed bank of 1000, by phase."""
    if "new_shoe" in legal:
        return [("new_shoe", "croupier", {"cut_by": seat}) for seat in range(1, 7)]
    if phase == "bank_pending":
        return [("announce_bank", 1, {"amount": 1000})]
    if phase == "banco_call":
        return [("banco_call", "croupier", {"claims": [{"player": 3, "kind": "banco"}]})]
    if phase == "dealing":  # ponte 6 stands, banker 7 stands: the banker wins
        pontes = [p for p in itertools.product(RANKS, RANKS) if _value(p) == 6]
        bankers = [b for b in itertools.product(RANKS, RANKS) if _value(b) == 7]
        return [
            ("deal", "croupier", {"ponte": list(p), "banker": list(b)})
            for p, b in itertools.product(pontes, bankers)
        ]
    if phase == "ponte_decision":
        return [("ponte_stand", 3, {})]
    if phase == "banker_response":
        return [("banker_stand", 1, {})]
    if phase == "bank_decision":  # CF-5.5: keep the bank at 1000, the rest set aside
        return [("continue_bank", 1, {"reliquat": 950})]
    raise AssertionError(f"unexpected phase {phase}")


def main(table_session_pk: int, user_pk: int, coups: int) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")
    django.setup()
    from django.contrib.auth.models import User

    from tables.engine import Action, RuleError, legal_action_types, step
    from tables.models import TableSession
    from tables.services import recording
    from tables.services.journal import journal_get, last_seq_get

    if os.environ.get("CRASH_INSIDE") == "1":
        real = recording.consequences_book

        def stalled(**kwargs: Any) -> dict[str, Any]:
            outcome = real(**kwargs)
            if outcome["coups"]:
                print("INSIDE", kwargs["seq"], flush=True)
                time.sleep(300)
            return outcome

        recording.consequences_book = stalled

    table_session = TableSession.objects.get(pk=table_session_pk)
    user = User.objects.get(pk=user_pk)
    settled = 0
    while settled < coups:
        last = last_seq_get(table_session)
        journal = journal_get(table_session, last)
        legal = legal_action_types(journal.game, journal.state)
        for type_, actor, params in _candidates(journal.state.phase, legal):
            try:
                step(journal.game, journal.state, Action(type_, actor, params))
            except RuleError:
                continue
            done = recording.record(
                table_session=table_session,
                action={"type": type_, "actor": actor, **params},
                expected_seq=last + 1,
                user=user,
                idempotency_key=str(uuid.uuid4()),
                client="crash-test",
            )
            settled += len(done.outcome["coups"])
            print("RECORDED", done.seq, flush=True)
            break
        else:
            raise AssertionError(f"nothing fits in {journal.state.phase}")


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
