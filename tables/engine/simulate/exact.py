"""The games' exact expected values for a table's settings and a strategy (docs/odds.md).

What the project knows exactly, measure by measure, under the names the simulator uses:

- lansquenet moderne and landsknecht, the first coup of a pack: closed forms (the doublet or
  plié ``(4n − 1)/(52n − 1)``, the race of the middle cards, the cards it takes), checked
  against an enumeration of the first cards (``lansquenet_first_coup_enumerated``);
- chemin de fer, the first coup from a full shoe: an exhaustive enumeration of the ordered
  first cards (ponte, banker, ponte, banker, the ponte's third, the banker's third), weighted by
  the shoe's composition without replacement, for the card holder's rule of CF-4.5 drawing at
  5 with probability ``p`` and the banker's tableau (``players.tableau_draws``);
- lansquenet classique (a fresh pack at every coup, LC-3.1): a recursion over the coupeur
  cards in play through the deal, the banker's card and the drawing;
- pontoon: no exact form is computed; a stored simulation of the default table and strategy
  (``data/pontoon.json``, made with this simulator), with its standard errors.

Every value is a ``Fraction`` but the stored simulation's. The cagnotte is the table's levy
(COM-6.3) on the amounts the strategy stakes (its ``bank``, the agreed stake, the fond du jeu),
with the table's rate, step and rounding: the levy of a winning coup is computed on its gross
win ``G`` (COM-6.2) and averaged, never taken as a flat 5 %.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from tables.engine.money import BANKER_WIN, cagnotte_levy
from tables.engine.settings import cagnotte_settings
from tables.engine.simulate.players import tableau_draws
from tables.engine.simulate.strategies import Strategy

DATA = Path(__file__).resolve().parent / "data"
FIRST_COUP = "the first coup of a pack (every coup of a run with --fresh)"

Levy = Callable[[int], int]


@dataclass(frozen=True)
class Exact:
    """One known value: exact (``value`` a Fraction) or simulated (a float with its ``se``)."""

    value: Fraction | float
    method: str  # closed form, enumeration, recursion, simulation
    se: float | None = None
    coups: int | None = None

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"value": float(self.value), "method": self.method}
        if isinstance(self.value, Fraction):
            found["exact"] = str(self.value)
        if self.se is not None:
            found["se"] = self.se
            found["coups"] = self.coups
        return found


@dataclass(frozen=True)
class ExactValues:
    """What is known for one game, table and strategy, and which coups it is about."""

    game: str
    settings: Mapping[str, Any]
    strategy: Strategy
    values: Mapping[str, Exact]
    applies_to: str

    def as_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "settings": dict(self.settings),
            "strategy": self.strategy.name,
            "params": self.strategy.params_json(),
            "applies_to": self.applies_to,
            "values": {name: value.as_dict() for name, value in self.values.items()},
        }


def table_levy_of(settings: Mapping[str, Any]) -> Levy:
    """COM-6.3 the levy on a gross win, at the table's rate, step and rounding."""

    def levy(gross: int) -> int:
        return cagnotte_levy(
            gross,
            rate_bp=settings["cagnotte_rate_bp"],
            step=settings["cagnotte_step"],
            rounding=settings["cagnotte_rounding"],
        )

    return levy


def _money(wins: Fraction, loses: Fraction, stake: int, levy: Levy) -> dict[str, Fraction]:
    """A coup at one stake won whole or lost whole: the banker's result per unit staked (the
    levy paid on a win, COM-6.4) and the cagnotte per unit staked."""
    taken = Fraction(levy(stake), stake)
    return {
        "banker_result_per_unit_staked": wins * (1 - taken) - loses,
        "cagnotte_per_unit_staked": wins * taken,
    }


# -- lansquenet moderne and landsknecht: the first coup of a pack --------------------------------


def doublet_closed_form(decks: int) -> Fraction:
    """LM-4.6 (LR-4.3: plié) the pontes' card of the banker's rank: after the banker's card,
    ``4n − 1`` of the ``52n − 1`` cards left are of his rank."""
    return Fraction(4 * decks - 1, 52 * decks - 1)


