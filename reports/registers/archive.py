"""A season's registers exported as one self-checking archive (docs/registers.md, "Retention":
ten years plus the current year, art. 80).

A season is a calendar year of journées: 1 January to 31 December, each séance in the season
of its journée (the night of 31 December played past midnight belongs to the year that ends),
each model 12 in the season of its journée and each model 13 in the season of its month.

The archive is a ZIP holding, for every register of the season and every version of it (a
rectification stored in a later year included), its canonical JSON exactly as stored
(`registers/<kind>/<key>/v<version>.json`) and its signatures (`….signatures.json`); a manifest
(`manifest.json`, canonical JSON: each file's SHA-256, each register's place, and each kind's
chain in the order the registers were stored, with the `previous_sha256` each carries — the
registers of other seasons inside that stretch of the chain by their hashes only); and
`verify.py` (`reports/registers/archive_verify.py`, standard library only), which recomputes
every hash and every chain from the ZIP's own files and prints OK or the first break. The same
registers give the same bytes (fixed file times), so the ZIP's SHA-256 names its content.

A manager or an auditor asks for it from the registers' index (`registers_archive_request`); a
worker builds it once that commits (`reports.build_register_archive` →
`registers_archive_store`, claimed by a conditional update as the settlement report is) and it
is stored in the database (`RegisterArchive.data`, as the report's files are), to be downloaded
again. `manage.py registers_archive --season 2026 --out FILE` writes the same ZIP directly.
"""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from celery import current_app
from django.db import OperationalError, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from establishment.errors import InvalidStateError
from establishment.roles import Role
from establishment.services import audit
from establishment.staff import role_required
from reports.builders import canonical_json, sha256_hex, when
from reports.models import Register, RegisterArchive, ReportStatus
from reports.registers.archive_verify import FORMAT, MANIFEST
from reports.registers.builders import MODEL_11, MODEL_12, MODEL_13
from reports.services import job_claim
from tables.models import TableSession

if TYPE_CHECKING:
    from django.contrib.auth.models import User

logger = logging.getLogger(__name__)

ARCHIVE_READERS = frozenset({Role.MANAGER, Role.AUDITOR})
VERIFIER = "verify.py"
_VERIFIER_SOURCE = Path(__file__).with_name("archive_verify.py")
_FILE_TIME = (1980, 1, 1, 0, 0, 0)  # ZIP's first moment: the same registers, the same bytes


@dataclass(frozen=True)
class Archive:
    """A season's archive as built: the ZIP, its SHA-256, its manifest's, how many registers."""

    season: int
    data: bytes
    sha256: str
    manifest_sha256: str
    registers: int


# -- what a season holds -----------------------------------------------------------------------


def season_parse(season: Any) -> int:
    """A season is a year written YYYY."""
    try:
        year = int(str(season).strip())
    except ValueError:
        year = 0
    if not 1000 <= year <= 9999:
        raise InvalidStateError(_("A season is a year written YYYY, such as 2026."))
    return year


def seasons_played() -> list[int]:
    """The years in which a table played, the latest first."""
    return [d.year for d in TableSession.objects.dates("journee", "year", order="DESC")]


def season_check(season: int) -> None:
    """Refused for a year in which no table played: there is nothing to archive."""
    if not TableSession.objects.filter(journee__year=season).exists():
        raise InvalidStateError(
            _("No table played in %(season)s: there is nothing to archive.") % {"season": season}
        )


def season_registers(*, season: int) -> QuerySet[Register]:
    """Every version of every register of the season, in the order they were stored."""
    prefix = f"{season:04d}-"
    return Register.objects.filter(
        Q(kind=MODEL_11, table_session__journee__year=season)
        | Q(kind__in=[MODEL_12, MODEL_13], key__startswith=prefix)
    ).order_by("pk")


def _path(register: Register) -> str:
    return f"registers/{register.kind}/{register.key}/v{register.version}.json"


