"""The simulator: ``N`` coups of a game played by a strategy through the engine.

``simulate`` sets a table up as the croupier would (every player sits with ``sit``, then the
first banker, the reserve fund, the first shoe: whatever the strategy records), then asks the
strategy for each next action and applies it with ``tables.engine.step``, exactly as
``tables.services.record`` does (docs/architecture.md, "How a recorded action flows"): the shape
check, then the game's own handler. Nothing is skipped or forced: an action the engine refuses
raises its ``RuleError``. The cards come from the run's own shuffled shoe (``Shoe``), re-formed
from the engine's card tracking whenever the engine forms a new pack (COM-2.1).

When a coup is settled its observer reads the state before and after, the coup's record and the
cards it took, and gives its measures as integers (``measures.Tally``). After the last coup the
strategy plays on to the state where a coup could start and the croupier ends the session
(COM-3.8). With ``fresh`` every coup is the first of a new pack: where the croupier may re-form
the pack between coups (LM-3.3) he does so before every coup; where he may not (a new shoe only
after the red card, CF-3.4; a shuffle only when due, LR-3.3) each coup is played at the table as
it stood before its first coup, a fork of the immutable state (docs/odds.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tables.engine.actions import Action
from tables.engine.cards import Pack
from tables.engine.chemin_de_fer.state import is_natural
from tables.engine.game import Game, GameState, step
from tables.engine.pontoon.coup import player_wins
from tables.engine.pontoon.state import is_five_card_trick
from tables.engine.registry import game_get
from tables.engine.settlement import CAGNOTTE, CROUPIER, CoupRecord
from tables.engine.simulate.measures import Tallies
from tables.engine.simulate.players import Shoe
from tables.engine.simulate.strategies import GAME_PLAY, Strategy, strategy_get
from tables.engine.table import Seating

# The transfers that are the banker's play against the pontes (COM-6.2, COM-10.6): not the
# reliquat's movements, the reserve fund's contributions, nor the payments between pontes.
PLAY_REASONS = frozenset(
    {
        "stake_lost",
        "stake_won",
        "cagnotte",
        "coup_fee",
        "quadruple_paid",
        "abandonment",
        "fund_cover_lost",
        "fund_cover_won",
    }
)


@dataclass(frozen=True)
class Observed:
    """What the runner knows of a settled coup beside the engine's states: its cards and
    whether it began on the first card of a pack."""

    cards: int
    first: bool


Observation = list[tuple[str, int, int]]
Observer = Callable[[Any, Any, CoupRecord, Observed], Observation]


def banker_result(record: CoupRecord, banker: str) -> tuple[int, int]:
    """The banker's result from his play in the coup (``PLAY_REASONS``) and the house's levy,
    whoever paid it (LV-1, LV-2: a coup fee may come from the pontes)."""
    result = levy = 0
    for transfer in record.transfers:
        if transfer.reason not in PLAY_REASONS:
            continue
        if transfer.target == CAGNOTTE:
            levy += transfer.amount
        if transfer.target == banker:
            result += transfer.amount
        elif transfer.source == banker:
            result -= transfer.amount
    return result, levy


def _money(record: CoupRecord, banker: str, staked: int) -> Observation:
    result, levy = banker_result(record, banker)
    return [
        ("banker_result_per_unit_staked", result, staked),
        ("cagnotte_per_unit_staked", levy, staked),
    ]


# -- the observers, one per game ---------------------------------------------------------------


def _chemin_de_fer(pre: Any, post: Any, record: CoupRecord, seen: Observed) -> Observation:
    """CF-4.8.1 the outcome; CF-3.1 a natural in either two-card hand; T the bank played."""
    if record.outcome == "no_play":
        return []  # CF-4.3.1 nothing was played
    coup = pre.coup
    natural = is_natural(coup.ponte_cards[:2]) or is_natural(coup.banker_cards[:2])
    outcome = record.outcome
    return [
        ("banker_wins", outcome == "banker_wins", 1),
        ("pontes_win", outcome == "ponte_wins", 1),
        ("ties", outcome == "tie", 1),
        ("natural", natural, 1),
        ("cards_per_coup", seen.cards, 1),
        *_money(record, pre.banker, coup.bank),
    ]


def _lansquenet_moderne(pre: Any, post: Any, record: CoupRecord, seen: Observed) -> Observation:
    """LM-4.6 the outcomes; the doublet of the first coup of a pack (LM-3.3); E the bank."""
    outcome = record.outcome
    found: Observation = [
        ("banker_wins", outcome in ("doublet", "banker_card_out"), 1),
        ("pontes_win", outcome in ("pontes_card_out", "abandoned"), 1),
        ("cards_per_coup", seen.cards, 1),
        *_money(record, pre.banker, pre.in_play.bank),
    ]
    if seen.first:
        found.append(("doublet", outcome == "doublet", 1))
    return found


def _landsknecht(pre: Any, post: Any, record: CoupRecord, seen: Observed) -> Observation:
    """LR-4.3 the outcomes, plié among them; S the banker's stake."""
    outcome = record.outcome
    return [
        ("banker_wins", outcome in ("plie", "banker_card_out"), 1),
        ("pontes_win", outcome == "ponters_card_out", 1),
        ("plie", outcome == "plie", 1),
        ("cards_per_coup", seen.cards, 1),
        *_money(record, pre.banker, pre.coup.stake),
    ]


