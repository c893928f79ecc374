"""INV-6: a Hypothesis state machine drives the service layer (docs/conventions.md,
invariant 6, the TigerBeetle "auditor" idea).

Random legal actions at several tables of one gaming session — chosen among
`table_state_get(...).legal`, with parameters generated the way the engine's own playouts
generate them (tests/engine/test_<game>.py) — interleaved with undos, voids asked for by the
croupier and approved or refused by an inspector, voids of the coup in progress, tables opened
and closed. After every step, for every table of the night:

- the ledger equals a replay of the stored effective actions through the engine
  (`tables.services.journal.journal_build`), owner by owner;
- every transaction sums to zero (INV-1); no cagnotte, reliquat or reserve fund is below zero
  (INV-2);
- the table's cagnotte account equals the sum of the engine's levies;
- the journal the service keeps in its cache equals the replay from the database.

Bounded for CI: a few examples of a few dozen steps (`SETTINGS` below).
"""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, settings, strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from establishment.errors import DomainError
from ledger.models import Account, AccountKind
from ledger.selectors import account_balance_get
from tables.engine import Action, GameState, LegalAction, RuleError, step
from tables.models import Coup, TableSession, VoidRequest
from tables.postings import table_place
from tables.selectors import table_state_get
from tables.services import (
    RuleRefusedError,
    open_coup_void,
    table_session_close,
    void_decide,
    void_request,
)
from tables.services.journal import journal_get, last_seq_get
from tests.concurrency.kit import (
    CF_SETTINGS,
    Croupier,
    bounded_balances_negative,
    engine_levies,
    engine_totals,
    floor_open,
    journal_replayed,
    ledger_totals,
    players_ensure,
    table_open,
    unbalanced_transactions,
)
from tests.engine.test_chemin_de_fer import Driver as CFDriver
from tests.engine.test_landsknecht import _random_params as lr_params
from tests.engine.test_lansquenet_classique import _random_action as lc_action
from tests.engine.test_lansquenet_moderne import _params as lm_params
from tests.engine.test_pontoon import _valid_params as pt_params

pytestmark = pytest.mark.django_db

# game → (settings, seated players)
TABLES: dict[str, tuple[dict[str, Any], int]] = {
    "chemin_de_fer": (CF_SETTINGS, 6),
    "lansquenet_moderne": ({"decks": 1, "chip_unit": 5, "min_bank": 20, "min_stake": 5}, 4),
    "landsknecht": ({"chip_unit": 1, "reserve_contribution": 10, "agreed_stake": 40}, 4),
    "pontoon": ({"chip_unit": 1, "min_stake": 5, "max_stake": 50}, 4),
    "lansquenet_classique": ({"base_stake": 10}, 5),
}
RARE = {"end_session": 0.01, "leave": 0.05, "sit": 0.1, "add_standing": 0.05, "give_up_bank": 0.1}


def candidates(
    game: str, state: GameState, legal: LegalAction, rng: random.Random, serial: list[int]
) -> list[Action]:
    """Actions of type `legal.type` to try, as the engine's playouts would generate them."""
    actor = rng.choice(legal.actors)
    if game == "chemin_de_fer":
        driver = CFDriver(rng, state)  # type: ignore[arg-type]
        return [Action(legal.type, actor, p) for p in driver.candidates(legal.type, actor)]
    if game == "lansquenet_moderne":
        params = lm_params(rng, state, legal.type, serial)  # type: ignore[arg-type]
    elif game == "landsknecht":
        params = lr_params(rng, state, legal.type)  # type: ignore[arg-type]
    elif game == "pontoon":
        params = pt_params(rng, state, legal.type, serial[0])  # type: ignore[arg-type]
    else:
        return [lc_action(rng, state, serial)]  # type: ignore[arg-type]
    return [Action(legal.type, actor, params)]