def _signatures_text(register: Register) -> str:
    """The register's signatures as canonical JSON: who, when, as what, the SHA-256 signed."""
    rows = [
        {
            "signed_by": s.signed_by.get_username(),
            "signed_at": when(s.signed_at),
            "signed_as": s.signed_as,
            "signed_sha256": s.signed_sha256,
        }
        for s in sorted(register.signatures.all(), key=lambda s: (s.signed_at, s.pk))
    ]
    which = {"kind": register.kind, "key": register.key, "version": register.version}
    return canonical_json({"register": which, "signatures": rows})


def _chains(pks: dict[str, list[int]], paths: dict[int, str]) -> dict[str, list[dict[str, Any]]]:
    """Each kind's chain from the season's first register of that kind to its last, in the
    order they were stored; a register of another season in between by its hashes only."""
    chains: dict[str, list[dict[str, Any]]] = {}
    for kind, kept in sorted(pks.items()):
        rows = (
            Register.objects.filter(kind=kind, pk__gte=min(kept), pk__lte=max(kept))
            .order_by("pk")
            .values_list("pk", "sha256", "previous_sha256")
        )
        chains[kind] = [
            {"sha256": sha, "previous_sha256": previous, "path": paths.get(pk)}
            for pk, sha, previous in rows
        ]
    return chains


def _file(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, date_time=_FILE_TIME)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


def _registers_write(
    archive: zipfile.ZipFile, registers: Iterable[Register], files: dict[str, str]
) -> tuple[list[dict[str, Any]], dict[str, list[int]], dict[int, str]]:
    entries: list[dict[str, Any]] = []
    pks: dict[str, list[int]] = {}
    paths: dict[int, str] = {}
    rectified: dict[int, str] = {}
    for register in registers:
        path = _path(register)
        signatures = path.removesuffix(".json") + ".signatures.json"
        content = register.content.encode("utf-8")
        signed = _signatures_text(register).encode("utf-8")
        _file(archive, path, content)
        _file(archive, signatures, signed)
        files[path], files[signatures] = sha256_hex(content), sha256_hex(signed)
        entries.append(
            {
                "kind": register.kind,
                "key": register.key,
                "version": register.version,
                "path": path,
                "signatures_path": signatures,
                "sha256": register.sha256,
                "previous_sha256": register.previous_sha256,
                "stored_at": when(register.stored_at),
                "rectifies": rectified.get(register.rectifies_id or 0),
                "reason": register.reason,
                "approved_by": register.approved_by.get_username()
                if register.approved_by
                else None,
            }
        )
        rectified[register.pk] = register.sha256
        pks.setdefault(register.kind, []).append(register.pk)
        paths[register.pk] = path
    return entries, pks, paths


def registers_archive(*, season: int) -> Archive:
    """The season's archive, built from the registers as they are stored (module docstring).
    The registers are read a few hundred at a time, so only the ZIP is held whole."""
    buffer = io.BytesIO()
    files: dict[str, str] = {}
    registers = (
        season_registers(season=season)
        .select_related("approved_by")
        .prefetch_related("signatures__signed_by")
        .iterator(chunk_size=200)
    )
    with zipfile.ZipFile(buffer, "w") as archive:
        entries, pks, paths = _registers_write(archive, registers, files)
        verifier = _VERIFIER_SOURCE.read_bytes()
        _file(archive, VERIFIER, verifier)
        files[VERIFIER] = sha256_hex(verifier)
        manifest = canonical_json(
            {
                "format": FORMAT,
                "season": season,
                "journees": {"from": f"{season:04d}-01-01", "to": f"{season:04d}-12-31"},
                "files": files,
                "registers": entries,
                "chains": _chains(pks, paths),
            }
        ).encode("utf-8")
        _file(archive, MANIFEST, manifest)
    data = buffer.getvalue()
    return Archive(
        season=season,
        data=data,
        sha256=sha256_hex(data),
        manifest_sha256=sha256_hex(manifest),
        registers=len(entries),
    )


# -- asked for, built by a worker, stored --------------------------------------------------------