def lansquenet_first_coup(decks: int) -> dict[str, Fraction]:
    """LM-4.6 / LR-4.3 the first coup of a full pack of ``decks`` decks, in closed form.

    ``d`` the doublet (plié). Otherwise each of the two ranks has ``4n − 1`` cards among the
    ``52n − 2`` left, so each is as likely to come first (the banker wins half); the first of
    those ``K = 2(4n − 1)`` cards lies on average at place ``(52n − 1)/(K + 1)`` of what is left.
    """
    d = doublet_closed_form(decks)
    left = 52 * decks - 2
    relevant = 2 * (4 * decks - 1)
    return {
        "doublet": d,
        "banker_wins": d + (1 - d) / 2,
        "pontes_win": (1 - d) / 2,
        "cards_per_coup": 2 + (1 - d) * Fraction(left + 1, relevant + 1),
    }


def lansquenet_first_coup_enumerated(decks: int) -> dict[str, Fraction]:
    """The same by enumeration: the banker's and the pontes' first cards over the thirteen
    ranks, then the middle cards one by one (banker's rank, pontes' rank, any other), summing
    each path's probability without replacement."""
    per_rank, size = 4 * decks, 52 * decks
    doublet = Fraction(0)
    race = Fraction(0)  # the probability that two different ranks were turned
    for banker in range(13):
        for pontes in range(13):
            if banker == pontes:
                doublet += Fraction(per_rank, size) * Fraction(per_rank - 1, size - 1)
            else:
                race += Fraction(per_rank, size) * Fraction(per_rank, size - 1)
    mine = theirs = per_rank - 1
    left = size - 2
    banker_first = Fraction(0)
    middle = Fraction(0)  # expected middle cards
    still = Fraction(1)  # the probability that no decisive card has come yet
    for turned in range(1, left + 1):
        n = left - turned + 1  # cards in the pack before this one
        banker_first += still * Fraction(mine, n)
        middle += still * Fraction(mine + theirs, n) * turned
        still *= Fraction(n - mine - theirs, n)
    return {
        "doublet": doublet,
        "banker_wins": doublet + race * banker_first,
        "pontes_win": race * (1 - banker_first),
        "cards_per_coup": 2 + race * middle,
    }


def _lansquenet_values(
    found: Mapping[str, Fraction], method: str, name: str, stake: int | None, levy: Levy
) -> dict[str, Exact]:
    """The first coup's values under the simulator's names (``name``: ``doublet`` or ``plie``),
    and its money when every coup stakes ``stake`` (None: the stake varies, no money value)."""
    values = {
        "banker_wins": Exact(found["banker_wins"], method),
        "pontes_win": Exact(found["pontes_win"], method),
        name: Exact(found["doublet"], method),
        "cards_per_coup": Exact(found["cards_per_coup"], method),
    }
    if stake is not None:
        money = _money(found["banker_wins"], found["pontes_win"], stake, levy)
        values |= {key: Exact(value, method) for key, value in money.items()}
    return values


# -- chemin de fer: the first coup from a full shoe -----------------------------------------------


def _falling(n: int, k: int) -> int:
    product = 1
    for i in range(k):
        product *= n - i
    return product


_BANKER, _PONTE, _TIE, _NATURAL, _CARDS = range(5)


