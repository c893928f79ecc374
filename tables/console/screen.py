"""What the table screen draws, from the selectors' `TableState` (presentation only).

Turns the engine's view and legal actions into what a croupier reads and taps: seats with
names, the bank, the cards, the sabot, and one control per legal action with its actors and
parameters (from the game's `ActionSpec`), labelled in the table's words. No rule is decided
here: which actions are offered and who may take them is `legal_actions`' answer.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from tables.console.forms import Kind, spec_params
from tables.console.vocabulary import (
    ACTION_KEYS,
    SESSION_TYPES,
    action_label,
    chips_text,
    expected_say,
    outcome_label,
    owner_label,
    phase_label,
    reason_label,
)
from tables.engine import RANKS, game_get
from tables.engine.registry import NEW_PACK_ACTIONS
from tables.engine.settlement import RESERVE_FUND
from tables.models import Coup
from tables.selectors import TableState, stock_free_numbers
from tables.services.tickets import SeanceTickets, seance_tickets_get
from tables.ticket_models import cents_text

CROUPIER = "croupier"
# The field a new shoe's numbered sabot comes in (model 19): the house's, not the engine's.
STOCK_PARAM = "sabot"
RECENT_COUPS = 5


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    selected: bool = False


@dataclass(frozen=True)
class ParamView:
    name: str
    kind: str
    required: bool
    choices: tuple[Choice, ...] = ()  # seats to pick, amount chips, claim candidates
    final: bool = False  # its choices are the submit buttons (one tap)


@dataclass(frozen=True)
class Control:
    """One legal action: a big button, or a small form when it takes parameters."""

    type: str
    label: str
    actors: tuple[Choice, ...]
    params: tuple[ParamView, ...]
    shortcut: str = ""
    session: bool = False
    armed: bool = False  # the rank control the table's keypad sends its rank to

    @property
    def keypad(self) -> bool:
        """It takes a rank (or the deal's ranks) from the table's one keypad."""
        return self.has_rank or self.has_ranks

    @property
    def simple(self) -> bool:
        return not self.params

    @property
    def single_actor(self) -> Choice | None:
        return self.actors[0] if len(self.actors) == 1 else None

    @property
    def has_rank(self) -> bool:
        return any(p.kind == Kind.RANK for p in self.params)

    @property
    def has_ranks(self) -> bool:
        return any(p.kind == Kind.RANKS for p in self.params)

    @property
    def has_claims(self) -> bool:
        return any(p.kind == Kind.CLAIMS for p in self.params)

    @property
    def other_params(self) -> tuple[ParamView, ...]:
        """Parameters drawn as pickers before the keypad or the submit button."""
        return tuple(p for p in self.params if p.kind not in (Kind.RANK, Kind.RANKS, Kind.CLAIMS))

    @property
    def claims(self) -> ParamView | None:
        return next((p for p in self.params if p.kind == Kind.CLAIMS), None)


@dataclass(frozen=True)
class SeatRow:
    """A seat (or, with seat 0, a standing player) as the seat list draws it. Who holds the
    bank is not part of it: the screen's meta says (`Screen.banker_seat`), so that the list is
    not drawn again each time the bank changes hands."""

    seat: int
    code: str | None
    name: str


@dataclass(frozen=True)
class PayoutLine:
    owner: str  # the ledger's owner: a player id, "cagnotte", "reliquat:<id>", "reserve_fund"
    who: str
    amount: int


@dataclass(frozen=True)
class TicketsLine:
    """A coup's levy in money and the tickets the croupier detaches for it, in a house that
    still tears them (docs/registers.md, "Tickets"): « 1 × 10 €, 2 × 1 €, 3 × 0,10 € », and
    what the face values at the table cannot make ("" when they make it all)."""

    levy: str
    tickets: str
    left: str


@dataclass(frozen=True)
class CoupRow:
    coup: Coup
    outcome: str
    banker: str
    results: tuple[PayoutLine, ...]
    cagnotte_chips: int
    tickets: TicketsLine | None = None


@dataclass
class Screen:
    state: TableState
    game: str
    phase: str
    expected: str
    banker: str
    bank: Any
    to_cover: Any
    reliquat: Any
    seats: list[SeatRow]
    standing: list[SeatRow]
    stakes: list[dict[str, Any]]
    cards: Any
    hands: list[dict[str, Any]]  # every game's hands alike (`hands` of the view)
    pack: Mapping[str, Any] | None
    coups_played: int = 0
    controls: list[Control] = field(default_factory=list)
    session_controls: list[Control] = field(default_factory=list)
    coups: list[CoupRow] = field(default_factory=list)
    claimants: tuple[Choice, ...] = ()  # chemin de fer: who may call banco (the claims table)
    banker_seat: str = ""  # the banker's seat, marked in the seat list and the claims table
    ranks: tuple[str, ...] = RANKS


def new_key() -> str:
    """An idempotency key for what the screen posts next (64 random bits: keys are unique
    within a table session)."""
    return secrets.token_hex(8)


def _names(state: TableState) -> dict[str, str]:
    return dict(state.players)


def who_label(state: TableState, who: Any) -> str:
    """A seat, a player id or an account owner, in words: "3 · Anne Aubert", "cagnotte",
    "fonds de réserve"."""
    names = state.players
    if isinstance(who, int):
        seat = state.seats[who - 1] if 0 < who <= len(state.seats) else None
        name = seat.player_name if seat and seat.player_name else ""
        return f"{who} · {name}" if name else str(who)
    text = str(who)
    if text == CROUPIER:
        return owner_label("croupier")
    if text == RESERVE_FUND:
        return owner_label("reserve_fund")  # LR-2, as the transfer reasons name it
    if text.startswith("reliquat:"):
        code = text.partition(":")[2]
        return owner_label("reliquat", names.get(code, code))
    for seat in state.seats:
        if seat.player_code == text:
            return f"{seat.seat} · {seat.player_name or text}"
    return names.get(text, text)


def _chips(state: TableState, limit: Any, *, zero: bool = False) -> tuple[Choice, ...]:
    """Quick amounts: multiples of the table's minimum, capped by what is left (and "all")."""
    settings = state.table_session.settings
    base = next(
        (
            int(settings[name])
            for name in ("min_stake", "base_stake", "agreed_stake", "min_bank", "chip_unit")
            if isinstance(settings.get(name), int) and settings[name] > 0
        ),
        10,
    )
    amounts = [base * k for k in (1, 2, 5, 10, 20, 50, 100)]
    if isinstance(limit, int) and limit > 0:
        amounts = [a for a in amounts if a < limit] + [limit]
    if zero:
        amounts = [0, *amounts]
    return tuple(Choice(str(a), chips_text(a)) for a in dict.fromkeys(amounts))


def _seat_choices(
    state: TableState, action_type: str, name: str, view: Mapping[str, Any]
) -> tuple[Choice, ...]:
    """Free seats to sit on; occupied seats for everything else, the likely one selected."""
    # The seat the next card or the cut goes to, as the game's view says (`next_seat`: PT-4.1,
    # LC-2.4, CF-3.2).
    preferred = view.get("next_seat") if name in ("to", "cut_by") else None
    if action_type == "sit":
        seats = [s for s in state.seats if s.player_code is None]
    else:
        seats = [s for s in state.seats if s.player_code is not None]
    return tuple(Choice(str(s.seat), who_label(state, s.seat), s.seat == preferred) for s in seats)


def _claim_candidates(state: TableState) -> tuple[Choice, ...]:
    """Who may call banco: the seated players, then the standing ones. The banker's row is
    hidden by the screen (console.js, from `Screen.banker_seat`) rather than left out, so that
    the table is drawn again only when the seating changes, not each time the bank changes
    hands (an answer of 7 KB at a full table); the engine refuses the banker's claim anyway
    (CF-4.2.1, `E_NOT_ELIGIBLE`)."""
    seated = [Choice(str(s.seat), who_label(state, s.seat)) for s in state.seats if s.player_code]
    standing = [Choice(code, who_label(state, code)) for code in state.standing]
    return tuple(seated + standing)


def _stock_param(state: TableState) -> list[ParamView]:
    """A new shoe or pack at a table with numbered sabots (model 19): the numbers still unused
    there, one tap each; nothing when the séance has none."""
    numbers = stock_free_numbers(table_session_id=state.table_session.pk)
    choices = tuple(Choice(str(n), str(n), i == 0) for i, n in enumerate(numbers))
    return [ParamView(STOCK_PARAM, "stock", True, choices)] if numbers else []


def _params(state: TableState, action_type: str, view: Mapping[str, Any]) -> tuple[ParamView, ...]:
    spec = game_get(state.table_session.game).actions[action_type]
    limit = view.get("to_cover") if view.get("to_cover") else view.get("bank")
    out: list[ParamView] = _stock_param(state) if action_type in NEW_PACK_ACTIONS else []
    for name, kind, required in spec_params(spec):
        choices: tuple[Choice, ...] = ()
        if kind == Kind.SEAT:
            choices = _seat_choices(state, action_type, name, view)
        elif kind == Kind.AMOUNT:
            zero = name == "reliquat"
            if name == "reliquat":
                limit = view.get("bank")
            choices = _chips(state, None if action_type == "announce_bank" else limit, zero=zero)
            if action_type == "announce_bank" and isinstance(view.get("bank"), int):
                # A fixed bank (after a suite, CF-6.2) is announced at its figure: one tap.
                # Any other figure would be refused: the one chip is all there is to tap.
                choices = (Choice(str(view["bank"]), chips_text(view["bank"]), True),)
        elif kind == Kind.CLAIMS:
            choices = _claim_candidates(state)
        elif kind in (Kind.PLAYER, Kind.SEAT_OR_PLAYER) and action_type == "leave":
            choices = tuple(Choice(code, who_label(state, code)) for code in state.standing)
        out.append(ParamView(name, str(kind), required, choices))
    pickers = [p for p in out if p.kind not in (Kind.RANK, Kind.RANKS, Kind.CLAIMS)]
    if len(pickers) == len(out) and pickers:
        finals = {p.name for p in pickers} if spec.one_of else {pickers[-1].name}
        out = [replace(p, final=p.name in finals) for p in out]
    return tuple(out)


def controls_build(state: TableState) -> tuple[list[Control], list[Control]]:
    """The legal actions as controls: the coup's first, then the session's."""
    game = state.table_session.game
    view = state.view
    coup: list[Control] = []
    session: list[Control] = []
    used_keys: set[str] = set()
    for legal in state.legal:
        actors = tuple(Choice(str(a), who_label(state, a)) for a in legal.actors)
        params = _params(state, legal.type, view)
        shortcut = ACTION_KEYS.get(legal.type, "")
        if shortcut in used_keys or params or len(actors) != 1:
            shortcut = ""
        used_keys.add(shortcut)
        control = Control(
            type=legal.type,
            label=action_label(game, legal.type),
            actors=actors,
            params=params,
            shortcut=shortcut,
            session=legal.type in SESSION_TYPES,
        )
        (session if control.session else coup).append(control)
    return _arm(coup), session


def _arm(controls: list[Control]) -> list[Control]:
    """Which rank control the keypad serves first: the one that takes nothing but the rank
    (pontoon's « Tourner » before « Acheter », which wants an amount first), else the first.
    The croupier arms another by touching it."""
    takers = [c for c in controls if c.keypad]
    if not takers:
        return controls
    chosen = next((c for c in takers if not c.other_params and c.has_rank), takers[0])
    return [replace(c, armed=True) if c is chosen else c for c in controls]


def _seat_rows(state: TableState) -> list[SeatRow]:
    return [
        SeatRow(seat.seat, seat.player_code, seat.player_name or seat.player_code or "")
        for seat in state.seats
    ]


def _banker_seat(state: TableState) -> str:
    seat = next((s.seat for s in state.seats if state.banker and s.player_code == state.banker), 0)
    return str(seat) if seat else ""


def tickets_line(seance: SeanceTickets, levy_chips: int) -> TicketsLine:
    """The tickets of a levy of `levy_chips` chips, with the face values of the books at the
    table (`tables.tickets.tickets_for`: the fewest tickets)."""
    made = seance.of(levy_chips)
    return TicketsLine(
        levy=_unbroken(cents_text(levy_chips * seance.cents_per_chip, seance.currency)),
        tickets=", ".join(
            _unbroken(f"{count} × {cents_text(face)}") for face, count in made.by_face
        ),
        left=_unbroken(cents_text(made.left, seance.currency)) if made.left else "",
    )


def _unbroken(text: str) -> str:
    """« 2 × 0,10 € » kept on one line (no-break spaces): the croupier reads each at a glance."""
    return text.replace(" ", "\u00a0")


def _levied(coup: Coup) -> bool:
    """A coup whose levy stands: a levy, and the coup not voided."""
    return coup.cagnotte_chips > 0 and not getattr(coup, "is_voided", False)


def coup_rows(state: TableState, coups: Iterable[Coup]) -> list[CoupRow]:
    """The last coups as the screen lists them; in a house that tears tickets, each coup with a
    levy says the tickets to detach (the séance's face values read once, and only then)."""
    coups = list(coups)
    seance = (
        seance_tickets_get(table_session=state.table_session)
        if any(_levied(coup) for coup in coups)
        else None
    )
    rows = []
    for coup in coups:
        results = tuple(
            PayoutLine(str(who), who_label(state, who), int(amount))
            for who, amount in sorted(coup.results.items(), key=lambda item: -int(item[1]))
        )
        rows.append(
            CoupRow(
                coup,
                outcome_label(coup.outcome),
                who_label(state, coup.banker) if coup.banker else "—",
                results,
                coup.cagnotte_chips,
                tickets_line(seance, coup.cagnotte_chips) if seance and _levied(coup) else None,
            )
        )
    return rows


def _count(value: Any) -> int:
    return value if isinstance(value, int) else len(value) if isinstance(value, list) else 0


def screen_build(state: TableState, *, coups: Iterable[Coup], may_record: bool) -> Screen:
    view = state.view
    stakes = list(view.get("stakes") or [])
    reliquats = view.get("reliquats") or {}
    screen = Screen(
        state=state,
        game=state.table_session.game,
        phase=phase_label(state.phase),
        expected=expected_say(view.get("expected"), state.players),
        banker=who_label(state, state.banker) if state.banker else "—",
        bank=view.get("bank"),
        to_cover=view.get("to_cover"),
        reliquat=reliquats.get(state.banker) if state.banker else None,
        seats=_seat_rows(state),
        standing=[SeatRow(0, code, state.players.get(code, code)) for code in state.standing],
        stakes=[dict(s, label=who_label(state, s.get("player"))) for s in stakes],
        banker_seat=_banker_seat(state),
        cards=view.get("cards"),
        hands=list(view.get("hands") or []),
        pack=view.get("pack"),
        coups=coup_rows(state, coups),
        coups_played=_count(view.get("coups_played", view.get("coups"))),
    )
    if may_record:
        screen.controls, screen.session_controls = controls_build(state)
        if game_get(screen.game).has_claims:  # the banco call (CF-4.2)
            screen.claimants = _claim_candidates(state)
    return screen


__all__ = ["RECENT_COUPS", "Screen", "reason_label", "screen_build", "who_label"]
