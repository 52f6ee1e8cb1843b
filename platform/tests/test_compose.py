"""docker-compose.yml and its Dockerfile describe the services the platform runs on (Docker is not run here)."""

import re
from pathlib import Path

import dj_database_url
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web", "worker", "beat")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def command_text(service: dict) -> str:
    command = service["command"]
    return " ".join(command) if isinstance(command, list) else command


def test_services_are_the_five_the_platform_needs(compose):
    assert set(compose["services"]) == {"postgres", "redis", "web", "worker", "beat"}


def test_postgres_has_a_healthcheck_and_keeps_its_data_in_a_named_volume(compose):
    postgres = compose["services"]["postgres"]
    assert postgres["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    volume, mount = postgres["volumes"][0].split(":", 1)
    assert mount == "/var/lib/postgresql/data"
    assert volume in compose["volumes"]


def test_redis_has_a_healthcheck(compose):
    redis = compose["services"]["redis"]
    assert redis["image"].startswith("redis:")
    assert redis["healthcheck"]["test"][-2:] == ["redis-cli", "ping"]


def test_web_migrates_then_serves_asgi_with_uvicorn(compose):
    command = command_text(compose["services"]["web"])
    migrate = command.index("python manage.py migrate --noinput")
    serve = command.index("python -m uvicorn platform.asgi:application --host 0.0.0.0 --port 8000")
    assert migrate < serve
    assert re.search(r"migrate --noinput\s*&&", command), "the server must not start when migrate fails"
    assert "8000:8000" in compose["services"]["web"]["ports"]


def test_worker_and_beat_run_celery_from_the_project_app(compose):
    assert command_text(compose["services"]["worker"]).startswith(
        "python -m celery -A platform.celery_app worker"
    )
    assert command_text(compose["services"]["beat"]).startswith(
        "python -m celery -A platform.celery_app beat"
    )


def test_app_services_share_one_environment_and_wait_for_healthy_services(compose):
    environments = [compose["services"][name]["environment"] for name in APP_SERVICES]
    assert environments[0] == environments[1] == environments[2]
    env = environments[0]
    for key in (
        "DATABASE_URL",
        "REDIS_URL",
        "SECRET_KEY",
        "DEBUG",
        "ALLOWED_HOSTS",
        "TABLE_TIMERS",
    ):
        assert key in env, key
    assert env["DEBUG"] == "0"
    assert env["TABLE_TIMERS"] == "shown"
    database = dj_database_url.parse(env["DATABASE_URL"].replace("${POSTGRES_PASSWORD:-cardroom}", "pw"))
    assert (database["ENGINE"], database["HOST"]) == ("django.db.backends.postgresql", "postgres")
    assert env["REDIS_URL"].startswith("redis://redis:6379/")
    # No default secret: compose refuses to start without one.
    assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", env["SECRET_KEY"])
    for name in APP_SERVICES:
        service = compose["services"][name]
        assert service["build"] == "."
        assert service["depends_on"] == {
            "postgres": {"condition": "service_healthy"},
            "redis": {"condition": "service_healthy"},
        }


def test_the_environment_is_written_once_through_an_anchor():
    text = (ROOT / "docker-compose.yml").read_text()
    anchor = re.search(r"^x-[\w-]+: &([\w-]+)", text, re.MULTILINE)
    assert anchor, "expected an x- extension field with an anchor"
    assert text.count("DATABASE_URL:") == 1


def test_the_dockerfile_builds_the_image_the_services_use():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim$", dockerfile, re.MULTILINE)
    assert "pip install -r requirements.txt" in dockerfile
    assert "manage.py collectstatic --noinput" in dockerfile
    assert re.search(r"^USER (?!root)\w+", dockerfile, re.MULTILINE), "the services should not run as root"
