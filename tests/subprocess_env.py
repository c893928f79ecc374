"""Run the project's Python in a subprocess with a controlled environment."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """PATH and HOME only (no DATABASE_URL, DJANGO_*, CELERY_* from the caller), plus `extra`."""
    env = {
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": os.environ.get("HOME", "/tmp"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.update(extra or {})
    return env


def run(
    args: list[str], extra_env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args,
        cwd=ROOT,
        env=clean_env(extra_env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def python(
    code: str, extra_env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return run([sys.executable, "-c", code], extra_env)