@transaction.atomic(durable=True)
def registers_archive_request(*, season: Any, user: User, client: str = "") -> RegisterArchive:
    """A manager or an auditor asks for a season's archive: stored as asked for, with its audit
    row, and sent to a worker once this commits (`reports.build_register_archive`, by name: a
    service does not import the tasks). An archive of the same season still waiting for a
    worker is the answer instead of a second one."""
    role_required(user, ARCHIVE_READERS, "export the registers of a season")
    year = season_parse(season)
    season_check(year)
    waiting = RegisterArchive.objects.filter(
        season=year, status__in=[ReportStatus.PENDING, ReportStatus.BUILDING]
    ).first()
    if waiting is not None:
        return waiting
    archive = RegisterArchive.objects.create(
        season=year, requested_by=user, requested_at=timezone.now()
    )
    audit(
        user=user,
        action="registers_archive_requested",
        client=client,
        season=year,
        archive=str(archive.public_id),
    )
    current_app.loader.import_default_modules()
    transaction.on_commit(
        partial(current_app.tasks["reports.build_register_archive"].delay, archive.pk),
        robust=True,
    )
    return archive


def registers_archive_store(*, archive_id: int) -> RegisterArchive | None:
    """Build an archive asked for and store it, once: what `reports.build_register_archive`
    calls. Claimed by a conditional update that a stored archive refuses; stored under its row
    lock, so two workers store one. An archive that cannot be built is marked failed with the
    error (shown on the index; the sweep tries again); a transient database error is raised
    for the task to retry. None for an archive that does not exist."""
    archive = RegisterArchive.objects.defer("data").filter(pk=archive_id).first()
    if archive is None or archive.status == ReportStatus.READY:
        return archive
    if not job_claim(RegisterArchive, archive.pk):
        return RegisterArchive.objects.defer("data").get(pk=archive.pk)
    try:
        built = registers_archive(season=archive.season)
    except OperationalError:
        raise
    except Exception as error:
        # Recorded rather than raised: in the embedded (eager) mode an exception here would
        # reach the person who asked as a server error, after his request has committed.
        logger.exception("Archive of the registers of %s failed", archive.season)
        RegisterArchive.objects.filter(pk=archive.pk, status=ReportStatus.BUILDING).update(
            status=ReportStatus.FAILED, error=f"{type(error).__name__}: {error}"[:2000]
        )
        return RegisterArchive.objects.defer("data").get(pk=archive.pk)
    return _archive_keep(archive.pk, built)


@transaction.atomic
def _archive_keep(archive_pk: int, built: Archive) -> RegisterArchive:
    locked = RegisterArchive.objects.select_for_update().defer("data").get(pk=archive_pk)
    if locked.status == ReportStatus.READY:
        return locked  # a concurrent worker stored it first
    locked.status = ReportStatus.READY
    locked.data = built.data
    locked.sha256 = built.sha256
    locked.manifest_sha256 = built.manifest_sha256
    locked.registers = built.registers
    locked.built_at = timezone.now()
    locked.error = ""
    locked.save()
    return locked


def registers_archive_unbuilt_list(
    *, requested_before: datetime, stale_before: datetime
) -> list[int]:
    """Archives asked for before `requested_before` and still not built: queued or failed, or
    claimed by a worker before `stale_before` (that worker died). What the sweep sends again."""
    return list(
        RegisterArchive.objects.filter(requested_at__lt=requested_before)
        .filter(
            Q(status__in=[ReportStatus.PENDING, ReportStatus.FAILED])
            | Q(status=ReportStatus.BUILDING, started_at__lt=stale_before)
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def registers_archive_list(*, limit: int = 10) -> list[RegisterArchive]:
    """The archives asked for, the latest first, without their bytes."""
    return list(
        RegisterArchive.objects.defer("data")
        .select_related("requested_by")
        .order_by("-requested_at", "-pk")[:limit]
    )


def registers_archive_get(*, public_id: Any) -> RegisterArchive | None:
    return RegisterArchive.objects.defer("data").filter(public_id=public_id).first()