@cache
def chemin_de_fer_paths(decks: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """CF-3 to CF-4.8 every ordered deal of the first coup from a full shoe of ``decks`` decks.

    The shoe holds ``16n`` cards worth 0 and ``4n`` of each point 1–9 (CF-3.1). Cards go ponte,
    banker, ponte, banker (CF-3.5); a natural in either hand ends the coup (CF-4.5, CF-4.6: the
    ponte shows his, the banker shows his before any third card); the card holder draws on 0–4
    and stands on 6–7 (CF-4.5); the banker draws by the tableau. A path's weight is the product
    of the counts left of each card it draws, times the falling product of the cards it does not
    draw, so that every weight is over the same denominator ``N(N−1)…(N−5)``.

    Three sums of ``[banker wins, ponte wins, tie, a natural, cards]``: the paths where the card
    holder's two cards are not worth 5, then those where they are and he stands, then those
    where they are and he draws (CF-4.5: 5 is free).
    """
    counts = [16 * decks] + [4 * decks] * 9
    size = 52 * decks
    tail = [_falling(size - k, 6 - k) for k in range(7)]  # the cards a path leaves undrawn
    other, stand5, draw5 = [0] * 5, [0] * 5, [0] * 5

    def settle(acc: list[int], weight: int, ponte: int, banker: int, cards: int) -> None:
        acc[_BANKER if banker > ponte else _PONTE if ponte > banker else _TIE] += weight
        acc[_CARDS] += weight * cards

    def banker_plays(
        acc: list[int], weight: int, ponte: int, banker: int, third: int | None
    ) -> None:
        drawn = 4 if third is None else 5
        if not tableau_draws(banker, third):
            settle(acc, weight * tail[drawn], ponte, banker, drawn)
            return
        for card in range(10):
            if counts[card]:
                settle(
                    acc,
                    weight * counts[card] * tail[drawn + 1],
                    ponte,
                    (banker + card) % 10,
                    drawn + 1,
                )

    def ponte_draws(acc: list[int], weight: int, ponte: int, banker: int) -> None:
        for card in range(10):
            if counts[card]:
                w = weight * counts[card]
                counts[card] -= 1
                banker_plays(acc, w, (ponte + card) % 10, banker, card)
                counts[card] += 1

    for p1 in range(10):
        w1 = counts[p1]
        counts[p1] -= 1
        for b1 in range(10):
            w2 = w1 * counts[b1]
            counts[b1] -= 1
            for p2 in range(10):
                w3 = w2 * counts[p2]
                counts[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * counts[b2]
                    if not w4:
                        continue
                    counts[b2] -= 1
                    ponte, banker = (p1 + p2) % 10, (b1 + b2) % 10
                    if ponte >= 8 or banker >= 8:
                        weight = w4 * tail[4]
                        settle(other, weight, ponte, banker, 4)
                        other[_NATURAL] += weight
                    elif ponte in (6, 7):
                        banker_plays(other, w4, ponte, banker, None)
                    elif ponte <= 4:
                        ponte_draws(other, w4, ponte, banker)
                    else:
                        banker_plays(stand5, w4, ponte, banker, None)
                        ponte_draws(draw5, w4, ponte, banker)
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return tuple(other), tuple(stand5), tuple(draw5)


def chemin_de_fer_first_coup(decks: int, draw_at_5: Fraction) -> dict[str, Fraction]:
    """The first coup's probabilities and expected cards, the holder drawing at 5 with
    probability ``draw_at_5`` (a mixture of the two sums of ``chemin_de_fer_paths``)."""
    other, stand5, draw5 = chemin_de_fer_paths(decks)
    denominator = _falling(52 * decks, 6)
    p = Fraction(draw_at_5)
    mixed = [o + (1 - p) * s + p * d for o, s, d in zip(other, stand5, draw5, strict=True)]
    names = ("banker_wins", "pontes_win", "ties", "natural", "cards_per_coup")
    return {name: Fraction(value) / denominator for name, value in zip(names, mixed, strict=True)}


def _chemin_de_fer_values(settings: Mapping[str, Any], strategy: Strategy) -> dict[str, Exact]:
    found = chemin_de_fer_first_coup(settings["decks"], strategy.params["draw_at_5"])
    bank: int = strategy.params["bank"]
    found |= _money(found["banker_wins"], found["pontes_win"], bank, table_levy_of(settings))
    return {name: Exact(value, "enumeration") for name, value in found.items()}


# -- lansquenet classique: a coup by recursion -----------------------------------------------------

_Ends = dict[tuple[str, int], Fraction]


@cache
def _drawing(
    banker_left: int, simple: int, double: int, triple: int
) -> tuple[_Ends, Fraction, Fraction]:
    """LC-5.4.1 the drawing from the banker's card on, with ``banker_left`` cards of his rank in
    the talon and coupeur cards in play of multiplicity 1, 2, 3 (3, 2, 1 cards of their rank
    left). Only those cards decide; the next of them is equally likely to be any one.

    The outcomes with what the banker collects (in fonds du jeu ``F``), what he pays (in ``F``),
    and ``α``: the cards the drawing takes are ``α·(N + 1)`` for a talon of ``N`` cards (the
    first of ``K`` deciding cards lies on average at place ``(N + 1)/(K + 1)``)."""
    if simple + double + triple == 0:
        return {("all_taken", 0): Fraction(1)}, Fraction(0), Fraction(0)
    deciding = banker_left + 3 * simple + 2 * double + triple
    ends: _Ends = defaultdict(Fraction)
    paid = Fraction(0)
    alpha = Fraction(0)
    # The banker's card comes out: he pays every card in play its stake (F, 2F, 4F).
    q = Fraction(banker_left, deciding)
    ends[("banker_card_out", 0)] += q
    paid += q * (simple + 2 * double + 4 * triple)
    for weight, stake, after in (
        (3 * simple, 1, (simple - 1, double, triple)),
        (2 * double, 2, (simple, double - 1, triple)),
        (triple, 4, (simple, double, triple - 1)),
    ):
        if not weight:
            continue
        q = Fraction(weight, deciding)
        sub_ends, sub_paid, sub_alpha = _drawing(banker_left, *after)
        for (outcome, collected), r in sub_ends.items():
            ends[(outcome, collected + stake)] += q * r
        paid += q * sub_paid
        alpha += q * sub_alpha
    return dict(ends), paid, (1 + deciding * alpha) / (deciding + 1)


@cache
def lansquenet_classique_coup(coupeurs: int) -> tuple[_Ends, Fraction, Fraction, Fraction]:
    """LC-5 one coup with ``coupeurs`` coupeurs and a fresh 52-card pack, by recursion.

    The deal (LC-5.2.1): each coupeur's card is of a rank nobody holds (``4u`` cards of the
    ``u`` untouched ranks: a simple, stake F), or matches a simple (3 cards each: its holder is
    taken and pays F, the new card is a double, 2F), a double (2 each: taken, 2F; a triple, 4F)
    or a triple (1 each: the coupeur's quadruple, LC-I3). Then the banker's card (LC-5.3.1) and
    the drawing (``_drawing``). The state is only the counts of simples, doubles and triples in
    play, since ranks do not matter (COM-1.3).

    Returns the outcomes with the banker's gross collection ``G`` (in ``F``, for the levy),
    and the expected payments, stakes placed (every card's stake, settled once: LC-4.3) and
    cards, in ``F`` and cards."""
    ends: _Ends = defaultdict(Fraction)
    paid = staked = cards = Fraction(0)
    live: dict[tuple[int, int, int, int], Fraction] = {(0, 0, 0, 0): Fraction(1)}
    for dealt in range(coupeurs):
        left = 52 - dealt
        after: dict[tuple[int, int, int, int], Fraction] = defaultdict(Fraction)
        for (simple, double, triple, collected), p in live.items():
            untouched = 13 - simple - double - triple
            if untouched:
                q = p * Fraction(4 * untouched, left)
                after[(simple + 1, double, triple, collected)] += q
                staked += q
            if simple:
                q = p * Fraction(3 * simple, left)
                after[(simple - 1, double + 1, triple, collected + 1)] += q
                staked += 2 * q
            if double:
                q = p * Fraction(2 * double, left)
                after[(simple, double - 1, triple + 1, collected + 2)] += q
                staked += 4 * q
            if triple:
                q = p * Fraction(triple, left)
                others = simple + 2 * double + 4 * (triple - 1)
                ends[("coupeur_quadruple", collected + others)] += q
                paid += 4 * q
                cards += (dealt + 1) * q
        live = after
    left = 52 - coupeurs
    talon = left - 1  # the cards left for the drawing
    for (simple, double, triple, collected), p in live.items():
        cards += (coupeurs + 1) * p
        untouched = 13 - simple - double - triple
        starts: list[tuple[Fraction, int, tuple[int, int, int], int]] = []
        if untouched:
            starts.append((Fraction(4 * untouched, left), 3, (simple, double, triple), 0))
        if simple:
            starts.append((Fraction(3 * simple, left), 2, (simple - 1, double, triple), 1))
        if double:
            starts.append((Fraction(2 * double, left), 1, (simple, double - 1, triple), 2))
        if triple:
            q = p * Fraction(triple, left)
            ends[("banker_quadruple", collected + simple + 2 * double + 4 * triple)] += q
        for q, banker_left, in_play, taken in starts:
            sub_ends, sub_paid, alpha = _drawing(banker_left, *in_play)
            weight = p * q
            for (outcome, more), r in sub_ends.items():
                ends[(outcome, collected + taken + more)] += weight * r
            paid += weight * sub_paid
            cards += weight * alpha * (talon + 1)
    return dict(ends), paid, staked, cards


def lansquenet_classique_values(coupeurs: int, base_stake: int, levy: Levy) -> dict[str, Fraction]:
    """The measures of a classic lansquenet coup (``lansquenet_classique_coup``) at a table
    whose fond du jeu is ``base_stake`` and whose levy is ``levy`` (on each coup's ``G``)."""
    ends, paid, staked, cards = lansquenet_classique_coup(coupeurs)
    outcome: dict[str, Fraction] = defaultdict(Fraction)
    gross = levied = Fraction(0)
    for (name, collected), p in ends.items():
        outcome[name] += p
        gross += p * collected * base_stake
        levied += p * levy(collected * base_stake)
    result = gross - paid * base_stake - levied
    placed = staked * base_stake
    return {
        "banker_wins": outcome["all_taken"] + outcome["banker_quadruple"],
        "pontes_win": outcome["banker_card_out"] + outcome["coupeur_quadruple"],
        "banker_quadruple": outcome["banker_quadruple"],
        "coupeur_quadruple": outcome["coupeur_quadruple"],
        "cards_per_coup": cards,
        "banker_result_per_base_stake": result / base_stake,
        "banker_result_per_unit_staked": result / placed,
        "cagnotte_per_unit_staked": levied / placed,
    }


# -- pontoon: the stored simulation --------------------------------------------------------------


def stored_simulation(game: str) -> dict[str, Any] | None:
    """The stored simulation of ``game`` (``data/<game>.json``), if there is one."""
    path = DATA / f"{game}.json"
    if not path.is_file():
        return None
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return found


def _stored_values(game: str, settings: Mapping[str, Any], strategy: Strategy) -> dict[str, Exact]:
    """The stored simulation's measures when it was made at a table with this play and this
    strategy: all of them at the same levy, the measures the levy does not move
    (`LEVIED_MEASURES` apart) at another levy (a UK club's participation fee, LV-6)."""
    stored = stored_simulation(game)
    if stored is None:
        return {}
    same_play = (
        _play_settings(stored["settings"]) == _play_settings(settings)
        and stored["strategy"] == strategy.name
        and stored["params"] == strategy.params_json()
    )
    if not same_play:
        return {}
    same_levy = stored["settings"] == dict(settings)
    return {
        name: Exact(found["mean"], "simulation", found["se"], found["n"])
        for name, found in stored["measures"].items()
        if same_levy or name not in LEVIED_MEASURES
    }


# The settings of how the house is paid (COM-6.1, LV-1 to LV-4): they move the money measures
# only, never how the cards fall or who wins.
LEVY_SETTINGS = frozenset(setting.name for setting in cagnotte_settings())


def _play_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in settings.items() if name not in LEVY_SETTINGS}


# -- by game -----------------------------------------------------------------------------------

# The measures whose value depends on how the house is paid (the money per unit staked).
LEVIED_MEASURES = frozenset(
    {"banker_result_per_unit_staked", "cagnotte_per_unit_staked", "banker_result_per_base_stake"}
)


def exact_values(game: str, settings: Mapping[str, Any], strategy: Strategy) -> ExactValues:
    """What the project knows for ``game`` at a table of validated ``settings`` played by
    ``strategy``, under the simulator's measure names (``runner.GAME_RUNS``)."""
    levy = table_levy_of(settings)
    applies = FIRST_COUP
    values: dict[str, Exact]
    if game == "chemin_de_fer":
        values = _chemin_de_fer_values(settings, strategy)
    elif game == "lansquenet_moderne":
        # A banker who stays doubles his bank (LM-6.2): the stake is then no longer ``bank``.
        bank = strategy.params["bank"] if strategy.params["stays"] == 0 else None
        found = lansquenet_first_coup(settings["decks"])
        values = _lansquenet_values(found, "closed form", "doublet", bank, levy)
    elif game == "landsknecht":
        # LR-3.1 two decks; every bank of the strategies opens at the agreed stake (LR-4.1.1).
        found = lansquenet_first_coup_enumerated(settings["decks"])
        values = _lansquenet_values(found, "enumeration", "plie", settings["agreed_stake"], levy)
    elif game == "lansquenet_classique":
        found = lansquenet_classique_values(
            strategy.params["players"] - 1, settings["base_stake"], levy
        )
        values = {name: Exact(value, "recursion") for name, value in found.items()}
        applies = "every coup (a fresh pack at every coup, LC-3.1)"
    else:
        values = _stored_values(game, settings, strategy)
        applies = "every coup (a fresh deck at every coup, PT-3.1)"
    if settings.get("levy_model", BANKER_WIN) != BANKER_WIN:
        # The money measures are derived for the levy on the banker's win (COM-6.3); at a table
        # of another model (docs/rules/levy.md, LV-1) the project has no exact value for them,
        # and the audit holds its coups against the frequencies of the game alone.
        values = {name: v for name, v in values.items() if name not in LEVIED_MEASURES}
    return ExactValues(game, settings, strategy, values, applies)