def _lansquenet_classique(pre: Any, post: Any, record: CoupRecord, seen: Observed) -> Observation:
    """LC-7 the banker keeps the bank (all_taken, banker_quadruple) or loses it; what was staked
    is every coupeur card's stake, each settled once (LC-4.3, LC-8.1)."""
    outcome = record.outcome
    staked = sum(t.amount for t in record.transfers if t.reason in _LC_STAKES)
    banker = pre.coup.banker
    result, levy = banker_result(record, banker)
    base = pre.config.base_stake
    return [
        ("banker_wins", outcome in ("all_taken", "banker_quadruple"), 1),
        ("pontes_win", outcome in ("banker_card_out", "coupeur_quadruple"), 1),
        ("banker_quadruple", outcome == "banker_quadruple", 1),
        ("coupeur_quadruple", outcome == "coupeur_quadruple", 1),
        ("cards_per_coup", seen.cards, 1),
        ("banker_result_per_base_stake", result, base),
        ("banker_result_per_unit_staked", result, staked),
        ("cagnotte_per_unit_staked", levy, staked),
    ]


_LC_STAKES = frozenset({"stake_lost", "stake_won", "quadruple_paid"})


def _pontoon(pre: Any, post: Any, record: CoupRecord, seen: Observed) -> Observation:
    """PT-5 each player's hand against the banker's (per hand); PT-3.3, PT-3.4 its kind."""
    coup = post.coup
    hands = [hand for hand in coup.hands if hand.staked]
    won = pontoons = tricks = 0
    for hand in hands:
        if hand.pontoon:
            pontoons += 1
        if is_five_card_trick(hand.cards):
            tricks += 1
        if not hand.bust and player_wins(hand.cards, coup.banker_cards):
            won += 1
    count = len(hands)
    return [
        ("banker_wins", count - won, count),
        ("pontes_win", won, count),
        ("pontoon", pontoons, count),
        ("five_card_trick", tricks, count),
        ("cards_per_coup", seen.cards, 1),
        *_money(record, coup.banker, sum(hand.stake for hand in hands)),
    ]


@dataclass(frozen=True)
class GameRun:
    """What the runner needs of a game: its observer and measures; where its pack is and which
    actions form one (COM-2.1); the action that opens a coup; and whether ``fresh`` forks the
    table (``fork``: the croupier may not re-form the pack between coups) or the strategy
    re-forms the pack itself."""

    observe: Observer
    measures: tuple[str, ...]
    pack_of: Callable[[Any], Pack | None]
    new_pack: frozenset[str]
    opening: str
    fork: bool


