"""docker-compose.yml, its Dockerfile and deploy/haproxy.cfg describe the services the platform runs on.

Docker is not run here; HAProxy's own check reads the config (CI installs Debian's haproxy).
"""

import ipaddress
import re
import shutil
import subprocess
from pathlib import Path

import dj_database_url
import pytest
import yaml

from conftest import require_service

ROOT = Path(__file__).resolve().parents[2]
APP_SERVICES = ("web1", "web2", "worker", "beat")
WEB_SERVICES = ("web1", "web2")
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def command_text(service: dict) -> str:
    command = service["command"]
    return " ".join(command) if isinstance(command, list) else command


def test_services_are_the_ones_the_platform_needs(compose):
    assert set(compose["services"]) == {
        "postgres",
        "redis",
        "migrate",
        "web1",
        "web2",
        "haproxy",
        "worker",
        "beat",
    }


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


def test_migrations_run_once_before_any_process_of_the_app(compose):
    migrate = compose["services"]["migrate"]
    assert command_text(migrate) == "python manage.py migrate --noinput"
    assert migrate["restart"] == "no"
    assert migrate["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    for name in APP_SERVICES:
        assert compose["services"][name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }


def test_two_web_processes_serve_asgi_with_uvicorn_behind_haproxy(compose):
    web1, web2 = (compose["services"][name] for name in WEB_SERVICES)
    assert web1 == web2  # the same image, command and environment
    assert command_text(web1) == "python -m uvicorn platform.asgi:application --host 0.0.0.0 --port 8000"
    assert "ports" not in web1  # reached through HAProxy only


def test_haproxy_runs_the_shipped_config_in_front_of_the_web_processes(compose):
    haproxy = compose["services"]["haproxy"]
    # The official image on Debian, at the version of Debian's package that CI checks the config with.
    assert haproxy["image"] == "haproxy:2.6-bookworm"
    assert "./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in haproxy["volumes"]
    assert haproxy["ports"] == ["8000:8000"]
    assert set(haproxy["depends_on"]) == set(WEB_SERVICES)


def test_the_app_believes_x_forwarded_for_from_haproxy_alone(compose):
    """TRUSTED_PROXIES names HAProxy's fixed address on the network, and nothing wider."""
    address = ipaddress.ip_address(compose["services"]["haproxy"]["networks"]["default"]["ipv4_address"])
    (subnet,) = (ipaddress.ip_network(c["subnet"]) for c in compose["networks"]["default"]["ipam"]["config"])
    assert address in subnet
    for name in APP_SERVICES:
        assert compose["services"][name]["environment"]["TRUSTED_PROXIES"] == str(address)
    assert "option forwardfor" in haproxy_sections()["defaults"]


def test_worker_and_beat_run_celery_from_the_project_app(compose):
    assert command_text(compose["services"]["worker"]).startswith(
        "python -m celery -A platform.celery_app worker"
    )
    assert command_text(compose["services"]["beat"]).startswith(
        "python -m celery -A platform.celery_app beat"
    )


def test_app_services_share_one_environment_and_wait_for_healthy_services(compose):
    environments = [compose["services"][name]["environment"] for name in APP_SERVICES]
    assert all(environment == environments[0] for environment in environments)
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
            "migrate": {"condition": "service_completed_successfully"},
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


# --- deploy/haproxy.cfg ---------------------------------------------------------------


def haproxy_sections() -> dict[str, list[str]]:
    """The config's sections ("defaults", "backend sockets" …), each as its lines without comments."""
    sections: dict[str, list[str]] = {}
    current = None
    for raw in HAPROXY_CFG.read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not line.startswith((" ", "\t")):
            current = sections.setdefault(line.strip(), [])
        else:
            current.append(" ".join(line.split()))
    return sections


def servers(lines: list[str]) -> dict[str, list[str]]:
    """A backend's ``server`` lines by name: the address (its compose default) and the options."""
    found = {}
    for line in lines:
        if line.startswith("server "):
            _, name, address, *options = line.split()
            default = re.fullmatch(r'"\$\{WEB\d-([^}]+)\}"', address)
            assert default, f"{name}: the address should be an environment variable with a default"
            found[name] = [default.group(1), *options]
    return found


def test_haproxy_sends_sockets_to_one_process_per_table_by_a_consistent_hash_of_the_path():
    sections = haproxy_sections()
    frontend = sections["frontend site"]
    assert 'bind "${HAPROXY_BIND-:8000}"' in frontend  # the port compose publishes
    assert "use_backend sockets if { path_beg /ws/ }" in frontend
    assert "default_backend pages" in frontend
    sockets = sections["backend sockets"]
    assert "balance uri path-only depth 3" in sockets
    assert "hash-type consistent" in sockets
    assert servers(sockets) == {
        "web1": ["web1:8000", "track", "pages/web1"],
        "web2": ["web2:8000", "track", "pages/web2"],
    }


def test_the_hash_covers_each_socket_path_up_to_its_table_id():
    """depth 3 hashes "/ws/<kind>/<id>": every socket route names its table in its third level."""
    from rooms.rounds.routing import websocket_urlpatterns as rounds
    from rooms.tables.routing import websocket_urlpatterns as tables

    for route in [*tables, *rounds]:
        levels = ("/" + str(route.pattern)).split("/")
        assert levels[1] == "ws" and levels[3] == "<int:table_id>", route.pattern


def test_haproxy_checks_each_process_and_its_database_on_the_health_path():
    from platform.health import PATH

    pages = haproxy_sections()["backend pages"]
    assert "option httpchk" in pages
    assert f"http-check send meth GET uri {PATH} ver HTTP/1.1 hdr Host localhost" in pages
    assert "http-check expect status 200" in pages
    (defaults,) = (line.split() for line in pages if line.startswith("default-server "))
    assert "check" in defaults
    assert servers(pages) == {"web1": ["web1:8000"], "web2": ["web2:8000"]}


def test_haproxy_keeps_idle_websockets_open_past_their_pings():
    defaults = haproxy_sections()["defaults"]
    (tunnel,) = (line.split()[-1] for line in defaults if line.startswith("timeout tunnel "))
    assert tunnel == "5m"  # the server pings every 20 s, the page every 25 s (a background tab: 60 s)


def test_haproxy_accepts_the_shipped_config():
    binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
    require_service("haproxy", Path(binary).exists(), "apt-get install haproxy (Debian's package)")
    check = subprocess.run(
        [binary, "-c", "-f", str(HAPROXY_CFG)], capture_output=True, text=True, check=False
    )
    assert check.returncode == 0, check.stdout + check.stderr
