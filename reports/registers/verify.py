"""The check that every stored register still is what the books and the journal say
(docs/registers.md): each register's SHA-256, its place in its kind's chain, its signatures,
and the version in force built again (`reports.registers.store.register_rebuild`); what
`manage.py registers_verify` prints.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from establishment.errors import DomainError
from reports.builders import sha256_hex
from reports.models import Register, RegisterKind
from reports.registers.builders import MODEL_11, MODEL_12, chain_first_break
from reports.registers.sources import register_chain
from reports.registers.store import night_now, register_rebuild
from tables.models import TableSession


def first_difference(stored: Any, rebuilt: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place where two JSON documents differ: its path, and both values."""
    if isinstance(stored, dict) and isinstance(rebuilt, dict):
        for name in sorted(set(stored) | set(rebuilt)):
            found = first_difference(
                stored.get(name), rebuilt.get(name), f"{path}.{name}" if path else name
            )
            if found:
                return found
        return None
    if isinstance(stored, list) and isinstance(rebuilt, list):
        for index, (a, b) in enumerate(zip(stored, rebuilt, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(stored) != len(rebuilt):
            return (f"{path} (length)", len(stored), len(rebuilt))
        return None
    return None if stored == rebuilt else (path, stored, rebuilt)


@dataclass(frozen=True)
class Problem:
    """One thing `registers_verify` found: which register, where, and what."""

    register: str
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.register}: {self.where}: {self.what}"


def _name(register: Register) -> str:
    if register.kind == MODEL_11:
        content = json.loads(register.content)
        return (
            f"model 11, table {content.get('table')}, séance {content.get('seance')} of the "
            f"journée {content.get('journee')} (v{register.version})"
        )
    label = "model 12, journée" if register.kind == MODEL_12 else "model 13, month"
    return f"{label} {register.key} (v{register.version})"


def registers_verify(
    built_nights: dict[int, tuple[dict[str, Any], Any]] | None = None,
) -> list[Problem]:
    """Every stored register checked: its SHA-256, its place in its kind's chain, its
    signatures, and (for the version in force) its content built again from the books and the
    journal. The first difference of each register is named. `built_nights`: nights already built
    again now (gaming session id → `night_now`'s answer), not built a second time."""
    problems: list[Problem] = []
    nights: dict[int, tuple[dict[str, Any], Any]] = dict(built_nights or {})
    tables_of: dict[int, set[int]] = {}

    def report_of(gaming_session: Any) -> dict[str, Any]:
        if gaming_session.pk not in nights:
            nights[gaming_session.pk] = night_now(gaming_session)
        return nights[gaming_session.pk][0]

    for kind in RegisterKind.values:
        chain = list(
            register_chain(kind=kind).select_related("table_session").prefetch_related("signatures")
        )
        rows = [
            {
                "key": r.key,
                "version": r.version,
                "sha256": r.sha256,
                "previous_sha256": r.previous_sha256,
                "computed_sha256": sha256_hex(r.content),
            }
            for r in chain
        ]
        broken = chain_first_break(rows)
        if broken:
            register = next(
                r for r in chain if (r.key, r.version) == (broken["register"], broken["version"])
            )
            what = (
                _("its content does not have its SHA-256: it was altered")
                if broken["problem"] == "hash"
                else _("the chain breaks before it: a register was removed or altered")
            )
            problems.append(Problem(_name(register), "sha256", what))
        in_force = {r.key: r for r in chain}
        for register in chain:
            for signature in register.signatures.all():
                if signature.signed_sha256 != register.sha256:
                    problems.append(
                        Problem(_name(register), "signature", _("a signature signed another text"))
                    )
            if in_force[register.key] is not register:
                continue
            try:
                rebuilt = register_rebuild(register, report_of)
            except (DomainError, StopIteration, TableSession.DoesNotExist):
                problems.append(
                    Problem(
                        _name(register), "content", _("it cannot be built again from the books")
                    )
                )
                continue
            if register.kind == MODEL_11 and register.table_session is not None:
                night = register.table_session.gaming_session_id
                tables_of.setdefault(night, set()).add(rebuilt["table"])
            found = first_difference(json.loads(register.content), rebuilt)
            if found:
                where, was, now = found
                problems.append(
                    Problem(
                        _name(register),
                        where,
                        _("signed %(was)s, the books and the journal say %(now)s")
                        % {"was": json.dumps(was), "now": json.dumps(now)},
                    )
                )
    # Where a table's journal, replayed, and its books disagree (the reconciliation's words).
    for night, (_content, reconciliation) in nights.items():
        for difference in reconciliation.differences:
            if difference.get("table") in tables_of.get(night, set()):
                coup = f", coup {difference['coup']}" if "coup" in difference else ""
                problems.append(
                    Problem(
                        _("model 11, the night's journal and books"),
                        f"table {difference['table']}{coup}",
                        _("the journal replayed and the books disagree (%(kind)s)")
                        % {"kind": difference.get("kind", "")},
                    )
                )
    return problems
