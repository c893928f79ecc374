"""Pure builders: rows → the settlement report (a JSON-ready dict); the reconciliation it
carries is made by `reports.reconciliation`.

Nothing here reads the database or the clock: the same rows give the same report, byte for
byte once `canonical_json` has serialised it (no generation time inside). Amounts are integer
chips; codes (outcomes, reasons, how a bank changed hands) stay codes, and the renderers turn
them into words in the reader's language.

The registers this digitises (arrêté du 14 mai 2007):
- the cagnotte book of each table and séance (model 11, art. 70), with the levy coup by coup
  as art. 56-1 asks of an approved machine: time, pot, levy, gain;
- the register of bankers (art. 71): each banker's operations described distinctly;
- the daily control register (model 12, art. 72): the accounts per séance and per table.
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ledger.models import AccountKind, Side
from tables.engine.money import BANKER_WIN
from tables.models import EventKind
from tables.words import LEVY_SETTINGS

if TYPE_CHECKING:
    from reports.reconciliation import Reconciliation

REPORT_FORMAT = 2


def canonical_json(document: Mapping[str, Any]) -> str:
    """The one serialisation of a report: sorted keys, no spaces, UTF-8 text."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sha256_hex(data: str | bytes) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def when(moment: datetime | None) -> str | None:
    """A moment as ISO 8601 in UTC to the second (renderers show local time)."""
    if moment is None:
        return None
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


# -- the report ------------------------------------------------------------------------------


def _signed(row: Mapping[str, Any]) -> int:
    total = int(row["total"])
    return total if row["side"] == Side.CREDIT else -total