class Night(RuleBasedStateMachine):
    """One gaming session: tables of any game, their croupiers, two inspectors."""

    around: Callable[[], AbstractContextManager[Any]]

    def __init__(self) -> None:
        super().__init__()
        self.floor = floor_open()
        self.open: list[Croupier] = []
        self.all: list[TableSession] = []
        self.serial = [0]
        self.refused = 0

    # -- tables --------------------------------------------------------------------------

    def _open(self, game: str) -> None:
        table_settings, seated = TABLES[game]
        prefix = f"G{uuid.uuid4().hex[:6]}"
        table = table_open(
            self.floor,
            game,
            table_settings,
            {seat: f"{prefix}S{seat}" for seat in range(1, seated + 1)},
            standing=[f"{prefix}X"] if game != "pontoon" else [],
            seat_count=8 if game == "pontoon" else 12,
            croupier=floor_open().croupier,
        )
        self.open.append(Croupier(table, self._croupier_of(table), self.around))
        self.all.append(table)

    @staticmethod
    def _croupier_of(table: TableSession) -> Any:
        return table.assignments.get().staff

    @initialize(game=st.sampled_from(sorted(TABLES)))
    def first_table(self, game: str) -> None:
        self._open(game)

    @precondition(lambda self: len(self.open) < 2)
    @rule(game=st.sampled_from(sorted(TABLES)))
    def open_table(self, game: str) -> None:
        self._open(game)

    @precondition(lambda self: bool(self.open))
    @rule(data=st.data())
    def close_table(self, data: st.DataObject) -> None:
        at = data.draw(st.sampled_from(self.open))
        if len(journal_get(at.table_session).state.coups) < 2:
            return  # let the night go on a little first
        with self.around():
            try:
                table_session_close(table_session=at.table_session, user=self.floor.inspector)
            except DomainError as error:
                assert error.code == "coup_in_progress"
                return
        self.open.remove(at)

    # -- play ----------------------------------------------------------------------------

    @precondition(lambda self: bool(self.open))
    @rule(data=st.data(), moves=st.integers(min_value=1, max_value=40))
    def play(self, data: st.DataObject, moves: int) -> None:
        at = data.draw(st.sampled_from(self.open))
        rng = random.Random(data.draw(st.integers(0, 2**32 - 1)))
        game = at.table_session.game
        for _ in range(moves):
            view = table_state_get(table_session=at.table_session)
            if not view.legal:
                return
            weights = [RARE.get(la.type, 1.0) for la in view.legal]
            legal = rng.choices(view.legal, weights)[0]
            state = journal_get(at.table_session).state
            for action in candidates(game, state, legal, rng, self.serial):
                if action.type in ("sit", "add_standing"):
                    self.serial[0] += 1
                    code = f"N{uuid.uuid4().hex[:8]}"
                    action = Action(action.type, action.actor, {**action.params, "player": code})
                    players_ensure([code])
                try:
                    step(journal_get(at.table_session).game, state, action)
                except RuleError:
                    continue  # try the next candidate (a random deal on exhausted ranks)
                at.do(action.type, action.actor, **dict(action.params))
                break
            else:
                self._refused(at)

    # Play is what happens most at a table: three rules draw it.
    play_more = play
    play_again = play

    def _refused(self, at: Croupier) -> None:
        """Nothing fitted: record a wrong action; it must change nothing (COM-10.2)."""
        seq = last_seq_get(at.table_session)
        with pytest.raises(RuleRefusedError):
            at.do("no_such_action")
        assert last_seq_get(at.table_session) == seq
        self.refused += 1

    # -- corrections ---------------------------------------------------------------------

    @precondition(lambda self: bool(self.open))
    @rule(data=st.data())
    def undo(self, data: st.DataObject) -> None:
        at = data.draw(st.sampled_from(self.open))
        seq = last_seq_get(at.table_session)
        try:
            at.undo(reason="slip of the finger")
        except DomainError:
            assert last_seq_get(at.table_session) == seq

    @precondition(lambda self: bool(self.open))
    @rule(data=st.data(), approve=st.booleans(), by_inspector=st.booleans())
    def void(self, data: st.DataObject, approve: bool, by_inspector: bool) -> None:
        at = data.draw(st.sampled_from(self.open))
        coups = list(
            Coup.objects.filter(table_session=at.table_session)
            .exclude(void_requests__decision__approved=True)
            .exclude(void_requests__decision__isnull=True, void_requests__isnull=False)
            .order_by("-settled_seq")[:2]
        )
        if not coups:
            return
        coup = data.draw(st.sampled_from(coups))  # the last one, or the one before (refused)
        requester = self.floor.inspector2 if by_inspector else at.user
        with self.around():
            request: VoidRequest = void_request(coup=coup, user=requester, reason="dispute")
            try:
                void_decide(
                    password="password", request=request, user=self.floor.inspector, approve=approve
                )
            except DomainError as error:
                assert error.code == "void_not_last" and coup.pk != coups[0].pk
                void_decide(
                    password="password", request=request, user=self.floor.inspector, approve=False
                )

    @precondition(lambda self: bool(self.open))
    @rule(data=st.data())
    def void_open_coup(self, data: st.DataObject) -> None:
        at = data.draw(st.sampled_from(self.open))
        seq = last_seq_get(at.table_session)
        try:
            with self.around():
                open_coup_void(
                    table_session=at.table_session,
                    expected_seq=seq + 1,
                    user=self.floor.inspector,
                    idempotency_key=str(uuid.uuid4()),
                    reason="the coup went wrong",
                )
        except DomainError as error:
            assert error.code == "nothing_to_undo"

    # -- the auditor ---------------------------------------------------------------------

    @invariant()
    def books_equal_the_engine(self) -> None:
        for table in self.all:
            replayed = journal_replayed(table)
            assert journal_get(table).state == replayed.state  # the cache is the replay
            assert ledger_totals(table) == engine_totals(table)
            cagnotte = Account.objects.filter(
                kind=AccountKind.CAGNOTTE,
                place=table_place(table.table.public_id),
                gaming_session=table.gaming_session,
            ).first()
            booked = account_balance_get(account=cagnotte) if cagnotte else 0
            assert booked == engine_levies(table)
        assert unbalanced_transactions() == []
        assert bounded_balances_negative() == []


SETTINGS = settings(
    # INV6_EXAMPLES=200 INV6_RANDOM=1 for a long hunt; CI keeps it short and the same on every
    # run (six random nights of thirty steps settled no coup about one run in six).
    max_examples=int(os.environ.get("INV6_EXAMPLES", "6")),
    derandomize=not os.environ.get("INV6_RANDOM"),
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_inv6_the_service_layer_against_the_engine(
    django_capture_on_commit_callbacks: Callable[..., AbstractContextManager[Any]],
) -> None:
    Night.around = staticmethod(partial(django_capture_on_commit_callbacks, execute=True))
    run_state_machine_as_test(Night, settings=SETTINGS)
    assert Coup.objects.exists()  # the night was played, not only opened
