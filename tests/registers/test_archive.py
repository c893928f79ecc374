"""A season exported as a self-checking archive (docs/registers.md, "Retention", art. 80): every
register of the season and every version of it as its canonical JSON, their signatures, a
manifest, and `verify.py` — run here in a subprocess of its own, with Python's standard library
only (`-I -S`, from a folder without the project) — which says OK for what the product wrote and
names the file, the register or the link of the chain where one byte was changed. Asked for from
the registers' index by a manager or an auditor, built by a task after the commit, shown being
prepared, then downloaded; `manage.py registers_archive` writes the same ZIP."""

from __future__ import annotations

import hashlib
import io
import json
import subprocess
import sys
import zipfile
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from establishment.errors import DomainError
from establishment.models import AuditEntry, Player
from establishment.roles import Role
from reports.models import Register, RegisterArchive, ReportStatus, SettlementReport
from reports.registers.archive import (
    registers_archive,
    registers_archive_request,
    registers_archive_store,
    registers_archive_unbuilt_list,
)
from reports.registers.store import journee_sign, register_rectify
from reports.tasks import registers_sweep
from tests.factories import UserFactory
from tests.ledger.test_settlement import Night
from tests.registers.test_registers import _count_all, _journee

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


def _season_signed(night: Night, report: SettlementReport) -> int:
    """Every table counted, one model 11 rectified (two versions), model 12 signed by two."""
    registers = _count_all(night, report)
    banker = json.loads(registers[0].content)["bankers"][0]["player"]
    Player.objects.filter(member_number=banker).update(surname="AUBERT", first_names="Anne")
    register_rectify(
        register=registers[0], reason="identity", user=night.manager, password="password"
    )
    journee = _journee(report)
    journee_sign(journee=journee, user=night.manager, password="password")
    other = UserFactory.create(roles=[Role.MANAGER])
    journee_sign(journee=journee, user=other, password="password")
    return journee.year


