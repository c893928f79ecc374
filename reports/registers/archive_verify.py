"""verify.py: check a season's archive of the registers from its own files (docs/registers.md,
"Retention"). Python's standard library only, so that whoever keeps the archive can run it
without this product:

    python3 verify.py registers-2026.zip     (the ZIP itself)
    python3 verify.py                        (the archive unpacked, run from inside it)

It recomputes the SHA-256 of every file and checks it against `manifest.json`; checks that each
register is canonical JSON whose SHA-256 is the register's, that each signature signed that
SHA-256, and that each kind's chain holds (each register carries the SHA-256 of the register of
its kind stored before it). It prints OK, or the first break, naming the file or the register,
and exits 1. Written into each archive as `verify.py` by `reports.registers.archive`.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

FORMAT = "casino-registers-archive/1"
MANIFEST = "manifest.json"


class Broken(Exception):
    """The first place where the archive is not what its manifest says."""


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _canonical(document: Any) -> str:
    """The product's one serialisation: sorted keys, no spaces, UTF-8 text."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _opened(source: Path) -> tuple[list[str], Callable[[str], bytes]]:
    """The archive's file names and a reader of each, from the ZIP or its unpacked folder."""
    if source.is_dir():
        names = sorted(
            path.relative_to(source).as_posix()
            for path in source.rglob("*")
            if path.is_file() and "__pycache__" not in path.parts
        )
        return names, lambda name: (source / name).read_bytes()
    archive = zipfile.ZipFile(source)
    names = [info.filename for info in archive.infolist() if not info.is_dir()]
    return names, archive.read


def _json(read: Callable[[str], bytes], name: str) -> Any:
    try:
        return json.loads(read(name).decode("utf-8"))
    except (KeyError, FileNotFoundError):
        raise Broken(f"{name}: missing") from None
    except (UnicodeDecodeError, ValueError):
        raise Broken(f"{name}: not JSON") from None


def _files_check(names: Iterable[str], read: Callable[[str], bytes], manifest: Any) -> None:
    """Every file the manifest lists is there with its SHA-256; nothing else is."""
    present = set(names)
    listed: dict[str, str] = manifest["files"]
    for name in sorted(listed):
        if name not in present:
            raise Broken(f"{name}: missing")
        found = _sha256(read(name))
        if found != listed[name]:
            raise Broken(f"{name}: its SHA-256 is {found}, the manifest says {listed[name]}")
    for name in sorted(present - set(listed) - {MANIFEST}):
        raise Broken(f"{name}: not in the manifest")


def _registers_check(read: Callable[[str], bytes], manifest: Any) -> int:
    """Each register is canonical JSON with its SHA-256; each signature signed that SHA-256.
    Returns how many signatures were checked."""
    signatures = 0
    for entry in manifest["registers"]:
        name = f"{entry['kind']} {entry['key']} v{entry['version']} ({entry['path']})"
        for path in (entry["path"], entry["signatures_path"]):
            if path not in manifest["files"]:
                raise Broken(f"{name}: {path} is not in the manifest's files")
        text = read(entry["path"])
        if _sha256(text) != entry["sha256"]:
            raise Broken(f"{name}: its content does not have its SHA-256 {entry['sha256']}")
        if _canonical(json.loads(text.decode("utf-8"))).encode("utf-8") != text:
            raise Broken(f"{name}: not in canonical JSON")
        for signature in _json(read, entry["signatures_path"])["signatures"]:
            if signature["signed_sha256"] != entry["sha256"]:
                raise Broken(f"{name}: {signature['signed_by']} signed another text")
            signatures += 1
    return signatures


def _chains_check(manifest: Any) -> None:
    """Each kind's chain, in the order the registers were stored: every register carries the
    SHA-256 of the one before it. Registers of other seasons inside the chain are listed by
    their hashes only (no path)."""
    inside = {(e["kind"], e["sha256"]) for e in manifest["registers"]}
    for kind, links in sorted(manifest["chains"].items()):
        seen = set()
        for index, link in enumerate(links):
            where = link["path"] or f"a register of another season ({link['sha256']})"
            if index and link["previous_sha256"] != links[index - 1]["sha256"]:
                raise Broken(
                    f"{kind} chain: {where} carries {link['previous_sha256'] or 'nothing'}, the "
                    f"register before it is {links[index - 1]['sha256']}: the chain breaks"
                )
            if link["path"]:
                seen.add(link["sha256"])
        missing = sorted(sha for k, sha in inside if k == kind and sha not in seen)
        if missing:
            raise Broken(f"{kind} chain: the register {missing[0]} is not in it")


def verify(source: Path) -> str:
    """The archive checked: a line saying so, or `Broken` at the first break."""
    names, read = _opened(source)
    manifest = _json(read, MANIFEST)
    if manifest.get("format") != FORMAT:
        raise Broken(f"{MANIFEST}: not an archive of the registers ({FORMAT})")
    _files_check(names, read, manifest)
    signatures = _registers_check(read, manifest)
    _chains_check(manifest)
    return (
        f"OK: season {manifest['season']}, {len(manifest['registers'])} registers and "
        f"{signatures} signatures; every SHA-256 and every chain holds. SHA-256 of the manifest: "
        f"{_sha256(read(MANIFEST))}"
    )


def main(argv: list[str]) -> int:
    if len(argv) > 2:
        print("usage: python3 verify.py [ARCHIVE.zip | FOLDER]", file=sys.stderr)
        return 2
    source = Path(argv[1]) if len(argv) == 2 else Path(__file__).resolve().parent
    try:
        print(verify(source))
    except Broken as broken:
        print(f"BROKEN: {broken}")
        return 1
    except (OSError, zipfile.BadZipFile, KeyError, TypeError, ValueError) as error:
        print(f"BROKEN: the archive cannot be read ({type(error).__name__}: {error})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
