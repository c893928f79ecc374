"""Words for the codes a report holds (outcomes, how a bank changed hands, corrections,
differences), in the reader's language. A code without a label is shown as it is."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

LABELS: dict[str, Promise] = {
    # outcomes
    "banker_wins": _("Banker wins"),
    "ponte_wins": _("Ponte wins"),
    "tie": _("Tie"),
    "no_play": _("No play"),
    # how a bank began or ended (the register of bankers, art. 71)
    "set_first_banker": _("First banker"),
    "accept_bank": _("Accepted the bank"),
    "buy_bank": _("Bought the bank"),
    "take_suite": _("Took the suite"),
    "rotation": _("Passed by rotation"),
    "give_up_bank": _("Gave up the bank"),
    "end_session": _("End of session"),
    "table_closed": _("Table closed"),
    "void": _("Void of a coup"),
    "undo": _("Undo"),
    "sit": _("Took a seat"),
    "leave": _("Left the table"),
    # corrections
    "open_coup_void": _("Void of the coup in progress"),
    "void_refused": _("Void refused"),
    "void_pending": _("Void waiting for a decision"),
    # games and the numbered sabots and packs (model 19)
    "chemin_de_fer": _("Chemin de fer"),
    "lansquenet_moderne": _("Lansquenet moderne"),
    "lansquenet_classique": _("Lansquenet classique"),
    "landsknecht": _("Landsknecht"),
    "pontoon": _("Pontoon"),
    "sabot": _("Sabot"),
    "pack": _("Pack of cards"),
    # staff
    "croupier": _("Croupier"),
    "changeur": _("Changeur"),
    # reserve fund movements (COM-8)
    "fund_contribution:credit": _("Contributions"),
    "fund_replenishment:credit": _("Replenishments"),
    "fund_cover_won:credit": _("Cover won"),
    "fund_cover_lost:debit": _("Cover lost"),
    "fund_share:debit": _("Shares paid out"),
    "balance": _("Balance left"),
    # differences found by the reconciliation
    "unbalanced_transaction": _("A transaction does not sum to zero"),
    "replay_failed": _("The engine could not replay the table"),
    "posting_missing": _("A recorded posting is missing from the books"),
    "coup_not_booked": _("A coup was not booked"),
    "coup_differs": _("A coup's booking differs from the replay"),
    "coup_row_missing": _("A replayed coup has no stored coup"),
    "coup_row_differs": _("A stored coup differs from the replay"),
    "coup_not_replayed": _("A stored coup does not come out of the replay"),
    "session_transfers_differ": _("Session movements differ from the replay"),
    "void_not_reversed": _("A voided coup was not reversed"),
    "reversal_differs": _("A reversal does not mirror its original"),
    "unexplained_transaction": _("A transaction matches no recorded action"),
    "balance_differs": _("An account's balance differs"),
    "levy_charge_differs": _("A fee charged from the seating differs from its booking"),
    "account_missing": _("An account is missing"),
    # how the house is paid (docs/rules/levy.md, LV-1, LV-5)
    "banker_win": _("Share of the banker's win"),
    "stakes": _("Share of the stakes"),
    "coup_fee": _("Fee per coup"),
    "time_fee": _("Time fee"),
    "participation_fee": _("Participation fee"),
    "cagnotte": _("Cagnotte"),
    # surplus / shortfall (art. 70)
    "surplus": _("Surplus"),
    "shortfall": _("Shortfall"),
    "exact": _("Exact"),
    "uncounted": _("Not counted yet"),
}


def label(code: object) -> str:
    if code is None:
        return ""
    text = str(code)
    found = LABELS.get(text)
    return str(found) if found is not None else text.replace("_", " ")