_MONEY = ("banker_result_per_unit_staked", "cagnotte_per_unit_staked")


def _coup_pack(state: Any) -> Pack | None:
    return state.coup.pack if state.coup is not None else None


def _own_pack(state: Any) -> Pack | None:
    pack: Pack = state.pack
    return pack


def _shoe_pack(state: Any) -> Pack | None:
    return state.shoe.pack if state.shoe is not None else None


GAME_RUNS: Mapping[str, GameRun] = {
    "chemin_de_fer": GameRun(
        _chemin_de_fer,
        ("banker_wins", "pontes_win", "ties", "natural", "cards_per_coup", *_MONEY),
        _shoe_pack,
        frozenset({"new_shoe"}),
        "announce_bank",
        fork=True,
    ),
    "lansquenet_moderne": GameRun(
        _lansquenet_moderne,
        ("banker_wins", "pontes_win", "doublet", "cards_per_coup", *_MONEY),
        _own_pack,
        frozenset({"shuffle_pack"}),
        "announce_bank",
        fork=False,
    ),
    "lansquenet_classique": GameRun(
        _lansquenet_classique,
        (
            "banker_wins",
            "pontes_win",
            "banker_quadruple",
            "coupeur_quadruple",
            "cards_per_coup",
            "banker_result_per_base_stake",
            *_MONEY,
        ),
        _coup_pack,
        frozenset({"start_coup"}),
        "start_coup",
        fork=False,
    ),
    "landsknecht": GameRun(
        _landsknecht,
        ("banker_wins", "pontes_win", "plie", "cards_per_coup", *_MONEY),
        _own_pack,
        frozenset({"shuffle_pack"}),
        "announce_bank",
        fork=True,
    ),
    "pontoon": GameRun(
        _pontoon,
        ("banker_wins", "pontes_win", "pontoon", "five_card_trick", "cards_per_coup", *_MONEY),
        _coup_pack,
        frozenset({"start_coup"}),
        "start_coup",
        fork=False,
    ),
}


# -- the run -------------------------------------------------------------------------------------


Settled = tuple[Any, Any, CoupRecord, Observed]


class Table:
    """The simulated table: the game, its session's state, the shoe and the strategy."""

    def __init__(
        self, game: Game, run: GameRun, strategy: Strategy, settings: Mapping[str, Any], seed: int
    ) -> None:
        self.game = game
        self.run = run
        self.settings = settings
        self.players: int = strategy.params["players"]
        self.shoe = Shoe(random.Random(f"cards:{seed}"))
        self.player = strategy.player(self.shoe, random.Random(f"choices:{seed}"))
        self.open()

    def open(self) -> None:
        """A new session at the table: every player sits down (COM-3.8), seat 1 first."""
        seating = Seating(seat_count_for(self.game, self.players))
        self.state: GameState = self.game.start(self.settings, seating)
        self._reform()
        for seat in range(1, self.players + 1):
            self.apply(Action("sit", CROUPIER, {"player": f"P{seat}", "seat": seat}))

    def _reform(self) -> None:
        """COM-2.1 the engine formed a new pack: the shoe holds its cards, shuffled."""
        pack = self.run.pack_of(self.state)
        if pack is not None:
            self.shoe.reform(pack.counts_left())

    def apply(self, action: Action) -> tuple[Any, Any, CoupRecord] | None:
        """Record ``action`` (``step``: the shape check, then the game's handler); the states
        before and after it and the coup's record when it settled a coup."""
        before = self.state
        after = step(self.game, before, action)
        self.state = after
        if action.type in self.run.new_pack:
            self._reform()
        if len(after.coups) > len(before.coups):
            return before, after, after.coups[-1]
        return None

    def play_coup(self) -> Settled:
        """Play on until the next coup is settled: its states, its record, what was seen."""
        shoe = self.shoe
        shoe.coup_begin()
        drawn = shoe.drawn
        while True:
            settled = self.apply(self.player.act(self.state))
            if settled is not None:
                before, after, record = settled
                return before, after, record, Observed(shoe.drawn - drawn, bool(shoe.coup_first))

    def play_to_opening(self) -> None:
        """Play the session's first actions (the first banker, the reserve, the first shoe) up
        to the action that would open the first coup, which is not recorded."""
        while True:
            action = self.player.act(self.state)
            if action.type == self.run.opening:
                return
            self.apply(action)

    def end(self) -> None:
        """COM-3.8 play on to a state where a coup could start, then ``end_session``."""
        while self.state.phase not in self.game.coup_start_phases:
            self.apply(self.player.act(self.state))
        self.apply(Action("end_session", CROUPIER, {}))


