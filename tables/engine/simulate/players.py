"""The decision makers of the simulator's strategies, one per game, and the shoe they deal from.

A decision maker says, for every state the session can be in, the one action to record next:
the players' decisions (stakes, draws, bank decisions, answers to offers), the croupier's (the
cards, taken from the simulator's own shoe, new packs and shoes) and the session's (the first
banker, the reserve fund). It reads the state only as the croupier's record makes it, and every
action it returns must be accepted by the engine: a ``RuleError`` is a bug of the strategy or of
the engine, never something to skip (tests/engine/test_simulate.py). Its parameters are those
of the named strategy it plays (``strategies``); docs/odds.md describes each one in words.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from tables.engine.actions import Action
from tables.engine.cards import RANKS
from tables.engine.chemin_de_fer import state as cf
from tables.engine.landsknecht import state as lr
from tables.engine.lansquenet_classique import state as lc
from tables.engine.lansquenet_moderne import state as lm
from tables.engine.money import round_down
from tables.engine.pontoon import state as pt
from tables.engine.settlement import CROUPIER

# -- the shoe ------------------------------------------------------------------------------------


class Shoe:
    """The simulator's cards: the pack the engine tracks, shuffled with the run's own ``rng``.

    ``reform`` builds it from the engine's counts of the cards left (a new shoe or pack, a pack
    re-formed from the discards, LM-3.4, LR-3.4), so that every card drawn is one the engine
    can accept (COM-2.2). ``drawn`` counts every card of the run; ``since_formed`` those of the
    current pack; ``coup_first`` says whether the coup in play began on a pack's first card.
    """

    __slots__ = ("cards", "coup_first", "drawn", "rng", "since_formed")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.cards: list[str] = []
        self.drawn = 0
        self.since_formed = 0
        self.coup_first: bool | None = None

    def reform(self, counts: Mapping[str, int]) -> None:
        """A new pack of ``counts`` cards of each rank (in ``RANKS`` order), shuffled."""
        cards = [rank for rank in RANKS for _ in range(counts[rank])]
        self.rng.shuffle(cards)
        self.cards = cards
        self.since_formed = 0

    def coup_begin(self) -> None:
        """A new coup: its first card will say whether it is the first of its pack."""
        self.coup_first = None

    def draw(self) -> str:
        """The next card of the pack."""
        if self.coup_first is None:
            self.coup_first = self.since_formed == 0
        self.drawn += 1
        self.since_formed += 1
        return self.cards.pop()


# -- decision makers -----------------------------------------------------------------------------


class Player(Protocol):
    """What the runner asks of a strategy: the next action for ``state``."""

    def act(self, state: Any) -> Action: ...


def _croupier(kind: str, **params: Any) -> Action:
    return Action(kind, CROUPIER, params)


def _by(actor: int, kind: str, **params: Any) -> Action:
    return Action(kind, actor, params)


def _first_seat(state: Any) -> int:
    seat: int = state.seating.occupied[0]
    return seat


class _Base:
    """A decision maker: the parameters, the shoe it deals from, its own random choices."""

    def __init__(self, params: Mapping[str, Any], shoe: Shoe, rng: random.Random) -> None:
        self.params = params
        self.shoe = shoe
        self.rng = rng

    def act(self, state: Any) -> Action:
        handler: Callable[[Any], Action] = getattr(self, f"on_{state.phase}")
        return handler(state)


class _BankAtCoupStart(_Base):
    """The start of a coup in the games where the bank can stand vacant (lansquenet classique,
    pontoon): with no banker, the first seat accepts a vacant bank (LC-7.6, PT-6.5) or the
    croupier names the first banker (COM-9.2, PT-6.4); with one, the croupier starts the coup
    (LC-5.1, PT-3.1)."""

    def on_coup_start(self, st: lc.LCState | pt.PontoonState) -> Action:
        if st.banker is None:
            if st.vacant:
                return _by(_first_seat(st), "accept_bank")
            return _croupier("set_first_banker", seat=_first_seat(st))
        return _croupier("start_coup")


# -- chemin de fer -------------------------------------------------------------------------------


def tableau_draws(banker: int, third: int | None) -> bool:
    """The banker's drawing table (tableau) of baccara, as the casinos print it.

    The rules leave the banker free (CF-4.6.1); this table is the strategy: with the ponte's
    third card of point ``third`` (None when the ponte stood), the banker at ``banker`` draws
    on 0–2; on 3 unless it is an 8; on 4 against 2–7; on 5 against 4–7; on 6 against 6–7; never
    on 7. Against a ponte who stood he draws on 0–5 and stands on 6–7.
    """
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return third != 8
    if banker == 4:
        return 2 <= third <= 7
    if banker == 5:
        return 4 <= third <= 7
    if banker == 6:
        return third in (6, 7)
    return False


class CheminDeFerPlayer(_Base):
    """CF: the banker announces ``bank``; the player to his right holds the banco alone
    (CF-2.3, CF-4.2.1); the card holder follows the drawing rule of CF-4.5 and draws at 5 with
    probability ``draw_at_5``; the banker shows a natural at once (CF-4.6) and otherwise draws
    by ``tableau_draws``; after a win he sets his winnings aside au reliquat (``reliquat =
    winnings``, CF-6.1: the bank stays at ``bank``) or keeps them in play (``none``); the hand
    passes to the first offeree, who accepts (CF-6.3)."""

    def on_bank_pending(self, st: cf.CFState) -> Action:
        if st.banker is None:
            return _by(_first_seat(st), "accept_bank")  # CF-6.7 the vacant bank at the start
        if not st.shoe_running:
            return _croupier("new_shoe", cut_by=cf.expected_cutter(st))  # CF-3.2
        amount = st.bank_rule if st.bank_rule is not None else self.params["bank"]
        return _by(self._banker_seat(st), "announce_bank", amount=amount)

    def on_banco_call(self, st: cf.CFState) -> Action:
        holder = st.seating.next_seat(self._banker_seat(st))
        return _croupier("banco_call", claims=[{"player": holder, "kind": "banco"}])

    def on_dealing(self, st: cf.CFState) -> Action:
        draw = self.shoe.draw
        ponte_1, banker_1, ponte_2, banker_2 = draw(), draw(), draw(), draw()  # CF-3.5
        return _croupier("deal", ponte=[ponte_1, ponte_2], banker=[banker_1, banker_2])

    def on_ponte_decision(self, st: cf.CFState) -> Action:
        coup = st.coup
        assert coup is not None and coup.card_holder is not None
        holder = st.seating.seat_of(coup.card_holder)
        assert holder is not None
        value = cf.hand_value(coup.ponte_cards)
        if value >= 8:
            return _by(holder, "ponte_show_natural")
        draws = value <= 4 or (value == 5 and self.rng.random() < self.params["draw_at_5"])
        return _by(holder, "ponte_draw" if draws else "ponte_stand")

    def on_banker_response(self, st: cf.CFState) -> Action:
        coup = st.coup
        assert coup is not None
        if cf.is_natural(coup.banker_cards):
            return _by(self._banker_seat(st), "banker_show_natural")
        if coup.ponte_said == "draw":
            return _croupier("ponte_third_card", rank=self.shoe.draw())
        return self._banker_plays(st, None)

    def on_banker_draw_decision(self, st: cf.CFState) -> Action:
        coup = st.coup
        assert coup is not None
        return self._banker_plays(st, cf.hand_value(coup.ponte_cards[2:]))

    def _banker_plays(self, st: cf.CFState, third: int | None) -> Action:
        coup = st.coup
        assert coup is not None
        banker = self._banker_seat(st)
        if tableau_draws(cf.hand_value(coup.banker_cards), third):
            return _by(banker, "banker_draw", rank=self.shoe.draw())
        return _by(banker, "banker_stand")

    def on_bank_decision(self, st: cf.CFState) -> Action:
        bank = st.bank_after
        assert bank is not None
        reliquat = 0
        if st.last_outcome == "banker_wins":
            if self.params["reliquat"] == "winnings":
                reliquat = max(0, bank - self.params["bank"])
            elif st.rules.max_bank is not None:
                reliquat = max(0, bank - st.rules.max_bank)  # CF-6.1 the excess must go
        return _by(self._banker_seat(st), "continue_bank", reliquat=reliquat)

    def on_hand_offer(self, st: cf.CFState) -> Action:
        assert st.offer is not None
        return _by(st.offer.offerees[0], "accept_bank")

    def on_suite_offer(self, st: cf.CFState) -> Action:
        assert st.offer is not None
        return _by(st.offer.offerees[0], "decline_suite")

    @staticmethod
    def _banker_seat(st: cf.CFState) -> int:
        assert st.banker is not None
        seat = st.seating.seat_of(st.banker)
        assert seat is not None
        return seat


# -- lansquenet moderne --------------------------------------------------------------------------


class LansquenetModernePlayer(_Base):
    """LM: the croupier re-forms the pack between coups when fewer than ``reshuffle_below``
    cards are left (LM-3.3; none: half the pack) and when it is empty during a coup (LM-3.4);
    the banker announces ``bank``; the pontes cover it (``cover``: ``banco``, the first speaker
    holds it alone, LM-4.2; ``split``, the pontes stake equal shares in the first round, the
    last the remainder); no abandonment is offered (LM-4.7); after a win the banker stays
    (LM-6.2, LM-6.3, no refait) for at most ``stays`` coups in a row, then passes the hand;
    nobody buys the bank (LM-6.4) and the rightful successor accepts it (LM-6.6)."""

    def __init__(self, params: Mapping[str, Any], shoe: Shoe, rng: random.Random) -> None:
        super().__init__(params, shoe, rng)
        self.stayed = 0

    def on_bank_pending(self, st: lm.LMState) -> Action:
        if st.banker_seat is None:
            if st.vacant:
                return _by(_first_seat(st), "accept_bank")  # LM-6.6.2
            return _croupier("set_first_banker", seat=_first_seat(st))  # LM-6.7
        if st.pack.left < self._reshuffle_below(st):
            return _croupier("shuffle_pack")  # LM-3.3
        rule = st.bank_rule
        amount = rule.amount if rule is not None else self.params["bank"]
        return _by(st.banker_seat, "announce_bank", amount=amount)

    def _reshuffle_below(self, st: lm.LMState) -> int:
        if self.params["fresh"]:
            return st.pack.size
        below: int | None = self.params["reshuffle_below"]
        return st.pack.size // 2 if below is None else below

    def on_speaking(self, st: lm.LMState) -> Action:
        coup = st.in_play
        speaker = coup.speakers[coup.turn]
        if self.params["cover"] == "banco":
            return _by(speaker, "banco")
        unit = st.config.chip_unit
        left = coup.uncovered
        if coup.turn == len(coup.speakers) - 1:
            return _by(speaker, "stake", amount=left)
        share = max(unit, round_down(coup.bank // len(coup.speakers), unit))
        return _by(speaker, "stake", amount=min(share, left))

    def on_standing_completion(self, st: lm.LMState) -> Action:
        return _croupier("close_completion")

    def on_shortfall(self, st: lm.LMState) -> Action:
        kind = "reduce_bank" if st.in_play.staked > 0 else "withdraw_bank"
        return _by(st.banker_at, kind)

    def on_banker_card(self, st: lm.LMState) -> Action:
        if st.pack.left == 0:
            return _croupier("shuffle_pack")  # LM-3.4
        return _croupier("turn_card", rank=self.shoe.draw())

    on_pontes_card = on_banker_card
    on_middle_cards = on_banker_card

    def on_bank_decision(self, st: lm.LMState) -> Action:
        decision = st.current_decision
        limit = st.config.max_bank
        if self.stayed < self.params["stays"] and (limit is None or decision.doubled <= limit):
            self.stayed += 1
            return _by(st.banker_at, "stay")
        self.stayed = 0
        return _by(st.banker_at, "pass_hand")

    def on_bank_offer(self, st: lm.LMState) -> Action:
        return _by(st.current_offer.current, "decline_bank")

    def on_successor_offer(self, st: lm.LMState) -> Action:
        self.stayed = 0
        return _by(st.current_offer.current, "accept_bank")


# -- lansquenet classique ------------------------------------------------------------------------


class LansquenetClassiquePlayer(_BankAtCoupStart):
    """LC: every coupeur plays every coup (LC-2.1, LC-I12) and there are no carabins; after
    ``all_taken`` or a banker's quadruple the banker keeps the bank (``bank = keep``, LC-I15) or
    passes it (``pass``, LC-7.2); whoever is offered the bank accepts it (LC-7.1)."""

    def on_deal(self, st: lc.LCState) -> Action:
        coup = st.coup
        assert coup is not None
        return _croupier("deal_card", to=coup.next_recipient, rank=self.shoe.draw())

    def on_banker_card(self, st: lc.LCState) -> Action:
        return _croupier("turn_card", rank=self.shoe.draw())

    on_drawing = on_banker_card

    def on_bank_decision(self, st: lc.LCState) -> Action:
        kind = "keep_bank" if self.params["bank"] == "keep" else "pass_bank"
        return _by(lc.banker_seat(st), kind)

    def on_successor_offer(self, st: lc.LCState) -> Action:
        return _by(st.offer[0], "accept_bank")


# -- landsknecht ---------------------------------------------------------------------------------


class LandsknechtPlayer(_Base):
    """LR: the croupier opens the reserve fund with every player seated (LR-2.1) and shuffles
    when a reshuffle is due or the pack is empty (LR-3.3, LR-3.4); every bank opens at the agreed
    stake (LR-4.1.1); the first ponter takes the fraction ``take`` of it, the others pass, and
    the fund covers the rest (LR-4.2.2); after a win the banker doubles for at most ``doubles``
    coups in a row (LR-6.2), then quits; whoever is offered the bank accepts it (LR-6.4)."""

    def __init__(self, params: Mapping[str, Any], shoe: Shoe, rng: random.Random) -> None:
        super().__init__(params, shoe, rng)
        self.doubled = 0

    def on_bank_pending(self, st: lr.LRState) -> Action:
        if not st.reserve_open:
            return _croupier("open_reserve")  # LR-2.1
        if st.banker is None:
            if st.vacant:
                return _by(_first_seat(st), "accept_bank")  # LR-6.7
            return _croupier("set_first_banker", seat=_first_seat(st))  # LR-6.6
        if st.shuffle_due:
            return _croupier("shuffle_pack")  # LR-3.2, LR-3.3
        rule = st.bank_rule
        amount = rule.amount if rule.kind == "fixed" else st.config.agreed_stake
        assert st.banker_seat is not None and amount is not None
        return _by(st.banker_seat, "announce_bank", amount=amount)

    def on_covering(self, st: lr.LRState) -> Action:
        coup = lr.require_coup(st)
        speaker = coup.speaker
        assert speaker is not None
        if coup.spoken == 0:
            config = st.config
            wanted = round_down(int(coup.stake * self.params["take"]), config.chip_unit)
            amount = min(wanted, coup.remaining)
            if amount >= max(config.chip_unit, min(config.min_stake, coup.remaining)):
                return _by(speaker, "take", amount=amount)
        return _by(speaker, "pass")

    def on_first_card(self, st: lr.LRState) -> Action:
        if st.shuffle_due or st.pack.left == 0:
            return _croupier("shuffle_pack")  # LR-3.3, LR-3.4
        return _croupier("turn_card", rank=self.shoe.draw())

    def on_second_card(self, st: lr.LRState) -> Action:
        if st.pack.left == 0:
            return _croupier("shuffle_pack")  # LR-3.4
        return _croupier("turn_card", rank=self.shoe.draw())

    on_middle_cards = on_second_card

    def on_bank_decision(self, st: lr.LRState) -> Action:
        assert st.banker_seat is not None
        if self.doubled < self.params["doubles"] and st.config.within_max_bank(st.figure):
            self.doubled += 1
            return _by(st.banker_seat, "double")
        self.doubled = 0
        return _by(st.banker_seat, "quit_bank")

    def on_successor_offer(self, st: lr.LRState) -> Action:
        self.doubled = 0
        assert st.offer is not None
        return _by(st.offer.offeree, "accept_bank")


# -- pontoon -------------------------------------------------------------------------------------


class PontoonPlayer(_BankAtCoupStart):
    """PT: every player stakes ``stake`` (PT-4.1); on his turn he sticks at a total of
    ``stick_at`` or more (PT-4.2, the ace as 11 where it does not bust, PT-I3), buys a card for
    his initial stake while his hard total is from ``buy_from`` to ``buy_to`` and he has not
    twisted, and twists otherwise; the banker stands at ``banker_stands_at`` or more and draws
    below it (PT-4.3); a player dealt a pontoon takes the bank when ``take_bank`` (PT-6.1)."""

    def on_first_round(self, st: pt.PontoonState) -> Action:
        coup = st.coup
        assert coup is not None
        to = coup.next_recipient(st.phase)
        return _croupier("deal_card", to=to, rank=self.shoe.draw())

    on_second_round = on_first_round

    def on_staking(self, st: pt.PontoonState) -> Action:
        coup = st.coup
        assert coup is not None
        hand = next(hand for hand in coup.hands if hand.to_speak)
        return _by(hand.seat, "stake", amount=self.params["stake"])

    def on_player_turns(self, st: pt.PontoonState) -> Action:
        coup = st.coup
        assert coup is not None
        hand = coup.current
        assert hand is not None
        params = self.params
        if pt.hand_total(hand.cards) >= params["stick_at"]:
            return _by(hand.seat, "stick")
        hard = pt.hard_total(hand.cards)
        if not hand.twisted and params["buy_from"] <= hard <= params["buy_to"]:
            return _by(hand.seat, "buy", rank=self.shoe.draw(), amount=hand.initial)
        return _by(hand.seat, "twist", rank=self.shoe.draw())

    def on_banker_turn(self, st: pt.PontoonState) -> Action:
        coup = st.coup
        assert coup is not None
        if pt.hand_total(coup.banker_cards) >= self.params["banker_stands_at"]:
            return _by(coup.banker_seat, "banker_stand")
        return _by(coup.banker_seat, "banker_draw", rank=self.shoe.draw())

    def on_bank_transfer(self, st: pt.PontoonState) -> Action:
        assert st.offer is not None
        seat = st.offer.current[0]
        return _by(seat, "accept_bank" if self.params["take_bank"] else "decline_bank")

    def on_successor_offer(self, st: pt.PontoonState) -> Action:
        assert st.offer is not None
        return _by(st.offer.current[0], "accept_bank")
