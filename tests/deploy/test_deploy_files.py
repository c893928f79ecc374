"""What can be checked of deploy/ without deploying: the files parse and point at real things."""

from __future__ import annotations

import configparser
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.subprocess_env import ROOT, run

DEPLOY = ROOT / "deploy"
PROD_ENV = {
    "DJANGO_SECRET_KEY": "deploy-test-secret-key-" + "y" * 40,
    "DJANGO_ALLOWED_HOSTS": "casino.example.org",
}


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((DEPLOY / "docker-compose.yml").read_text())
    return loaded


def _check_command(argv: list[str]) -> None:
    """A command the images run exists in this project."""
    program = Path(argv[0]).name
    if program == "gunicorn":
        assert argv[argv.index("-c") + 1] == "deploy/gunicorn.conf.py"
        assert (ROOT / "deploy/gunicorn.conf.py").is_file()
        assert argv[-1] == "casino.wsgi:application"
        assert (ROOT / "casino/wsgi.py").is_file()
    elif program == "celery":
        assert argv[1:3] == ["-A", "casino"]
        assert argv[3] in {"worker", "beat"}
        assert (ROOT / "casino/celery.py").is_file()
    elif program == "python":
        assert argv[1] == "manage.py"
        assert argv[2] in {"migrate", "collectstatic", "db_grant_app_role"}
    elif program == "sh" and argv[1] == "-c":
        for part in argv[2].split("&&"):
            _check_command(shlex.split(part))
    else:
        pytest.fail(f"unexpected command {argv}")


def test_gunicorn_accepts_the_config() -> None:
    result = run(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "--check-config",
            "-c",
            "deploy/gunicorn.conf.py",
            "casino.wsgi:application",
        ],
        PROD_ENV,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_has_every_service_and_runs_real_commands() -> None:
    compose = _compose()
    services = compose["services"]
    assert {"postgres", "redis", "web", "worker", "beat", "nginx"} <= set(services)
    for name in ("migrate", "web", "worker", "beat"):
        _check_command(services[name]["command"])
        assert services[name]["build"]["dockerfile"] == "deploy/Dockerfile"
    for volume in services["nginx"]["volumes"]:
        source = volume.split(":")[0]
        if source.startswith("./") and source != "./certs":
            assert (DEPLOY / source).exists(), source


def test_compose_runs_the_application_as_its_role_and_migrate_as_the_owner() -> None:
    services = _compose()["services"]
    for name in ("web", "worker", "beat"):
        assert services[name]["environment"]["DATABASE_URL"].startswith("postgres://casino_app:")
    migrate = services["migrate"]
    assert migrate["environment"]["DATABASE_URL"].startswith("postgres://casino_owner:")
    assert migrate["command"][-1].endswith("db_grant_app_role casino_app")
    roles = (DEPLOY / "postgres/roles.sh").read_text()
    assert "CREATE ROLE casino_app LOGIN NOSUPERUSER NOBYPASSRLS" in roles
    assert "OWNER casino_owner" in roles
    assert any("postgres/roles.sh" in volume for volume in services["postgres"]["volumes"])


def test_the_dockerfile_installs_the_pins_and_runs_gunicorn() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "FROM python:3.11" in dockerfile
    assert "pip install -r requirements.txt" in dockerfile
    cmd = re.search(r"^CMD (\[.*\])$", dockerfile, re.MULTILINE)
    assert cmd is not None
    _check_command(yaml.safe_load(cmd.group(1)))


@pytest.mark.parametrize("unit", ["casino-web", "casino-worker", "casino-beat"])
def test_systemd_units_start_real_entry_points(unit: str) -> None:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read(DEPLOY / "systemd" / f"{unit}.service")
    exec_start = shlex.split(parser["Service"]["ExecStart"])
    assert exec_start[0].startswith("/srv/casino/.venv/bin/")
    _check_command(exec_start)
    assert parser["Install"]["WantedBy"] == "multi-user.target"


def test_env_example_names_the_settings_the_project_reads() -> None:
    settings_source = (ROOT / "casino/settings.py").read_text()
    names = [
        line.split("=", 1)[0]
        for line in (DEPLOY / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    for name in names:
        if name.startswith(("DJANGO_", "DATABASE_", "CELERY_")):
            assert f'"{name}"' in settings_source, name


def test_nginx_site_serves_static_files_and_proxies_over_tls() -> None:
    site = (DEPLOY / "nginx/casino.conf").read_text()
    assert "listen 443 ssl" in site
    assert "location /static/" in site
    assert "proxy_set_header X-Forwarded-Proto $scheme" in site
    assert "include /etc/nginx/casino-upstream.conf" in site