def _pauses(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Interruptions and restarts paired (art. 70: interruptions and restarts are logged)."""
    out: list[dict[str, Any]] = []
    for row in rows:
        if row["kind"] == EventKind.INTERRUPT:
            out.append(
                {
                    "from": when(row["recorded_at"]),
                    "until": None,
                    "by": row["recorded_by__username"],
                    "reason": row["reason"],
                }
            )
        elif out and out[-1]["until"] is None:
            out[-1]["until"] = when(row["recorded_at"])
    return out


def _by_table_session(rows: Iterable[Mapping[str, Any]]) -> dict[int, list[Mapping[str, Any]]]:
    """Rows grouped by their table session, in their order."""
    grouped: dict[int, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        grouped[row["table_session_id"]].append(row)
    return grouped


def report_build(
    *,
    rows: Any,
    summaries: Mapping[int, Mapping[str, Any]],
    reconciliation: Reconciliation,
) -> dict[str, Any]:
    """The settlement report of one gaming session (a `reports.selectors.SettlementRows`), with
    each table's replay summary (`table_reconcile`)."""
    session = rows.gaming_session
    accounts: Mapping[int, Mapping[str, Any]] = rows.accounts
    names: dict[str, str] = {}
    for account in accounts.values():
        if account["player__member_number"]:
            names[account["player__member_number"]] = account["player__name"]
    for tenure in rows.tenures:
        if tenure["player__member_number"]:
            names[tenure["player__member_number"]] = tenure["player__name"]

    # Money by account and table session, summed by the database.
    by_account_ts: dict[tuple[int, int | None], int] = defaultdict(int)
    by_account_reason: dict[tuple[int, str, str], int] = defaultdict(int)
    balance: dict[int, int] = defaultdict(int)
    for row in rows.totals:
        signed = _signed(row)
        by_account_ts[(row["account_id"], row["table_session_id"])] += signed
        by_account_reason[(row["account_id"], row["reason"], row["side"])] += int(row["total"])
        balance[row["account_id"]] += signed

    # Accounts by what they belong to, once (a report may have hundreds of tables).
    special: dict[tuple[str, int], int] = {}
    reliquats_by_ts: dict[int, list[int]] = defaultdict(list)
    for pk, account in sorted(accounts.items(), key=lambda item: _sort_key(item[1])):
        kind = account["kind"]
        if kind in (AccountKind.CAGNOTTE, AccountKind.RESERVE_FUND):
            special[(str(kind), account["table_id"])] = pk
        elif kind == AccountKind.RELIQUAT:
            reliquats_by_ts[account["table_session_id"]].append(pk)
    reasons_of: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    for (account_id, reason, side), amount in sorted(by_account_reason.items()):
        reasons_of[account_id].append((reason, side, amount))
    positions_by_ts: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for (account_id, ts_id), result in by_account_ts.items():
        owner = accounts.get(account_id)
        if ts_id is not None and owner and owner["kind"] == AccountKind.PLAYER_POSITION:
            positions_by_ts[ts_id].append((account_id, result))
    # The levy by model (docs/rules/levy.md, LV-1, LV-5): what each table's cagnotte received,
    # net of the voids' reversals, by the reason of its transfers.
    levy_by_ts: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for row in rows.totals:
        owner = accounts.get(row["account_id"])
        if owner and owner["kind"] == AccountKind.CAGNOTTE and row["table_session_id"]:
            levy_by_ts[row["table_session_id"]][row["reason"]] += _signed(row)
    fees_by_ts = _by_table_session(rows.levy_charges)
    staff_by_ts = _by_table_session(rows.assignments)
    pauses_by_ts = _by_table_session(rows.pauses)
    coups_by_ts = _by_table_session(rows.coups)
    tenures_by_ts = _by_table_session(rows.tenures)

    tables: list[dict[str, Any]] = []
    player_tables: dict[str, list[dict[str, Any]]] = defaultdict(list)
    cagnotte_by_table: dict[int, dict[str, Any]] = {}
    for ts in rows.table_sessions:
        number = ts.table.number
        summary = summaries.get(ts.pk)
        book = {number: (pot, bank) for number, pot, bank in summary["coups"]} if summary else {}
        coup_list: list[dict[str, Any]] = []
        for coup in coups_by_ts.get(ts.pk, []):
            banker = coup["banker"] or None
            pot, bank_result = book.get(coup["number"], (0, None))
            levy = int(coup["cagnotte_chips"])
            coup_list.append(
                {
                    "coup": coup["number"],
                    "time": when(coup["settled_at"]),
                    "outcome": coup["outcome"],
                    "banker": banker,
                    "pot": pot,
                    "levy": levy,
                    "gain": pot - levy,
                    "bank_result": bank_result,
                    "voided": bool(coup["is_voided"]),
                    "seq": coup["settled_seq"],
                }
            )
        live = [c for c in coup_list if not c["voided"]]
        levied = {reason: amount for reason, amount in sorted(levy_by_ts[ts.pk].items()) if amount}
        fees = [
            {
                "player": fee["player__member_number"],
                "name": fee["player__name"],
                "model": fee["levy_model"],
                "from": when(fee["period_start"]),
                "until": when(fee["period_end"]),
                "amount": int(fee["amount"]),
                "charged_at": when(fee["charged_at"]),
            }
            for fee in fees_by_ts.get(ts.pk, [])
        ]
        # What the cagnotte should hold: the coups' levy (COM-6.4), their fees per coup (LV-2,
        # checked coup by coup against the replay by the reconciliation) and the fees charged
        # from the seating (LV-3, each checked against its charge).
        expected = (
            sum(c["levy"] for c in live)
            + levied.get("coup_fee", 0)
            + sum(fee["amount"] for fee in fees)
        )

        # The register of bankers (art. 71): each tenure, its coups and its result.
        # Live coups are in journal order: a tenure's coups are a slice of them.
        tenures = tenures_by_ts.get(ts.pk, [])
        live_seqs = [c["seq"] for c in live]
        bankers: list[dict[str, Any]] = []
        for index, tenure in enumerate(tenures):
            following = tenures[index + 1] if index + 1 < len(tenures) else None
            until = bisect_left(live_seqs, following["seq"]) if following else len(live)
            held = live[bisect_left(live_seqs, tenure["seq"]) : until]
            code = tenure["player__member_number"]
            bankers.append(
                {
                    "player": code,
                    "name": tenure["player__name"],
                    "how": tenure["how"],
                    "from": when(tenure["started_at"]),
                    "until": when(following["started_at"]) if following else when(ts.closed_at),
                    "ended": following["how"] if following else "table_closed",
                    "coups": len(held),
                    "result": sum(c["bank_result"] or 0 for c in held) if code else 0,
                    "levy": sum(c["levy"] for c in held),
                }
            )

        # Reliquats (COM-7) and the reserve fund (COM-8) of this table session.
        reliquats: list[dict[str, Any]] = []
        reserve: dict[str, int] = defaultdict(int)
        players: list[dict[str, Any]] = []
        for pk in reliquats_by_ts.get(ts.pk, []):
            code = accounts[pk]["player__member_number"]
            reliquats.append(
                {
                    "player": code,
                    "name": names.get(code, ""),
                    "set_aside": by_account_reason[(pk, "reliquat_in", Side.CREDIT)],
                    "returned": by_account_reason[(pk, "reliquat_out", Side.DEBIT)],
                    "balance": balance[pk],
                }
            )
        fund = special.get((AccountKind.RESERVE_FUND, ts.table_id))
        if fund is not None:
            for reason, side, amount in reasons_of.get(fund, []):
                if amount:
                    reserve[f"{reason}:{side}"] += amount
            reserve["balance"] = balance[fund]
        for pk, result in sorted(
            positions_by_ts.get(ts.pk, []), key=lambda item: _sort_key(accounts[item[0]])
        ):
            code = accounts[pk]["player__member_number"]
            players.append({"player": code, "name": names.get(code, ""), "result": result})
            player_tables[code].append({"table": number, "game": ts.game, "result": result})
        cagnotte = special.get((AccountKind.CAGNOTTE, ts.table_id))
        entry = cagnotte_by_table.setdefault(
            number, {"table": number, "expected": 0, "booked": balance[cagnotte] if cagnotte else 0}
        )
        entry["expected"] += expected

        # Model 11, column 3 bis (docs/registers.md): each duty period, reliefs included.
        staff = [
            {
                "role": a["role"],
                "staff": a["staff__username"],
                "from": when(a["assigned_at"]),
                "until": when(a["released_at"]),
                "assigned_by": a["assigned_by__username"],
                "ended_by": a["released_by__username"],
            }
            for a in staff_by_ts.get(ts.pk, [])
        ]
        tables.append(
            {
                "table": number,
                "name": ts.table.name,
                "game": ts.game,
                "table_session": str(ts.public_id),
                "opened_at": when(ts.opened_at),
                "closed_at": when(ts.closed_at),
                "opened_by": ts.opened_by.get_username(),
                "closed_by": ts.closed_by.get_username() if ts.closed_by else None,
                # An inspector's forced close (issue 13): why, and what was left.
                "forced_close": {"reason": ts.close_reason, "left": ts.close_left}
                if ts.close_forced
                else None,
                "chip_unit": int(ts.settings.get("chip_unit", 1)),
                "cagnotte_rate_bp": int(ts.settings.get("cagnotte_rate_bp", 0)),
                "levy_model": str(ts.settings.get("levy_model", BANKER_WIN)),
                # The levy's terms, frozen for the séance (LV-1), as its words need them.
                "levy_terms": {
                    name: ts.settings[name] for name in LEVY_SETTINGS if name in ts.settings
                },
                "levy": levied,
                "fees": fees,
                "staff": staff,
                "interruptions": _pauses(pauses_by_ts.get(ts.pk, [])),
                "coups_played": len(live),
                "coups_voided": len(coup_list) - len(live),
                "coups": coup_list,
                "cagnotte_expected": expected,
                "bankers": bankers,
                "reliquats": reliquats,
                "reserve_fund": dict(sorted(reserve.items())) if reserve else None,
                "players": sorted(players, key=lambda p: p["player"]),
                "final_state": summary["phase"] if summary else None,
            }
        )

    player_rows = [
        {
            "player": code,
            "name": names.get(code, ""),
            "tables": tables_of,
            "total": sum(t["result"] for t in tables_of),
        }
        for code, tables_of in sorted(player_tables.items())
    ]
    kinds_total: dict[str, int] = defaultdict(int)
    for pk, account in accounts.items():
        kinds_total[str(account["kind"])] += balance[pk]
    return {
        "format": REPORT_FORMAT,
        "session": {
            "id": str(session.public_id),
            "opened_at": when(session.opened_at),
            "closed_at": when(session.closed_at),
            "opened_by": session.opened_by.get_username(),
            "closed_by": session.closed_by.get_username() if session.closed_by else None,
        },
        "tables": tables,
        "cagnotte": [cagnotte_by_table[n] for n in sorted(cagnotte_by_table)],
        "players": player_rows,
        "levy": _levy_totals(tables),
        "corrections": corrections_build(
            rows=rows, ts_number={t.pk: t.table.number for t in rows.table_sessions}
        ),
        "totals": dict(sorted(kinds_total.items())),
        "reconciliation": reconciliation.as_dict(),
    }


def _levy_totals(tables: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The night's levy by model and by reason, and every fee charged from the seating, to whom
    and when (LV-3: a house on a participation fee keeps no cagnotte book; this is its record)."""
    by_model: dict[str, int] = defaultdict(int)
    by_reason: dict[str, int] = defaultdict(int)
    fees: list[dict[str, Any]] = []
    for table in tables:
        by_model[table["levy_model"]] += sum(table["levy"].values())
        for reason, amount in table["levy"].items():
            by_reason[reason] += amount
        fees.extend({"table": table["table"], **fee} for fee in table["fees"])
    return {
        "by_model": dict(sorted(by_model.items())),
        "by_reason": dict(sorted(by_reason.items())),
        "fees": sorted(fees, key=lambda f: (f["charged_at"] or "", f["table"], f["player"])),
    }


def _sort_key(account: Mapping[str, Any]) -> tuple[str, str, int]:
    return (str(account["kind"]), str(account["player__member_number"] or ""), account["pk"])


def corrections_build(*, rows: Any, ts_number: Mapping[int, int]) -> list[dict[str, Any]]:
    """Every undo and void: who asked, who approved, why (art. 68: corrections stay visible)."""
    out: list[dict[str, Any]] = []

    def journal_correction(
        event: Mapping[str, Any], kind: str, approved_by: str | None, detail: str
    ) -> dict[str, Any]:
        """A correction that is one line of the journal, with nothing reversed in the books."""
        return {
            "kind": kind,
            "table": ts_number.get(event["table_session_id"]),
            "seq": event["seq"],
            "at": when(event["recorded_at"]),
            "requested_by": event["recorded_by__username"],
            "approved_by": approved_by,
            "reason": event["reason"],
            "detail": detail,
            "reversed": 0,
        }

    for event in rows.corrections:
        outcome = event["outcome"] or {}
        if event["kind"] == EventKind.UNDO:
            undone = outcome.get("undone_action") or {}
            out.append(journal_correction(event, "undo", None, str(undone.get("type", ""))))
        elif "voided_open_coup" in outcome:
            voided = ",".join(str(s) for s in outcome["voided_open_coup"])
            out.append(
                journal_correction(event, "open_coup_void", event["recorded_by__username"], voided)
            )
    reversed_by_seq = {
        event["seq"]: len((event["outcome"] or {}).get("reversed", []))
        for event in rows.corrections
        if event["kind"] == EventKind.VOID
    }
    for request in rows.void_requests:
        approved = request["decision__approved"]
        status = "void" if approved else ("void_refused" if approved is False else "void_pending")
        out.append(
            {
                "kind": status,
                "table": ts_number.get(request["coup__table_session_id"]),
                "seq": request["decision__event__seq"] or request["coup__settled_seq"],
                "at": when(request["decision__decided_at"] or request["requested_at"]),
                "requested_by": request["requested_by__username"],
                "requested_at": when(request["requested_at"]),
                "approved_by": request["decision__decided_by__username"],
                "reason": request["reason"],
                "note": request["decision__note"] or "",
                "detail": f"coup {request['coup__number']}",
                "coup": request["coup__number"],
                "reversed": reversed_by_seq.get(request["decision__event__seq"], 0),
            }
        )
    return sorted(out, key=lambda c: (c["table"] or 0, c["seq"] or 0, c["kind"]))