def seat_count_for(game: Game, players: int) -> int:
    """The table's seats: the game's default (SCENARIOS.md), or as many as its players."""
    return max(game.default_seat_count, players)


# The most coups of one simulated session: the engine's state keeps every coup of its session
# (COM-10.5), so a long run is a series of sessions, each ended (COM-3.8) and a new one opened.
SESSION_COUPS = 1000


def settled_coups(table: Table, coups: int, *, fresh: bool) -> Iterator[Settled]:
    """The ``coups`` settled coups of ``table``, in sessions of at most ``SESSION_COUPS``; with
    ``fresh`` and a game that forks, each one played from the table as it stood before its first
    coup, with a newly shuffled pack (the fork keeps no coup)."""
    if fresh and table.run.fork:
        table.play_to_opening()
        base = table.state
        for _ in range(coups):
            table.state = base
            table._reform()
            yield table.play_coup()
        return
    for done in range(coups):
        if done and done % SESSION_COUPS == 0:
            table.end()
            table.open()
        yield table.play_coup()


@dataclass
class Simulation:
    """A finished run: what was simulated and the tallies of its measures."""

    game: str
    coups: int
    seed: int
    settings: Mapping[str, Any]
    strategy: Strategy
    fresh: bool
    tallies: Tallies

    def as_json(self) -> dict[str, Any]:
        """The object ``simulate --json`` prints (docs/odds.md)."""
        return {
            "game": self.game,
            "coups": self.coups,
            "seed": self.seed,
            "settings": dict(self.settings),
            "strategy": self.strategy.name,
            "params": self.strategy.params_json(),
            "fresh": self.fresh,
            "measures": self.tallies.as_dict(),
        }


def table_settings(game: str, settings: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """The simulated table's settings: the simulator's own (``GamePlay.settings``: what the
    game requires, the stakes of the strategies), then ``settings``, validated (E_SETTING)."""
    found = game_get(game)
    raw = {**GAME_PLAY[game].settings, **(settings or {})}
    return found.settings_validate(raw, seat_count_for(found, players))


def simulate(
    game: str,
    *,
    coups: int,
    seed: int,
    settings: Mapping[str, Any] | None = None,
    strategy: str | None = None,
    params: Mapping[str, str] | None = None,
    fresh: bool = False,
) -> Simulation:
    """Play ``coups`` coups of ``game`` at a table of ``settings`` by ``strategy`` (its
    parameters changed by ``params``), with the seed ``seed``; the same arguments give the same
    result. A ``RuleError`` means the strategy recorded an action the engine refused."""
    chosen = strategy_get(game, strategy, params, fresh=fresh)
    full = table_settings(game, settings, chosen.params["players"])
    run = GAME_RUNS[game]
    table = Table(game_get(game), run, chosen, full, seed)
    tallies = Tallies(run.measures)
    observe = run.observe
    for before, after, record, seen in settled_coups(table, coups, fresh=fresh):
        tallies.add(observe(before, after, record, seen))
    table.end()
    return Simulation(game, coups, seed, full, chosen, fresh, tallies)
