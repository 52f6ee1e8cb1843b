"""Production settings pass Django's deployment checklist with no warning."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def production_environment() -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="platform.settings",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="cards.example.com",
        CSRF_TRUSTED_ORIGINS="https://cards.example.com",
    )
    return env


def test_check_deploy_reports_no_issues_with_production_settings():
    result = run_check(production_environment())
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def run_check(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_does_flag_the_development_defaults():
    # The check is real: with the embedded defaults (DEBUG on) it reports issues.
    env = production_environment()
    for key in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"):
        env.pop(key)
    result = run_check(env)
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr  # DEBUG is on


def test_production_refuses_to_start_on_the_development_secret_key():
    env = production_environment()
    env.pop("SECRET_KEY")
    result = run_check(env)
    assert result.returncode != 0
    assert "DEBUG is off: set SECRET_KEY to a long random string" in result.stderr
