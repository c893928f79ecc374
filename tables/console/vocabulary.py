"""The table's words: how the console names the engine's actions, phases and outcomes.

Game terms stay French in both languages, as at the table (docs/rules/README.md §12, the
glossary); only the surrounding interface is translated. A label may depend on the game
(`stake` is « Mise » at chemin de fer, « Lancer / Relancer » at lansquenet).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# (game or "*", action type) -> label. Looked up game first, then "*".
ACTION_LABELS: Mapping[tuple[str, str], str] = {
    # chemin de fer (CF-4 to CF-6)
    ("chemin_de_fer", "new_shoe"): "Nouveau sabot",
    ("chemin_de_fer", "banco_call"): "Banco",
    ("chemin_de_fer", "stake"): "Avec la table",
    ("chemin_de_fer", "close_bets"): "Rien ne va plus",
    ("chemin_de_fer", "deal"): "Donner",
    ("chemin_de_fer", "ponte_show_natural"): "Abattage (ponte)",
    ("chemin_de_fer", "ponte_stand"): "Non",
    ("chemin_de_fer", "ponte_draw"): "Carte",
    ("chemin_de_fer", "banker_show_natural"): "Abattage (banque)",
    ("chemin_de_fer", "ponte_third_card"): "Carte au ponte",
    ("chemin_de_fer", "banker_draw"): "La banque tire",
    ("chemin_de_fer", "banker_stand"): "La banque reste",
    ("chemin_de_fer", "continue_bank"): "Reliquat",
    ("chemin_de_fer", "offer_suite"): "Il y a une suite",
    ("chemin_de_fer", "take_suite"): "Prendre la suite",
    ("chemin_de_fer", "decline_suite"): "Refuser la suite",
    ("chemin_de_fer", "give_up_bank"): "Passer la main",
    # lansquenet moderne (LM-4 to LM-6)
    ("lansquenet_moderne", "stake"): "Lancer / Relancer",
    ("lansquenet_moderne", "banco"): "Banco",
    ("lansquenet_moderne", "close_completion"): "Rien ne va plus",
    ("lansquenet_moderne", "reduce_bank"): "Diminuer l'engagement",
    ("lansquenet_moderne", "withdraw_bank"): "Se désister",
    ("lansquenet_moderne", "offer_abandonment"): "Abandon",
    ("lansquenet_moderne", "answer_abandonment"): "Réponse à l'abandon",
    ("lansquenet_moderne", "stay"): "Rester",
    ("lansquenet_moderne", "stay_refait"): "Refait",
    ("lansquenet_moderne", "pass_hand"): "Passer la main",
    ("lansquenet_moderne", "buy_bank"): "Acheter la banque",
    # lansquenet classique (LC-5 to LC-8)
    ("lansquenet_classique", "start_coup"): "Lancer",
    ("lansquenet_classique", "deal_card"): "Carte droite",
    ("lansquenet_classique", "carabin_bet"): "Mise du carabin",
    ("lansquenet_classique", "keep_bank"): "Garder la banque",
    ("lansquenet_classique", "pass_bank"): "Passer la main",
    ("lansquenet_classique", "rejouissance"): "Réjouissance",
    # landsknecht (LR-4 to LR-6)
    ("landsknecht", "take"): "Ponter",
    ("landsknecht", "open_reserve"): "Ouvrir la réserve",
    ("landsknecht", "double"): "Relancer (doubler)",
    ("landsknecht", "quit_bank"): "Se retirer",
    # pontoon (PT-4 to PT-6)
    ("pontoon", "start_coup"): "Lancer",
    ("pontoon", "deal_card"): "Donner",
    ("pontoon", "stake"): "Mise",
    ("pontoon", "sit_out"): "Ne joue pas",
    ("pontoon", "buy"): "Acheter",
    ("pontoon", "twist"): "Tourner",
    ("pontoon", "stick"): "Rester",
    ("pontoon", "banker_draw"): "La banque tourne",
    ("pontoon", "banker_stand"): "La banque reste",
    ("pontoon", "give_up_bank"): "Passer la main",
    # every game
    ("*", "announce_bank"): "Annoncer la banque",
    ("*", "accept_bank"): "Prendre la banque",
    ("*", "decline_bank"): "Refuser la banque",
    ("*", "pass"): "Passer",
    ("*", "turn_card"): "Tourner",
    ("*", "shuffle_pack"): "Battre les cartes",
    ("*", "sit"): "Asseoir",
    ("*", "leave"): "Départ",
    ("*", "add_standing"): "Joueur debout",
    ("*", "set_first_banker"): "Premier banquier",
    ("*", "end_session"): "Fin de partie",
}

# Actions that belong to the session rather than the coup: drawn apart, below the coup's.
SESSION_TYPES = frozenset({"sit", "leave", "add_standing", "end_session", "set_first_banker"})

# Keyboard shortcuts for parameterless decisions (the rank keys are the ranks themselves:
# A, 2-9, 0 for 10, J, Q, K). Only one action of the screen may hold a key.
ACTION_KEYS: Mapping[str, str] = {
    "close_bets": "r",
    "close_completion": "r",
    "ponte_stand": "n",
    "ponte_draw": "c",
    "banker_stand": "s",
    "stick": "s",
    "pass": "p",
    "start_coup": "l",
    "offer_suite": "u",
    "stay": "t",
    "stay_refait": "f",
}

PHASE_LABELS: Mapping[str, str] = {
    "bank_pending": "Banque à annoncer",
    "banco_call": "Banco ?",
    "completion": "Avec la table : complétez",
    "open_staking": "Qui ponte ?",
    "dealing": "Donne",
    "ponte_decision": "Parole au ponte",
    "banker_response": "Parole à la banque",
    "banker_draw_decision": "La banque tire ou reste",
    "bank_decision": "Décision de la banque",
    "suite_offer": "Suite offerte",
    "hand_offer": "Main offerte",
    "speaking": "Tour de parole",
    "standing_completion": "Joueurs debout",
    "shortfall": "Banque non couverte",
    "banker_card": "Carte du banquier",
    "pontes_card": "Carte des pontes",
    "middle_cards": "Cartes du milieu",
    "abandonment_pending": "Abandon proposé",
    "bank_offer": "Banque à vendre",
    "successor_offer": "Banque offerte",
    "coup_start": "Nouveau coup",
    "deal": "Cartes droites",
    "drawing": "Tirage",
    "covering": "Les pontes couvrent",
    "first_card": "Première carte",
    "second_card": "Seconde carte",
    "first_round": "Première carte",
    "staking": "Mises",
    "second_round": "Seconde carte",
    "player_turns": "Parole aux joueurs",
    "banker_turn": "Parole à la banque",
    "session_ended": "Partie terminée",
}

OUTCOME_LABELS: Mapping[str, str] = {
    "banker_wins": "la banque gagne",
    "ponte_wins": "le ponte gagne",
    "tie": "égalité",
    "no_play": "pas de jeu",
    "doublet": "doublet",
    "banker_card_out": "carte du banquier sortie",
    "pontes_card_out": "carte des pontes sortie",
    "ponters_card_out": "carte des pontes sortie",
    "abandoned": "abandon",
    "withdrawn": "désistement",
    "all_taken": "tous pris",
    "plie": "plié",
    "banker_total": "total de la banque",
    "banker_bust": "la banque saute",
}

# Transfer reasons, as the payout lines of the last coups name them.
REASON_LABELS: Mapping[str, str] = {
    "stake_won": "gagne",
    "stake_lost": "perd",
    "cagnotte": "cagnotte",
    "reliquat_in": "reliquat",
    "reliquat_out": "reliquat rendu",
    "fault_reimbursement": "faute remboursée",
    "sprinkle": "arrosage",
    "fund_cover_won": "fonds de réserve",
    "fund_cover_lost": "fonds de réserve",
    "fund_contribution": "cotisation au fonds",
}


def chips_text(amount: object) -> str:
    """An amount of chips as the screen writes it everywhere: thousands apart by a narrow
    no-break space, in both languages ("12 500"); anything else as it is."""
    if isinstance(amount, int) and not isinstance(amount, bool):
        return f"{amount:,}".replace(",", "\u202f")
    return "" if amount is None else str(amount)


# A coup's faults (CF-8.1, CF-8.3): the card holder's decision against the drawing rule, and the
# banker's natural not shown (CF-4.6.2).
FAULT_LABELS: Mapping[str, str] = {
    "F_NATURAL_NOT_SHOWN": "naturel non abattu",
    "F_DREW_ON_6_7": "« Carte » à 6 ou 7",
    "F_STOOD_UNDER_5": "« Non » à moins de 5",
    "banker_natural_not_shown": "naturel de la banque non abattu",
}

# How a pontoon hand stands (PT-3.3 to PT-3.5); a plain total says nothing more than its value.
HAND_KIND_LABELS: Mapping[str, str] = {
    "bust": "saute",
    "pontoon": "pontoon",
    "five_card_trick": "cinq cartes",
    "total": "",
}

# How the lansquenet moderne banker holds the bank (LM-6): in turn, bought, bought at a refait.
HOLDING_LABELS: Mapping[str, str] = {
    "rotation": "à son tour",
    "purchase": "achetée",
    "refait_purchase": "achetée au refait",
}

_BANK_RULE = re.compile(r"(?P<kind>\w+)\((?P<amount>\d+)\)")


def bank_rule_label(rule: object) -> str:
    """What the banker may announce, as the table says it: any bank within the limits
    (« libre »), a set amount (« imposée »: CF-6.2 the bank that follows a win, LM-6.2 to
    LM-6.4 a bought bank, LR-6.2 the doubled stake), the landsknecht's opening stake, or that
    or the quitting banker's figure (LR-4.1.1, LR-6.2). The engine says `free`, `fixed(N)`,
    `opening`, `opening_or_figure(N)` or, in lansquenet moderne, `{"amount": N, ...}`."""
    if rule is None or rule == "free":
        return "libre"
    if rule == "opening":
        return "ouverture"
    if isinstance(rule, Mapping) and "amount" in rule:
        return f"imposée · {chips_text(rule['amount'])}"
    found = _BANK_RULE.fullmatch(str(rule))
    if found and found["kind"] == "fixed":
        return f"imposée · {chips_text(int(found['amount']))}"
    if found and found["kind"] == "opening_or_figure":
        return f"ouverture ou {chips_text(int(found['amount']))}"
    return str(rule)


def _word(words: Mapping[str, str], code: str | None) -> str:
    """The table's word for one of the engine's codes; a code without one, in plain letters;
    no code, nothing."""
    return words.get(code, code.replace("_", " ")) if code else ""


def fault_label(code: str) -> str:
    return _word(FAULT_LABELS, code)


def faults_label(codes: Iterable[str] | None) -> str:
    return ", ".join(fault_label(code) for code in codes or ())


def hand_kind_label(kind: str | None) -> str:
    return _word(HAND_KIND_LABELS, kind)


def holding_label(holding: str | None) -> str:
    return _word(HOLDING_LABELS, holding)


def action_label(game: str, action_type: str) -> str:
    found = ACTION_LABELS.get((game, action_type)) or ACTION_LABELS.get(("*", action_type))
    return found or action_type.replace("_", " ")


def phase_label(phase: str) -> str:
    return _word(PHASE_LABELS, phase)


def outcome_label(outcome: str) -> str:
    return _word(OUTCOME_LABELS, outcome)


def reason_label(reason: str) -> str:
    return _word(REASON_LABELS, reason)


# -- what comes next, in the croupier's language ----------------------------------------------
#
# The engine says what happens next (`view()["expected"]`) in one fixed English phrase per
# situation; the console translates it here, without touching the engine. Fixed phrases are
# looked up as they are; phrases that name a player, a seat or an amount are matched by a
# pattern whose named groups fill the translated text (players' ids become their names).
# tests/console/test_vocabulary.py replays the whole scenario corpus and checks every phrase the
# engine says is known here.

EXPECTED_FIXED: Mapping[str, Promise] = {
    # chemin de fer (CF-4 to CF-6)
    "The bank is vacant: a seated player may accept it": _(
        "The bank is vacant: a seated player may accept it"
    ),
    "The banker announces the bank": _("The banker announces the bank"),
    "The croupier gives the ponte his third card, or the banker shows a natural": _(
        "The croupier gives the ponte his third card, or the banker shows a natural"
    ),
    "The banker shows a natural, draws or stands": _("The banker shows a natural, draws or stands"),
    "The croupier calls the banco and records the answers": _(
        "The croupier calls the banco and records the answers"
    ),
    "The table completes the banco avec la table, then « Rien ne va plus »": _(
        "The table completes the banco avec la table, then « Rien ne va plus »"
    ),
    "« Qui ponte ? »: the players stake, then « Rien ne va plus »": _(
        "« Qui ponte ? »: the players stake, then « Rien ne va plus »"
    ),
    "The croupier deals two cards to the ponte and two to the banker": _(
        "The croupier deals two cards to the ponte and two to the banker"
    ),
    "The card holder shows a natural, says « Non » or asks « Carte »": _(
        "The card holder shows a natural, says « Non » or asks « Carte »"
    ),
    "The banker draws or stands": _("The banker draws or stands"),
    "The banker continues (with a reliquat) or offers a suite": _(
        "The banker continues (with a reliquat) or offers a suite"
    ),
    "The next player takes or declines the suite": _("The next player takes or declines the suite"),
    "The next player accepts or declines the bank": _(
        "The next player accepts or declines the bank"
    ),
    # every game's end and first banker
    "The session is over": _("The session is over"),
    "The session has ended": _("The session is over"),
    "The croupier names the first banker": _("The croupier names the first banker"),
    "The croupier records the first banker": _("The croupier names the first banker"),
    # landsknecht (LR-4 to LR-6)
    "The bank is vacant: any seated player may accept it": _(
        "The bank is vacant: any seated player may accept it"
    ),
    "The croupier names the first banker and opens the reserve fund": _(
        "The croupier names the first banker and opens the reserve fund"
    ),
    "The croupier opens the reserve fund": _("The croupier opens the reserve fund"),
    "The croupier shuffles the pack; the banker announces his stake": _(
        "The croupier shuffles the pack; the banker announces his stake"
    ),
    "The banker announces his stake": _("The banker announces his stake"),
    "The croupier shuffles the pack": _("The croupier shuffles the pack"),
    "The croupier turns the banker's card": _("The croupier turns the banker's card"),
    "The pack is empty: the croupier re-forms it": _("The pack is empty: the croupier re-forms it"),
    "The croupier turns the ponters' card": _("The croupier turns the pontes' card"),
    "The croupier turns middle cards until one of the two ranks comes out": _(
        "The croupier turns middle cards until one of the two ranks comes out"
    ),
    "The banker doubles his stake or quits the bank": _(
        "The banker doubles his stake or quits the bank"
    ),
    # lansquenet classique (LC-5 to LC-7)
    "The bank is vacant: any seated coupeur may take it": _(
        "The bank is vacant: any seated coupeur may take it"
    ),
    "The banker turns his own card": _("The banker turns his own card"),
    "The banker turns the next card of the talon": _("The banker turns the next card of the talon"),
    # lansquenet moderne (LM-4 to LM-6)
    "The bank is vacant: any seated player may take it": _(
        "The bank is vacant: any seated player may take it"
    ),
    "Standing players may complete the stakes": _("Standing players may complete the stakes"),
    "The croupier turns the pontes' card": _("The croupier turns the pontes' card"),
    "The croupier turns the next middle card": _("The croupier turns the next middle card"),
    "The pontes answer the abandonment offer": _("The pontes answer the abandonment offer"),
    "The pack is empty: the croupier records shuffle_pack": _(
        "The pack is empty: the croupier shuffles a new pack"
    ),
    # pontoon (PT-4 to PT-6)
    "The bank is vacant: a seated player may take it": _(
        "The bank is vacant: a seated player may take it"
    ),
}

# (pattern over the engine's phrase, translated text). Groups named `player` (or `players`, a
# comma-separated list) hold player ids, shown by name.
EXPECTED_PATTERNS: tuple[tuple[re.Pattern[str], Promise], ...] = tuple(
    (re.compile(f"^{pattern}$"), text)
    for pattern, text in (
        (r"Seat (?P<seat>\d+) cuts a new shoe", _("Seat %(seat)s cuts a new shoe")),
        (
            r"The banker announces the bank of (?P<amount>\d+)",
            _("The banker announces the bank of %(amount)s"),
        ),
        (
            r"(?P<player>.+?) takes part of the stake or passes",
            _("%(player)s takes part of the stake or passes"),
        ),
        (
            r"(?P<player>.+?) shuffles the 52 cards: the croupier starts the coup",
            _("%(player)s shuffles the 52 cards: the croupier starts the coup"),
        ),
        (
            r"Waiting for (?P<low>\d+) to (?P<high>\d+) seated players",
            _("Waiting for %(low)s to %(high)s seated players"),
        ),
        (
            r"The banker deals a carte droite to (?P<player>.+)",
            _("The banker deals a carte droite to %(player)s"),
        ),
        (
            r"Carabins may bet on the carte de reprise (?P<rank>\w+); "
            r"then the banker turns the next card",
            _(
                "Carabins may bet on the carte de reprise %(rank)s; "
                "then the banker turns the next card"
            ),
        ),
        (
            r"(?P<player>.+?) keeps the bank or passes it to his right",
            _("%(player)s keeps the bank or passes it to his right"),
        ),
        (
            r"(?P<player>.+?) must accept the bank \(after the banker's quadruple\)",
            _("%(player)s must accept the bank (after the banker's quadruple)"),
        ),
        (
            r"(?P<player>.+?) accepts or declines the bank",
            _("%(player)s accepts or declines the bank"),
        ),
        (
            r"(?P<player>.+?) announces the bank of (?P<amount>\d+)",
            _("%(player)s announces the bank of %(amount)s"),
        ),
        (r"(?P<player>.+?) announces the bank", _("%(player)s announces the bank")),
        (
            r"(?P<player>.+?) speaks \(round (?P<round>\d+)\)",
            _("%(player)s speaks (round %(round)s)"),
        ),
        (
            r"(?P<player>.+?) reduces the bank or withdraws",
            _("%(player)s reduces the bank or withdraws"),
        ),
        (r"(?P<player>.+?) stays or passes the hand", _("%(player)s stays or passes the hand")),
        (
            r"(?P<player>.+?) buys the bank at (?P<amount>\d+) or declines",
            _("%(player)s buys the bank at %(amount)s or declines"),
        ),
        (
            r"(?P<player>.+?) accepts the bank or declines",
            _("%(player)s accepts or declines the bank"),
        ),
        (
            r"The croupier starts the next coup; (?P<player>.+?) holds the bank",
            _("The croupier starts the next coup; %(player)s holds the bank"),
        ),
        (
            r"The croupier deals a first card to (?P<player>.+)",
            _("The croupier deals a first card to %(player)s"),
        ),
        (
            r"The croupier deals a second card to (?P<player>.+)",
            _("The croupier deals a second card to %(player)s"),
        ),
        (
            r"The players stake or sit out: (?P<players>.*)",
            _("The players stake or sit out: %(players)s"),
        ),
        (
            r"(?P<player>.+?) \((?P<total>\d+)\) buys, twists or sticks",
            _("%(player)s (%(total)s) buys, twists or sticks"),
        ),
        (
            r"The banker (?P<player>.+?) turns his cards, then draws or stands",
            _("The banker %(player)s turns his cards, then draws or stands"),
        ),
    )
)


def expected_say(phrase: str, players: Mapping[str, str]) -> str:
    """The engine's phrase of what comes next, in the user's language, players by name.

    An unknown phrase (a new one in the engine) is shown as the engine says it, names put in.
    """
    fixed = EXPECTED_FIXED.get(phrase)
    if fixed is not None:
        return str(fixed)
    for pattern, text in EXPECTED_PATTERNS:
        found = pattern.match(phrase)
        if found is None:
            continue
        values = found.groupdict()
        if "player" in values:
            values["player"] = players.get(values["player"], values["player"])
        if "players" in values:
            values["players"] = ", ".join(
                players.get(code, code) for code in values["players"].split(", ") if code
            )
        return str(text) % values
    for code, name in players.items():
        phrase = phrase.replace(code, name)
    return phrase


def expected_known(phrase: str) -> bool:
    """Whether the console has a translation for this phrase of the engine."""
    return phrase in EXPECTED_FIXED or any(p.match(phrase) for p, _text in EXPECTED_PATTERNS)