def _verify(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """verify.py out of the ZIP into a folder without the project, run with the standard
    library alone."""
    return subprocess.run(
        [sys.executable, "-I", "-S", "verify.py", *args],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _unpacked_verifier(data: bytes, where: Path) -> Path:
    where.mkdir(exist_ok=True)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        (where / "verify.py").write_bytes(archive.read("verify.py"))
    (where / "archive.zip").write_bytes(data)
    return where


def _rewritten(data: bytes, change: Callable[[dict[str, bytes]], None]) -> bytes:
    """The ZIP with its files changed by `change` (name → bytes)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    change(files)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return out.getvalue()


def test_the_archive_holds_every_register_and_verifies(
    settled: tuple[Night, SettlementReport], tmp_path: Path
) -> None:
    night, report = settled
    season = _season_signed(night, report)
    built = registers_archive(season=season)
    stored = list(Register.objects.order_by("pk"))
    assert built.registers == len(stored) == len(json.loads(report.content)["tables"]) + 2
    assert built.sha256 == hashlib.sha256(built.data).hexdigest()
    with zipfile.ZipFile(io.BytesIO(built.data)) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("manifest.json"))
        for register in stored:  # every version, as its canonical JSON, under kind/key/version
            path = f"registers/{register.kind}/{register.key}/v{register.version}.json"
            assert archive.read(path).decode("utf-8") == register.content
            signed = json.loads(archive.read(path.replace(".json", ".signatures.json")))
            assert [s["signed_sha256"] for s in signed["signatures"]] == [
                s.signed_sha256 for s in register.signatures.order_by("signed_at", "pk")
            ]
    assert hashlib.sha256(manifest_bytes(built.data)).hexdigest() == built.manifest_sha256
    assert names == {*manifest["files"], "manifest.json"}
    assert "verify.py" in names
    chain = manifest["chains"]["model_11"]
    assert [link["sha256"] for link in chain] == [r.sha256 for r in stored if r.kind == "model_11"]
    assert [link["previous_sha256"] for link in chain][1:] == [link["sha256"] for link in chain][
        :-1
    ]
    rectification = next(e for e in manifest["registers"] if e["version"] == 2)
    assert rectification["rectifies"] == stored[0].sha256 and rectification["reason"] == "identity"
    # The same registers give the same bytes.
    assert registers_archive(season=season).sha256 == built.sha256

    where = _unpacked_verifier(built.data, tmp_path / "check")
    checked = _verify(where, "archive.zip")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith("OK:") and built.manifest_sha256 in checked.stdout
    # Unpacked, run from inside, it checks its own folder.
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(io.BytesIO(built.data)) as archive:
        archive.extractall(unpacked)
    assert _verify(unpacked).returncode == 0


def manifest_bytes(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return archive.read("manifest.json")


def test_verify_names_the_register_whose_byte_was_changed(
    settled: tuple[Night, SettlementReport], tmp_path: Path
) -> None:
    night, report = settled
    built = registers_archive(season=_season_signed(night, report))
    target = Register.objects.filter(kind="model_11").order_by("pk")[1]
    path = f"registers/model_11/{target.key}/v1.json"

    def one_byte(files: dict[str, bytes]) -> None:
        text = bytearray(files[path])
        at = text.index(b'"levy":') + len(b'"levy":')
        text[at] = ord("9") if text[at] != ord("9") else ord("8")
        files[path] = bytes(text)

    altered = _rewritten(built.data, one_byte)
    where = _unpacked_verifier(altered, tmp_path / "altered")
    checked = _verify(where, "archive.zip")
    assert checked.returncode == 1
    assert checked.stdout.startswith("BROKEN: ") and path in checked.stdout, checked.stdout

    # The manifest rewritten to match the altered file: the register's own SHA-256 says so.
    def with_manifest(files: dict[str, bytes]) -> None:
        one_byte(files)
        manifest = json.loads(files["manifest.json"])
        manifest["files"][path] = hashlib.sha256(files[path]).hexdigest()
        files["manifest.json"] = json.dumps(manifest).encode()

    where = _unpacked_verifier(_rewritten(built.data, with_manifest), tmp_path / "manifest")
    checked = _verify(where, "archive.zip")
    assert checked.returncode == 1 and target.key in checked.stdout, checked.stdout
    assert "does not have its SHA-256" in checked.stdout

    # The register's hash rewritten too: the chain breaks at the register after it.
    def with_hashes(files: dict[str, bytes]) -> None:
        one_byte(files)
        new = hashlib.sha256(files[path]).hexdigest()
        manifest = json.loads(files["manifest.json"])
        manifest["files"][path] = new
        for entry in manifest["registers"]:
            if entry["path"] == path:
                entry["sha256"] = new
        for link in manifest["chains"]["model_11"]:
            if link["path"] == path:
                link["sha256"] = new
        signatures = path.replace(".json", ".signatures.json")
        signed = json.loads(files[signatures])
        for s in signed["signatures"]:
            s["signed_sha256"] = new
        files[signatures] = json.dumps(signed).encode()
        manifest["files"][signatures] = hashlib.sha256(files[signatures]).hexdigest()
        files["manifest.json"] = json.dumps(manifest).encode()

    where = _unpacked_verifier(_rewritten(built.data, with_hashes), tmp_path / "chain")
    checked = _verify(where, "archive.zip")
    assert checked.returncode == 1 and "the chain breaks" in checked.stdout, checked.stdout

    # A register taken out of the archive: its file is missing.
    def removed(files: dict[str, bytes]) -> None:
        del files[path]

    where = _unpacked_verifier(_rewritten(built.data, removed), tmp_path / "removed")
    checked = _verify(where, "archive.zip")
    assert checked.returncode == 1 and f"{path}: missing" in checked.stdout, checked.stdout


def test_a_manager_asks_for_the_archive_and_downloads_it_once_built(
    settled: tuple[Night, SettlementReport],
    django_capture_on_commit_callbacks: Capture,
    tmp_path: Path,
) -> None:
    night, report = settled
    season = _season_signed(night, report)
    manager = Client()
    manager.force_login(night.manager)
    index = manager.get(reverse("registers:index")).content.decode()
    assert f'<option value="{season}">' in index
    with django_capture_on_commit_callbacks(execute=False) as sent:
        asked = manager.post(reverse("registers:archive-request"), {"season": str(season)})
    assert asked.status_code == 302
    archive = RegisterArchive.objects.get()
    assert (archive.season, archive.status, archive.requested_by) == (
        season,
        ReportStatus.PENDING,
        night.manager,
    )
    assert AuditEntry.objects.filter(action="registers_archive_requested").count() == 1
    assert [c.func.__self__.name for c in sent] == ["reports.build_register_archive"]
    progress = reverse("registers:archive-progress", args=[archive.public_id])
    index = manager.get(reverse("registers:index")).content.decode()
    assert "Archive being prepared…" in index and f'hx-get="{progress}"' in index
    polled = manager.get(progress, HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-trigger="every 1s"' in polled
    download = reverse("registers:archive-file", args=[archive.public_id])
    assert manager.get(download).status_code == 404  # not built yet
    # Asked again while it waits: the same archive.
    again = registers_archive_request(season=season, user=night.manager)
    assert again.pk == archive.pk

    for callback in sent:  # the worker builds it
        callback()
    polled = manager.get(progress, HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in polled and download in polled  # then the download link
    auditor = Client()
    auditor.force_login(UserFactory.create(roles=[Role.AUDITOR]))
    got = auditor.get(download)
    assert got["Content-Type"] == "application/zip"
    assert got["X-Content-SHA256"] == hashlib.sha256(got.content).hexdigest()
    archive.refresh_from_db()
    assert archive.registers == Register.objects.count()
    where = _unpacked_verifier(got.content, tmp_path / "downloaded")
    assert _verify(where, "archive.zip").returncode == 0
    # Built once: a second run of its task is a no-op.
    assert registers_archive_store(archive_id=archive.pk) == archive
    assert RegisterArchive.objects.get().attempts == 1


def test_who_may_ask_for_an_archive_and_of_which_season(
    settled: tuple[Night, SettlementReport], django_capture_on_commit_callbacks: Capture
) -> None:
    night, report = settled
    season = _journee(report).year
    croupier = UserFactory.create(roles=[Role.CROUPIER])
    with pytest.raises(DomainError) as refused:
        registers_archive_request(season=season, user=croupier)
    assert refused.value.code == "permission_denied"
    on_screen = Client()
    on_screen.force_login(croupier)
    answer = on_screen.post(reverse("registers:archive-request"), {"season": str(season)})
    assert answer.status_code == 403 and b"journees" not in answer.content
    manager = Client()
    manager.force_login(night.manager)
    for wrong in ("1999", "twenty"):
        answer = manager.post(reverse("registers:archive-request"), {"season": wrong})
        assert answer.status_code == 409 and 'data-testid="problem"' in answer.content.decode()
    assert not RegisterArchive.objects.exists()
    auditor = UserFactory.create(roles=[Role.AUDITOR])
    with django_capture_on_commit_callbacks(execute=True):
        archive = registers_archive_request(season=season, user=auditor)
    archive.refresh_from_db()
    assert archive.status == ReportStatus.READY  # a season without a register is archived too
    assert archive.registers == 0


def test_the_sweep_builds_an_archive_whose_message_was_lost(
    settled: tuple[Night, SettlementReport],
    django_capture_on_commit_callbacks: Capture,
    settings: Any,
) -> None:
    night, report = settled
    season = _season_signed(night, report)
    with django_capture_on_commit_callbacks(execute=False):  # the message is lost
        archive = registers_archive_request(season=season, user=night.manager)
    later = timezone.now() + timedelta(hours=1)
    assert registers_archive_unbuilt_list(requested_before=later, stale_before=later) == [
        archive.pk
    ]
    settings.SETTLEMENT_SWEEP_GRACE_SECONDS = 0
    assert registers_sweep.apply().get() == 1
    archive.refresh_from_db()
    assert archive.status == ReportStatus.READY and archive.registers == Register.objects.count()
    assert registers_sweep.apply().get() == 0


def test_the_command_writes_the_seasons_archive(
    settled: tuple[Night, SettlementReport], tmp_path: Path
) -> None:
    night, report = settled
    season = _season_signed(night, report)
    out = tmp_path / f"registers-{season}.zip"
    call_command("registers_archive", "--season", str(season), "--out", str(out))
    assert out.read_bytes() == registers_archive(season=season).data
    where = _unpacked_verifier(out.read_bytes(), tmp_path / "command")
    assert _verify(where, "archive.zip").returncode == 0
    with pytest.raises(CommandError, match="No table played"):
        call_command("registers_archive", "--season", "1999", "--out", str(out))
