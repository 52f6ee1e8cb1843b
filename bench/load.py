"""Load benchmark: bot clients play over real WebSockets against the ASGI server(s), PostgreSQL, Redis and Celery.

    .venv/bin/python bench/load.py [--clients 200] [--seconds 60] [--servers 1] [--game doudizhu]
        [--seats 3] [--tables 1] [--ws-deflate on|off] [--proxy none|haproxy]

What it does, in order (bench/README.md has the method and the latest figures):

1. Prepares the database named by ``DATABASE_URL`` (default: a bench database,
   ``cardroom_bench``, created if missing): migrate, ``VACUUM ANALYZE``, catalogue_sync, a room
   tier ``bench-load`` of the game with bots disabled (every seat is a bench
   client; a house-banked game such as 百家乐 gets ``--tables`` tiers, one
   open table each, without a table limit), and ``--clients`` users
   ``bench-00000`` … with coins (sign-up grant, topped up when low). Open
   hands and seats left by an earlier run are cancelled (refunded) and
   vacated through the table services.
2. Starts ``--servers`` uvicorn processes (``platform.asgi:application``,
   ``--lifespan off``) on 127.0.0.1 from ``--port``, one Celery worker and
   Celery beat, all on ``REDIS_URL`` (channel layer and broker), with the
   table timers left to beat as in production. With ``--proxy haproxy``
   (two servers), HAProxy (Debian's package) runs deploy/haproxy.cfg on
   ``--port`` + 2 in front of them, as docker-compose.yml does.
3. Runs the clients in this process (asyncio, the ``websockets`` package):
   each signs in through the log-in form (CSRF cookie, POST), presses quick
   start on the game page's form, opens ``/ws/tables/<id>/`` with its session
   cookie and an Origin header, follows ``seq`` as static/js/socket.js does
   (resync on a gap), and on its turn sends a random action among those its
   ``state`` offers (the view's ``choices``; in 斗地主's play phase pass or
   the server's 提示 ``hint``, as the browser's buttons do), falls back to
   pass (or the hint) after an ``error``, and presses ready between hands,
   never faster than ``SOCKET_RATE`` messages a second (the socket's limit is 20).
   An act is answered by the first later ``state`` that shows it applied
   (``act_answered``). In 百家乐 each presses 进入 instead, opens
   ``/ws/rounds/<id>/`` and bets a random chip on a random open area while
   the round takes bets, one bet in flight (``RoundBot``). With two servers
   each table's players are split between them (``--split``); with
   ``--proxy haproxy`` every client goes through HAProxy, whose hash of the
   socket's path puts each table on one server (the report counts the
   tables each server took, from the ``X-Served-By`` header).
4. Measures over ``--seconds`` after a warm-up and prints the report, then
   runs ``manage.py ledger_check``. Every process it started is stopped at the
   end, on an error and on Ctrl-C.
"""

# ruff: noqa: E402 - the path is set before the imports, see below
from __future__ import annotations

import sys
from pathlib import Path

# The project's ``platform`` package must shadow the standard library's before anything imports it.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import argparse
import asyncio
import http.client
import json
import os
import random
import re
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.parse
import uuid
from collections import Counter
from dataclasses import dataclass, field

import orjson

DEFAULT_DATABASE_URL = "postgres://root@127.0.0.1:5432/cardroom_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
SETTINGS = "bench.load_settings"
PASSWORD = "bench-load-password"
TIER_CODE = "bench-load"
MINIMUM = 100  # the bench tiers' entry minimum (coins)
USER_PREFIX = "bench-"
HOST = "127.0.0.1"
HAPROXY_CONFIG = ROOT / "deploy" / "haproxy.cfg"  # its two servers: web1, web2
PASS = {"type": "pass"}


# --- processes ----------------------------------------------------------------


class Processes:
    """Every process the benchmark starts, each in its own process group, stopped together."""

    def __init__(self, env: dict, logdir: Path) -> None:
        self.env = env
        self.logdir = logdir
        self.procs: list[tuple[str, subprocess.Popen]] = []
        url = urllib.parse.urlparse(env.get("DATABASE_URL", ""))
        self.database = url.path.lstrip("/") if url.scheme.startswith("postgres") else None

    def start(self, name: str, args: list[str], *, program: str = sys.executable, env: dict | None = None):
        """Start ``program`` (Python by default) with ``args`` in the bench's environment (or ``env``)."""
        log = open(self.logdir / f"{name}.log", "wb")  # noqa: SIM115 - closed with the process
        proc = subprocess.Popen(
            [program, *args],
            cwd=ROOT,
            env=env or self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches us only; we stop the group ourselves
        )
        self.procs.append((name, proc))
        return proc

    def start_uvicorn(self, name: str, app: str, port: int, *options: str) -> subprocess.Popen:
        """Start uvicorn serving ``app`` on ``HOST:port`` (no lifespan, warnings only) with ``options``."""
        return self.start(
            name,
            ["-m", "uvicorn", app, "--host", HOST, "--port", str(port), "--lifespan", "off",
             "--log-level", "warning", *options],
        )  # fmt: skip

    def start_haproxy(self, port: int, server_ports: list[int]) -> subprocess.Popen:
        """Start HAProxy on ``HOST:port`` with the shipped config, its servers ``web1``, ``web2`` on these ports."""
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        if not Path(binary).exists():
            raise RuntimeError("--proxy haproxy needs HAProxy (Debian's package: apt-get install haproxy)")
        addresses = {f"WEB{i + 1}": f"{HOST}:{p}" for i, p in enumerate(server_ports)}
        env = {**self.env, "HAPROXY_BIND": f"{HOST}:{port}", **addresses}
        return self.start("haproxy", ["-db", "-f", str(HAPROXY_CONFIG)], program=binary, env=env)

    def check_alive(self) -> None:
        for name, proc in self.procs:
            if proc.poll() is not None:
                raise RuntimeError(
                    f"{name} exited with {proc.returncode}; see {self.logdir / (name + '.log')}"
                )

    def cpu_seconds(self) -> dict:
        """CPU time (user + system) so far of each started process and its children, by name.

        With PostgreSQL on this host, also each of its backends connected to the
        bench's database, keyed ``("postgres", pid)``: backends come and go, so
        ``CpuWindow`` adds up each one's growth between readings.
        """
        tick = os.sysconf("SC_CLK_TCK")
        groups = {proc.pid: name for name, proc in self.procs}
        backend_title = f" {self.database} " if self.database else None
        used: Counter = Counter()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                comm, stat = (entry / "stat").read_text().rsplit(")", 1)
                fields = stat.split()
                pgrp = int(fields[2])
                if pgrp in groups:
                    used[groups[pgrp]] += (int(fields[11]) + int(fields[12])) / tick
                elif backend_title and comm.endswith("(postgres"):
                    title = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                    if title.startswith("postgres: ") and backend_title in title:
                        used["postgres", int(entry.name)] += (int(fields[11]) + int(fields[12])) / tick
            except OSError:
                continue
        return dict(used)

    def start_celery(self, queue: str, workers: int = 1) -> str:
        """Start a Celery worker on ``queue`` (``workers`` processes) and beat; return the worker's name."""
        name = f"{queue}@localhost"
        self.start(
            "worker",
            ["-m", "celery", "-A", "platform.celery_app", "worker", "-Q", queue, "-n", name,
             "-c", str(workers), "--without-mingle", "--without-gossip", "-l", "warning"],
        )  # fmt: skip
        self.start(
            "beat",
            ["-m", "celery", "-A", "platform.celery_app", "beat", "-l", "warning",
             "-s", str(self.logdir / "celerybeat-schedule")],
        )  # fmt: skip
        return name

    def stop(self) -> None:
        for _name, proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        deadline = time.monotonic() + 10
        for _name, proc in self.procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(5)
        self.procs.clear()


def manage(env: dict, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=check
    )


# --- the database ---------------------------------------------------------------


def stack_env(kind: str, default_database_url: str = DEFAULT_DATABASE_URL) -> dict:
    """The environment of the stack a bench starts: its database, Redis, a Celery queue of its own.

    ``DATABASE_URL`` and ``REDIS_URL`` come from this process's environment, else the
    defaults; the queue is ``bench-<kind>-<pid>``, so two benches never share a worker.
    """
    return {
        **os.environ,
        "DATABASE_URL": os.environ.get("DATABASE_URL") or default_database_url,
        "REDIS_URL": os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL,
        "DJANGO_SETTINGS_MODULE": SETTINGS,
        "DB_CONN_MAX_AGE": os.environ.get("DB_CONN_MAX_AGE", "60"),  # as docker-compose.yml runs it
        "TABLE_TIMERS": "shown",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_QUEUE": f"bench-{kind}-{os.getpid()}",
        "PYTHONPATH": str(ROOT),
    }


def stack_database(env: dict) -> None:
    """Create the bench's database if missing, migrate it, vacuum it, sync the catalogue and set Django up here."""
    database_ensure(env["DATABASE_URL"])
    manage(env, "migrate", "--noinput")
    database_vacuum(env["DATABASE_URL"])
    manage(env, "catalogue_sync")
    django_setup(env)


def stack_banner(env: dict, logdir: Path) -> str:
    database = urllib.parse.urlparse(env["DATABASE_URL"]).path.lstrip("/")
    return f"database {database}, redis {env['REDIS_URL']}, logs {logdir}"


def database_ensure(url: str) -> None:
    """Create the PostgreSQL database named in ``url`` if it does not exist."""
    import psycopg
    from psycopg import sql

    parts = urllib.parse.urlparse(url)
    name = parts.path.lstrip("/")
    admin = parts._replace(path="/postgres").geturl()
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"created database {name}")


def database_vacuum(url: str) -> None:
    """``VACUUM ANALYZE`` the database named in ``url``, so that every run starts from the same footing.

    Autovacuum may be off (it is on this project's CI machines): every move leaves a
    dead hand row and index entries, and without a vacuum PostgreSQL's CPU per action
    drifted upward from one run to the next on the same code.
    """
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")


def django_setup(env: dict) -> None:
    os.environ.update(env)
    import django

    django.setup()


def banker_game(game: str) -> bool:
    """Whether ``game`` is house-banked (百家乐): rounds at one open table per tier, no seats."""
    import games

    return games.REGISTRY[game].family == "banker"


def data_prepare(*, game: str, clients: int, seats: int, tables: int = 1) -> tuple[list[int], list[str]]:
    """Create (or reset) the bench tier(s) and the users; return the tier ids and the usernames.

    A seated game gets one tier (quick start makes its tables). A banker game
    has one open table per tier, so ``tables`` tiers are made (``bench-load``,
    ``bench-load-2`` …), with the game's default options but no table limit
    (限额: the bench's bettors together would reach it) and no rake.
    """
    from platform.accounts.services import user_create

    from django.contrib.auth import get_user_model

    from rooms.models import Game, RoomTier
    from rooms.tables import services
    from rooms.tables.errors import TableError
    from rooms.tables.models import Hand, Seat
    from wallets.selectors import wallet_balance
    from wallets.services import wallet_grant

    game_row = Game.objects.get(slug=game)
    banker = banker_game(game)
    tier_ids = []
    for i in range(tables if banker else 1):
        if banker:
            options, tier_seats, rake = {"table_limit": None}, None, 0
        else:
            options, tier_seats, rake = ({"variant": "classic"} if game == "doudizhu" else {}), seats, 500
        tier, _ = RoomTier.objects.update_or_create(
            game=game_row,
            code=TIER_CODE if i == 0 else f"{TIER_CODE}-{i + 1}",
            defaults={
                "name": "Load bench" if i == 0 else f"Load bench {i + 1}",
                "base_stake": 1,
                "room_factor": 1,
                "minimum_rule": RoomTier.MinimumRule.FIXED,
                "fixed_minimum": MINIMUM,
                "maximum_coins": None,
                "rake_bps": rake,
                "options": options,
                "seats": tier_seats,
                "bots_enabled": False,
                "is_open": True,
                "sort_order": 99,
            },
        )
        tier_ids.append(tier.pk)
    # Leftovers of an earlier run: refund open hands, stand the bench users up.
    open_hands = Hand.objects.filter(
        table__seats__user__username__startswith=USER_PREFIX,
        status__in=[Hand.Status.PLAYING, Hand.Status.FINISHED],
    ).distinct()
    for hand_id in list(open_hands.values_list("pk", flat=True)):
        services.hand_cancel(hand_id=hand_id, reason="load bench reset")
    for seat in list(Seat.objects.filter(user__username__startswith=USER_PREFIX).select_related("user")):
        try:
            services.table_leave(table_id=seat.table_id, user=seat.user)
        except TableError:
            pass
    # A 百家乐 bettor stakes many bets a round; a seated player carries its wallet into each hand.
    coins = 100_000 if banker else 10_000
    User = get_user_model()
    names = [f"{USER_PREFIX}{i:05d}" for i in range(clients)]
    existing = {u.username: u for u in User.objects.filter(username__in=names)}
    for name in names:
        user = existing.get(name) or user_create(username=name, password=PASSWORD)
        balance = wallet_balance(user=user)
        if balance < coins // 2:
            wallet_grant(
                user=user,
                amount=coins - balance,
                key=f"bench-topup:{uuid.uuid4().hex}",
                reason="load bench top-up",
            )
    return tier_ids, names


def db_window(*, tier_ids: list[int], start, end) -> dict:
    """What the database recorded between ``start`` and ``end``: actions (by whom) and hands settled."""
    from django.db.models import Count, Q

    from rooms.tables.models import Hand, HandAction

    actions = HandAction.objects.filter(
        hand__table__tier_id__in=tier_ids, created_at__gte=start, created_at__lt=end
    )
    counts = actions.aggregate(
        players=Count("pk", filter=Q(auto=False)), auto=Count("pk", filter=Q(auto=True))
    )
    hands = Hand.objects.filter(table__tier_id__in=tier_ids)
    settled = hands.filter(status=Hand.Status.SETTLED, settled_at__gte=start, settled_at__lt=end).count()
    cancelled = hands.filter(
        status=Hand.Status.CANCELLED, finished_at__gte=start, finished_at__lt=end
    ).count()
    tables = actions.values("hand__table_id").distinct().count()
    return {**counts, "settled": settled, "cancelled": cancelled, "tables": tables}


def db_window_rounds(*, tier_ids: list[int], start, end) -> dict:
    """What the database recorded between ``start`` and ``end`` at banker tables: bets, rounds, betting time.

    ``betting_seconds`` adds up, over the bench tables, the part of the window
    in which a round took bets (from its opening until it was dealt).
    """
    from datetime import timedelta

    from django.db.models import Count, Sum

    from rooms.rounds.models import Bet, Round

    bets = Bet.objects.filter(round__table__tier_id__in=tier_ids, created_at__gte=start, created_at__lt=end)
    placed = bets.aggregate(n=Count("pk"), coins=Sum("amount"))
    rounds = Round.objects.filter(table__tier_id__in=tier_ids)
    settled = rounds.filter(status=Round.Status.SETTLED, settled_at__gte=start, settled_at__lt=end)
    refunded = rounds.filter(status=Round.Status.REFUNDED, settled_at__gte=start, settled_at__lt=end)
    betting = 0.0
    recent = rounds.filter(opened_at__lt=end, opened_at__gte=start - timedelta(minutes=5))
    for opened, dealt, phase, deadline in recent.values_list("opened_at", "dealt_at", "phase", "deadline"):
        closes = dealt or (deadline if phase == Round.Phase.BETTING else None) or end
        betting += max(0.0, (min(closes, end) - max(opened, start)).total_seconds())
    return {
        "bets": placed["n"],
        "coins": placed["coins"] or 0,
        "settled": settled.count(),
        "settled_with_bets": settled.filter(staked__gt=0).count(),
        "refunded": refunded.count(),
        "betting_seconds": betting,
        "tables": bets.values("round__table_id").distinct().count(),
    }


# --- one browser ---------------------------------------------------------------


class Browser:
    """The HTTP side of one client: a cookie jar, the log-in form and the quick-start form."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.origin = f"http://{HOST}:{port}"
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None) -> tuple[int, dict, str]:
        conn = http.client.HTTPConnection(HOST, self.port, timeout=120)
        headers = {"Host": f"{HOST}:{self.port}", "Accept-Language": "zh-CN,zh;q=0.9"}
        if self.cookies:
            headers["Cookie"] = self.cookie_header()
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = self.origin
            headers["Referer"] = self.origin + path
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            for value in response.headers.get_all("Set-Cookie") or []:
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
            return response.status, {k.lower(): v for k, v in response.headers.items()}, text
        finally:
            conn.close()

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    @staticmethod
    def csrf_token(page: str) -> str:
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if match is None:
            raise RuntimeError("no CSRF token in the page")
        return match.group(1)

    def sign_in(self, username: str) -> None:
        status, _, page = self.request("GET", "/accounts/login/")
        if status != 200:
            raise RuntimeError(f"log-in page: HTTP {status}")
        form = {"csrfmiddlewaretoken": self.csrf_token(page), "username": username, "password": PASSWORD}
        status, _, _ = self.request("POST", "/accounts/login/", form)
        if status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"log-in of {username} failed: HTTP {status}")

    def quick_start(self, game: str, tier_id: int) -> int:
        """Press 快速开始 on the game page; return the table id it redirects to."""
        status, _, page = self.request("GET", f"/games/{game}/")
        if status != 200:
            raise RuntimeError(f"game page: HTTP {status}")
        path = f"/tables/quick-start/{tier_id}/"
        status, headers, _ = self.request("POST", path, {"csrfmiddlewaretoken": self.csrf_token(page)})
        match = re.search(r"/tables/(\d+)/", headers.get("location", ""))
        if status != 302 or match is None:
            raise RuntimeError(f"quick start: HTTP {status} to {headers.get('location')}")
        return int(match.group(1))

    def enter_round(self, game: str, tier_id: int) -> int:
        """Press 进入 on the game page (a banker tier); return the table id of the round page it leads to."""
        status, _, page = self.request("GET", f"/games/{game}/")
        if status != 200:
            raise RuntimeError(f"game page: HTTP {status}")
        path = f"/rounds/enter/{tier_id}/"
        status, headers, _ = self.request("POST", path, {"csrfmiddlewaretoken": self.csrf_token(page)})
        match = re.search(r"/rounds/(\d+)/", headers.get("location", ""))
        if status != 302 or match is None:
            raise RuntimeError(f"enter: HTTP {status} to {headers.get('location')}")
        return int(match.group(1))


# --- the bot clients -----------------------------------------------------------


@dataclass
class Stats:
    measuring: bool = False
    sent: int = 0
    accepted: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    errors_total: Counter = field(default_factory=Counter)
    gaps: int = 0
    decreasing: int = 0
    results: int = 0
    cancelled: int = 0
    moved: int = 0
    disconnects: int = 0
    readies: int = 0
    served: dict = field(default_factory=dict)  # table id -> the servers that took its sockets (HAProxy)
    unanswered: int = 0  # banker bets whose answer never came (dropped after BET_ANSWER_WAIT)


def served_by(stats: Stats, table_id: int, ws) -> None:
    """Note the server that took a socket of the table (HAProxy's ``X-Served-By``; none without it)."""
    server = ws.response.headers.get("X-Served-By")
    if server:
        stats.served.setdefault(table_id, set()).add(server)


def turn_mark(state: dict | None) -> tuple:
    """The turn a ``state`` shows: its hand, the hand's status and the actors' deadline."""
    hand = (state or {}).get("hand") or {}
    return (hand.get("id"), hand.get("status"), hand.get("deadline"))


def act_answered(state: dict, mark: tuple, seat: int) -> bool:
    """Whether ``state`` (a later one than the act was sent on) shows the act applied.

    ``mark`` is ``turn_mark`` of the state the act was sent on, ``seat`` the
    actor's own. The act is answered when the hand, its status or the actors'
    deadline changed, or when ``seat`` is no longer among the actors. Another
    seat leaving the actors is no answer: in 必下德州's one simultaneous
    countdown every undecided seat acts at once, the round's deadline never
    moves, and another seat's bet arrives while this seat's act is still on its
    way. A lone actor's turn gets a fresh deadline with every action recorded,
    so 炸金花's 看牌 (look), which keeps the turn, is answered by its new
    deadline; 斗地主's bids, 抢地主, 加倍 and plays hand the turn on. A state
    that only another player's presence or readiness moved on (same hand,
    deadline, and this seat still to act) is no answer either.
    """
    if turn_mark(state) != mark:
        return True
    hand = state.get("hand") or {}
    return seat not in (hand.get("actors") or ())


async def connection_failed(stats: Stats, stop: asyncio.Event, exc: Exception) -> None:
    """Count a socket that would not open or broke, then wait a moment before the caller reconnects.

    A handshake the server refused (an HTTP status) is the server's fault and counts as an
    error; a connection that closed, failed or timed out counts as a disconnect.
    """
    from websockets.exceptions import InvalidStatus

    if isinstance(exc, InvalidStatus):
        code = f"handshake_http_{exc.response.status_code}"
        stats.errors_total[code] += 1
        if stats.measuring:
            stats.errors[code] += 1
    elif not stop.is_set():
        stats.disconnects += 1
    if not stop.is_set():
        await asyncio.sleep(0.5)


def browser_choice(game: str, hand: dict, rng) -> dict:
    """A random action among those the browser offers for this state.

    The view's ``choices`` (bids, 抢地主, 加倍, pass, stakes); in 斗地主's play
    phase pass (when allowed) or the server's 提示 ``hint``, since the browser
    computes no plays itself; the hint, or pass, when nothing else is offered.
    """
    view = hand.get("view") or {}
    hint = hand.get("hint")
    choices = [c for c in view.get("choices") or [] if isinstance(c, dict)]
    if game == "doudizhu" and view.get("phase") == "playing":
        options = []
        if view.get("can_pass") or any(c.get("type") == "pass" for c in choices):
            options.append(dict(PASS))
        if view.get("can_play") and hint and hint.get("type") == "play":
            options.append(hint)
    else:
        options = choices
    return rng.choice(options or [hint or dict(PASS)])


# A table client's own pace: the socket refuses a message beyond 20 a second (a token bucket of
# 20, rooms/sockets.py RATE_PER_SECOND) unread and without its ``ref``, so a bot that
# acted faster (a quick hand on a quiet host: ~40 acts a second a seat) never heard its act
# answered and its table stopped. 15 a second with bursts of 5 leaves room for frames bunching
# on their way; no player clicks faster.
SOCKET_RATE = 15.0
SOCKET_BURST = 5.0


class Bot:
    """One player: a socket to its table, the seq rule of static/js/socket.js, random legal play."""

    def __init__(
        self, *, name: str, game: str, browser: Browser, table_id: int, stats: Stats, rng, think: float = 0.0
    ) -> None:
        self.name = name
        self.game = game
        self.think = think  # mean seconds a player thinks before acting on its turn (``--think-ms``)
        self.thinking: asyncio.TimerHandle | None = None
        self.browser = browser
        self.table_id = table_id
        self.stats = stats
        self.rng = rng
        self.ws = None
        self.seq: int | None = None
        self.seq_table = table_id  # the table whose events self.seq counts
        self.state: dict | None = None
        self.act_seq = 0
        # act seq, table seq, sent at, measured, the turn it acted on (``turn_mark``) and the seat
        self.pending: tuple[int, int, float, bool, tuple, int] | None = None
        self.acted_at: int | None = None  # the table seq we last acted on
        self.fallback_at: int | None = None
        self.ready_sent = False
        self.connected = asyncio.Event()
        self.tokens = SOCKET_BURST
        self.refilled = time.monotonic()
        self.tasks: set[asyncio.Task] = set()  # acts after a think time, kept until done

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        while not stop.is_set():
            url = f"ws://{HOST}:{self.browser.port}/ws/tables/{self.table_id}/"
            table = self.table_id
            try:
                async with connect(
                    url,
                    origin=self.browser.origin,
                    additional_headers={"Cookie": self.browser.cookie_header()},
                    open_timeout=60,
                    max_size=2**20,
                ) as ws:
                    self.ws = ws
                    served_by(self.stats, table, ws)
                    self.act_seq = 0
                    self.pending = None
                    if self.seq_table != table:
                        # A new table (after ``moved``) numbers its events from its own seq, as the
                        # browser's new page does: keeping the old table's seq dropped every state of
                        # the new table as stale until its seq overtook the old one's, so the bot never
                        # acted and the server played for it (托管) while it was connected.
                        self.seq_table = table
                        self.seq = None
                        self.state = None
                        self.acted_at = self.fallback_at = None
                        self.ready_sent = False
                    self.connected.set()
                    await self.send({"type": "resync"})  # as the browser does on open
                    # One reading task per connection, cancelled when the run stops: a task and a
                    # wait per received frame cost the client more CPU than parsing the frame.
                    reader = asyncio.ensure_future(self.read(ws, table))
                    stopper = asyncio.ensure_future(stop.wait())
                    await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                    stopper.cancel()
                    if reader.done():
                        reader.result()  # a closed socket raises here, as ``recv`` did
                    else:
                        reader.cancel()
            except (InvalidStatus, TimeoutError, ConnectionClosed, OSError) as exc:
                await connection_failed(self.stats, stop, exc)
            finally:
                self.ws = None

    async def read(self, ws, table: int) -> None:
        """Handle every frame of this socket in order, until the bot is moved to another table."""
        loads = orjson.loads  # a text frame (``recv`` gives str); stricter than json, and 3-4x faster
        while self.table_id == table:
            await self.receive(loads(await ws.recv()))

    async def pace(self) -> None:
        """Wait, if need be, until this client may send another message (``SOCKET_RATE``)."""
        now = time.monotonic()
        self.tokens = min(SOCKET_BURST, self.tokens + (now - self.refilled) * SOCKET_RATE)
        self.refilled = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / SOCKET_RATE)
            self.tokens, self.refilled = 1.0, time.monotonic()
        self.tokens -= 1

    async def send(self, message: dict, *, paced: bool = False) -> None:
        """Send ``message``, first waiting for the client's pace unless the caller did (``paced``)."""
        if not paced:
            await self.pace()
        if self.ws is not None:
            await self.ws.send(orjson.dumps(message).decode())  # str: a text frame, as the browser sends

    async def receive(self, msg: dict) -> None:
        kind = msg.get("type")
        seq = msg.get("seq")
        if kind in ("state", "result") and isinstance(seq, int):
            last = self.seq
            if last is not None and seq < last:
                self.stats.decreasing += self.stats.measuring
            if kind == "state" and last is not None and seq <= last:
                return
            if kind == "result" and last is not None and seq < last:
                return
            if last is not None and seq > last + 1:
                self.stats.gaps += self.stats.measuring
                await self.send({"type": "resync"})
            self.seq = seq if last is None else max(last, seq)
        if kind == "state":
            self.state = msg
            # A later state answers the act only once it shows the act applied (``act_answered``):
            # taking another seat's move or presence for the answer made the bot act a second
            # time on the same turn, refused once the first act landed.
            if (
                self.pending is not None
                and seq > self.pending[1]
                and act_answered(msg, self.pending[4], self.pending[5])
            ):
                _ref, _at, sent, measured, _mark, _seat = self.pending
                if measured and self.stats.measuring:
                    self.stats.accepted += 1
                    self.stats.latencies.append(time.perf_counter() - sent)
                self.pending = None
            await self.maybe_act()
        elif kind == "error":
            code = msg.get("code", "?")
            self.stats.errors_total[code] += 1
            if self.stats.measuring:
                self.stats.errors[code] += 1
            if self.pending is not None and msg.get("ref") == self.pending[0]:
                self.pending = None
                await self.fall_back()
        elif kind == "result":
            self.stats.results += self.stats.measuring
        elif kind == "cancelled":
            self.stats.cancelled += self.stats.measuring
        elif kind == "moved":
            self.stats.moved += 1
            self.table_id = int(msg["table"])  # the loop reconnects to the new table

    def my_turn(self) -> dict | None:
        state = self.state or {}
        hand = state.get("hand")
        seat = (state.get("you") or {}).get("seat")
        if seat is None or not hand or hand.get("status") != "playing" or seat not in hand.get("actors", []):
            return None
        return hand

    async def maybe_act(self) -> None:
        state = self.state
        seat = state["you"]["seat"]
        if seat is None:
            return
        if state.get("hand") is not None and state["hand"].get("status") == "playing":
            self.ready_sent = False
        hand = self.my_turn()
        if hand is not None:
            if self.pending is None and self.acted_at != state["seq"]:
                if self.think:
                    # A player looks at the turn before acting: the act goes out after the think
                    # time, on the state then current; the frames that arrive meanwhile are read.
                    if self.thinking is None:
                        delay = self.rng.uniform(0.5 * self.think, 1.5 * self.think)
                        self.thinking = asyncio.get_running_loop().call_later(delay, self._thought)
                    return
                await self.act(self.choose(hand), state["seq"])
            return
        view = (state.get("hand") or {}).get("view") or {}
        between = state.get("hand") is None or view.get("phase") == "finished"
        mine = state["table"]["seats"][seat]
        if between and state["table"]["status"] == "waiting" and not mine["ready"] and not self.ready_sent:
            self.ready_sent = True  # once until a hand starts, as the browser hides its button
            self.stats.readies += 1
            await self.send({"type": "ready"})

    def _thought(self) -> None:
        self.thinking = None
        self.tasks.add(task := asyncio.ensure_future(self._act_now()))
        task.add_done_callback(self.tasks.discard)

    async def _act_now(self) -> None:
        """Act on the turn thought about, if it is still this seat's and not yet acted on."""
        from websockets.exceptions import ConnectionClosed

        hand = self.my_turn()
        if hand is not None and self.pending is None and self.acted_at != self.state["seq"] and self.ws:
            try:
                await self.act(self.choose(hand), self.state["seq"])
            except ConnectionClosed:
                pass  # the socket closed while the player thought (moved, or the run stopped)

    async def act(self, action: dict, at: int) -> None:
        await self.pace()  # before the clock starts: the latency is the server's, not this wait
        self.act_seq += 1
        self.acted_at = at
        mark, seat = turn_mark(self.state), self.state["you"]["seat"]
        self.pending = (self.act_seq, at, time.perf_counter(), self.stats.measuring, mark, seat)
        self.stats.sent += self.stats.measuring
        await self.send({"type": "act", "seq": self.act_seq, "action": action}, paced=True)

    def choose(self, hand: dict) -> dict:
        return browser_choice(self.game, hand, self.rng)

    async def fall_back(self) -> None:
        """After a refused act: pass when the browser would offer it, else the hint; once per state."""
        hand = self.my_turn()
        if hand is None or self.fallback_at == self.state["seq"]:
            return
        self.fallback_at = self.state["seq"]
        view = hand.get("view") or {}
        can_pass = view.get("can_pass") or any(c.get("type") == "pass" for c in view.get("choices") or [])
        action = dict(PASS) if can_pass or not hand.get("hint") else hand["hint"]
        await self.act(action, self.state["seq"])


BET_RATE = 10.0  # a bettor's most bets per second: half the socket's rate limit, a quick player's clicking
BET_MARGIN = 1.0  # seconds before the betting deadline after which a bettor sends no more bets (at least)
BET_ANSWER_WAIT = 10.0  # seconds after which a bet without answer is dropped (counted ``unanswered``)


def bet_answered(state: dict, pending: tuple) -> bool:
    """Whether a round ``state`` shows the pending bet ``(round id, area, mine before, amount)`` taken.

    The bettor's own part of the state (``you.stakes``) grows only by its own
    bets, and it keeps one bet in flight: the bet is answered by the first
    state of the same round that shows its stake on the area grown by the
    amount. Other players' bets (the public totals) answer nothing; a state of
    the bet's change that went out before its part (the server then sends it
    again, same ``seq``, with the part) does not either.
    """
    round_id, area, before, amount = pending
    rnd = state.get("round") or {}
    stakes = (state.get("you") or {}).get("stakes") or {}
    return rnd.get("id") == round_id and stakes.get(area, 0) >= before + amount


def bet_options(
    state: dict, *, now_ms: float, reserve: int, margin: float = BET_MARGIN
) -> list[tuple[str, int]]:
    """Every (area, chip) the browser offers now that no limit known to the client refuses.

    The browser sends a click on an open area with the chosen chip while the
    round is betting; the server refuses what breaks a limit. A bettor picks
    only among those it can tell are legal from its state: a chip of the
    table's at or above ``min_bet``, within its own 限红 on the area
    (``area_limits`` less its stake there), within the round's 限额
    (``table_limit`` less every area's total; none at the bench tables), and
    leaving ``reserve`` coins in the wallet, so that its first bet of the next
    round still meets the tier's entry rule. Nothing once the deadline is
    less than ``margin`` seconds away.
    """
    rnd = state.get("round") or {}
    if rnd.get("phase") != "betting" or not rnd.get("deadline") or rnd["deadline"] - now_ms < margin * 1000:
        return []
    tier = (state.get("table") or {}).get("tier") or {}
    you = state.get("you") or {}
    balance = you.get("balance") or 0
    stakes = you.get("stakes") or {}
    limits = tier.get("area_limits") or {}
    table_limit = tier.get("table_limit")
    staked = sum(a.get("total", 0) for a in rnd.get("areas") or [])
    chips = [c for c in tier.get("chips") or [] if c >= (tier.get("min_bet") or 0)]
    options = []
    for area in rnd.get("areas") or []:
        if not area.get("open"):
            continue
        name = area["area"]
        room = limits.get(name)
        for chip in chips:
            if room is not None and stakes.get(name, 0) + chip > room:
                continue
            if table_limit is not None and staked + chip > table_limit:
                continue
            if balance - chip < reserve:
                continue
            options.append((name, chip))
    return options


class RoundBot:
    """One 百家乐 player: a round socket, the seq rule of static/js/baccarat.js, random legal bets.

    It bets as a quick player clicks: one bet in flight, at most ``BET_RATE``
    a second, each a random open area with a random chip among those
    ``bet_options`` allows, until the betting window is about to close or no
    legal bet is left.
    """

    def __init__(self, *, name: str, browser: Browser, table_id: int, stats: Stats, rng) -> None:
        self.name = name
        self.browser = browser
        self.table_id = table_id
        self.stats = stats
        self.rng = rng
        self.ws = None
        self.seq: int | None = None
        self.state: dict | None = None
        self.bet_seq = 0  # strictly increasing for the life of the page, as baccarat.js's betSeq
        # bet seq, sent at, measured, and what answers it (round id, area, stake before, amount)
        self.pending: tuple[int, float, bool, tuple] | None = None
        self.last_bet = 0.0
        self.answer_time = 0.0  # seconds its last bet took to be answered
        self.connected = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidStatus

        while not stop.is_set():
            url = f"ws://{HOST}:{self.browser.port}/ws/rounds/{self.table_id}/"
            try:
                async with connect(
                    url,
                    origin=self.browser.origin,
                    additional_headers={"Cookie": self.browser.cookie_header()},
                    open_timeout=60,
                    max_size=2**20,
                ) as ws:
                    self.ws = ws
                    served_by(self.stats, self.table_id, ws)
                    self.pending = None
                    self.connected.set()
                    await self.send({"type": "resync"})  # as socket.js does on open
                    reader = asyncio.ensure_future(self.read(ws))
                    ticker = asyncio.ensure_future(self.tick(stop))
                    stopper = asyncio.ensure_future(stop.wait())
                    await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                    stopper.cancel()
                    ticker.cancel()
                    if reader.done():
                        reader.result()
                    else:
                        reader.cancel()
            except (InvalidStatus, TimeoutError, ConnectionClosed, OSError) as exc:
                await connection_failed(self.stats, stop, exc)
            finally:
                self.ws = None

    async def read(self, ws) -> None:
        loads = orjson.loads
        while True:
            await self.receive(loads(await ws.recv()))

    async def tick(self, stop: asyncio.Event) -> None:
        """Bet again once the rate allows (a state also triggers it), drop a bet never answered."""
        while not stop.is_set():
            await asyncio.sleep(1 / BET_RATE)
            if self.pending is not None and time.perf_counter() - self.pending[1] > BET_ANSWER_WAIT:
                self.stats.unanswered += self.pending[2] and self.stats.measuring
                self.pending = None
            await self.maybe_bet()

    async def send(self, message: dict) -> None:
        if self.ws is not None:
            await self.ws.send(orjson.dumps(message).decode())  # str: a text frame, as the browser sends

    async def receive(self, msg: dict) -> None:
        kind = msg.get("type")
        seq = msg.get("seq")
        if kind == "state" and isinstance(seq, int):
            last = self.seq
            # A state may come twice with one seq (a snapshot, then the change it already
            # showed), so only an older seq is stale here (static/js/baccarat.js).
            if last is not None and seq < last:
                self.stats.decreasing += self.stats.measuring
                return
            if last is not None and seq > last + 1:
                self.stats.gaps += self.stats.measuring
                await self.send({"type": "resync"})
            self.seq = seq if last is None else max(last, seq)
            self.state = msg
            if self.pending is not None and bet_answered(msg, self.pending[3]):
                _ref, sent, measured, _what = self.pending
                self.answer_time = time.perf_counter() - sent
                if measured and self.stats.measuring:
                    self.stats.accepted += 1
                    self.stats.latencies.append(time.perf_counter() - sent)
                self.pending = None
            await self.maybe_bet()
        elif kind == "error":
            code = msg.get("code", "?")
            self.stats.errors_total[code] += 1
            if self.stats.measuring:
                self.stats.errors[code] += 1
            if self.pending is not None and msg.get("ref") == self.pending[0]:
                self.pending = None
        elif kind == "payout":
            self.stats.results += self.stats.measuring
            self.stats.cancelled += bool(msg.get("refunded")) and self.stats.measuring

    async def maybe_bet(self) -> None:
        if self.pending is not None or self.state is None or self.ws is None:
            return
        now = time.perf_counter()
        if now - self.last_bet < 1 / BET_RATE:
            return
        # A bet the server takes up after the deadline is refused (betting_closed): the bettor sends
        # none it expects to arrive late, judging by how long its last bet took.
        margin = max(BET_MARGIN, 1.5 * self.answer_time)
        options = bet_options(self.state, now_ms=time.time() * 1000, reserve=MINIMUM, margin=margin)
        if not options:
            return
        area, amount = self.rng.choice(options)
        stakes = (self.state.get("you") or {}).get("stakes") or {}
        self.bet_seq += 1
        self.last_bet = now
        answer = (self.state["round"]["id"], area, stakes.get(area, 0), amount)
        self.pending = (self.bet_seq, now, self.stats.measuring, answer)
        self.stats.sent += self.stats.measuring
        await self.send({"type": "bet", "seq": self.bet_seq, "area": area, "amount": amount})


# --- the run ---------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


CPU_SAMPLE_EVERY = 1.0  # seconds between readings of /proc in the measured window


class CpuWindow:
    """CPU seconds used over the measured window, by name, from ``cpu_seconds`` readings.

    The bench's own processes live through the window: their figure is the
    last reading less the first. PostgreSQL's backends come and go (a
    connection older than ``DB_CONN_MAX_AGE`` is replaced, a sign-in's
    closes), so each backend's growth is added up reading by reading: one
    that started within the window counts from zero, one that exited loses
    at most what it used after the last reading (``CPU_SAMPLE_EVERY``).
    """

    def __init__(self, first: dict) -> None:
        self.first = first
        self.last = first
        self.backends: float | None = None

    def add(self, reading: dict) -> None:
        for key, seconds in reading.items():
            if isinstance(key, tuple):
                self.backends = (self.backends or 0.0) + seconds - self.last.get(key, 0)
        self.last = reading

    def used(self) -> dict[str, float]:
        used = {
            key: seconds - self.first.get(key, 0)
            for key, seconds in self.last.items()
            if not isinstance(key, tuple)
        }
        if self.backends is not None:
            used["postgres"] = self.backends
        return used


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def clients_run(
    args, *, tier_ids: list[int], names: list[str], ports: list[int], stats: Stats, procs
) -> dict:
    from django.utils import timezone

    rng = random.Random(args.seed)
    stop = asyncio.Event()
    gate = asyncio.Semaphore(8)  # HTTP sign-ins at a time, so the servers are not swamped during setup
    arrivals: Counter = Counter()
    table_servers: dict[int, int] = {}  # ``--split tables``: each table's one server
    bots: list[Bot | RoundBot] = []
    tasks: list[asyncio.Task] = []

    async def join(i: int, name: str) -> None:
        browser = Browser(ports[0])
        async with gate:
            await asyncio.to_thread(browser.sign_in, name)
            if args.banker:  # the clients split evenly between the bench tiers, one table each
                tier_id = tier_ids[i % len(tier_ids)]
                table_id = await asyncio.to_thread(browser.enter_round, args.game, tier_id)
            else:
                table_id = await asyncio.to_thread(browser.quick_start, args.game, tier_ids[0])
        # Split each table's players between the servers: 1st, 2nd, 3rd arrival → 0, 1, 0 …
        # or, with ``--split tables``, all of a table's players on one server (as a balancer that
        # routes by table would), the tables in turn.
        if args.split == "tables":
            server = table_servers.setdefault(table_id, len(table_servers) % len(ports))
        else:
            server = arrivals[table_id] % len(ports)
        arrivals[table_id] += 1
        browser.port = ports[server]
        browser.origin = f"http://{HOST}:{ports[server]}"
        bot_rng = random.Random(rng.getrandbits(64))
        if args.banker:
            bot = RoundBot(name=name, browser=browser, table_id=table_id, stats=stats, rng=bot_rng)
        else:
            bot = Bot(
                name=name,
                game=args.game,
                browser=browser,
                table_id=table_id,
                stats=stats,
                rng=bot_rng,
                think=args.think_ms / 1000,
            )
        bots.append(bot)
        tasks.append(asyncio.create_task(bot.run(stop)))

    started = time.perf_counter()
    await asyncio.gather(*(join(i, name) for i, name in enumerate(names)))
    await asyncio.wait_for(asyncio.gather(*(bot.connected.wait() for bot in bots)), 120)
    print(
        f"{len(bots)} clients signed in, seated at {len(arrivals)} tables and connected "
        f"in {time.perf_counter() - started:.1f} s; warming up {args.warmup} s"
    )
    await asyncio.sleep(args.warmup)
    procs.check_alive()
    cpu_window = CpuWindow(procs.cpu_seconds())
    clients_cpu = time.process_time()
    load_before = load_average()
    db_start = timezone.now()
    stats.measuring = True
    window_start = time.perf_counter()
    window_end = window_start + args.seconds
    while (left := window_end - time.perf_counter()) > 0:
        await asyncio.sleep(min(left, CPU_SAMPLE_EVERY))
        cpu_window.add(procs.cpu_seconds())
    stats.measuring = False
    elapsed = time.perf_counter() - window_start
    db_end = timezone.now()
    clients_used = time.process_time() - clients_cpu
    load_after = load_average()
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    window = await asyncio.to_thread(
        db_window_rounds if args.banker else db_window, tier_ids=tier_ids, start=db_start, end=db_end
    )
    cpu = cpu_window.used()
    cpu["clients (this process)"] = clients_used
    return {
        "elapsed": elapsed,
        "tables": len(arrivals),
        "db": window,
        "cpu": cpu,
        "load_before": load_before,
        "load_after": load_after,
    }


def latency_figures(stats: Stats) -> dict:
    lat = [x * 1000 for x in stats.latencies]
    return {
        "p50": round(percentile(lat, 50), 1),
        "p95": round(percentile(lat, 95), 1),
        "p99": round(percentile(lat, 99), 1),
        "max": round(max(lat), 1) if lat else None,
    }


def report(args, stats: Stats, run: dict, ledger: str) -> dict:
    if args.banker:
        return report_rounds(args, stats, run, ledger)
    elapsed = run["elapsed"]
    db = run["db"]
    figures = {
        "clients": args.clients,
        "servers": args.servers,
        "proxy": args.proxy,
        "ws_deflate": args.ws_deflate,
        "game": args.game,
        "seats": args.seats,
        "seconds": round(elapsed, 1),
        "tables_seated": run["tables"],
        "tables_played": db["tables"],
        "acts_sent": stats.sent,
        "acts_accepted": stats.accepted,
        "acts_per_second": round(stats.accepted / elapsed, 1),
        "table_actions_per_second": round((db["players"] + db["auto"]) / elapsed, 1),
        "player_actions_db": db["players"],
        "auto_actions_db": db["auto"],
        "latency_ms": latency_figures(stats),
        "hands_settled": db["settled"],
        "hands_settled_per_second": round(db["settled"] / elapsed, 2),
        "hands_cancelled": db["cancelled"],
        "results_received": stats.results,
        "errors": dict(stats.errors),
        "errors_outside_window": dict(stats.errors_total - stats.errors),
        "seq_gaps": stats.gaps,
        "seq_decreasing": stats.decreasing,
        "disconnects": stats.disconnects,
        **routing_figures(stats),
        "moved": stats.moved,
        "cpu_seconds": {k: round(v, 1) for k, v in sorted(run["cpu"].items())},
        "load_average": {"before": run["load_before"], "after": run["load_after"]},
        "ledger_check": ledger,
    }
    lat = figures["latency_ms"]
    print()
    print(
        f"load: {args.clients} clients, {servers_text(args)}, {args.game} ({args.seats} seats), "
        f"{elapsed:.1f} s measured, permessage-deflate {args.ws_deflate}"
    )
    print(f"  tables seated / played   {figures['tables_seated']} / {figures['tables_played']}")
    print(
        f"  acts accepted            {stats.accepted} ({figures['acts_per_second']}/s); "
        f"all table actions in the DB {db['players'] + db['auto']} ({figures['table_actions_per_second']}/s, "
        f"{db['auto']} by the server)"
    )
    print(
        f"  act → broadcast latency  p50 {lat['p50']} ms, p95 {lat['p95']} ms, "
        f"p99 {lat['p99']} ms, max {lat['max']} ms"
    )
    print(
        f"  hands settled            {db['settled']} ({figures['hands_settled_per_second']}/s); "
        f"cancelled {db['cancelled']}; results received {stats.results}"
    )
    report_tail(figures, stats, run, ledger)
    print(f"  moved (分组)              {stats.moved}")
    return figures


def report_rounds(args, stats: Stats, run: dict, ledger: str) -> dict:
    """The report of a banker game's run: bets, rounds, the same errors, seq checks and ledger."""
    elapsed = run["elapsed"]
    db = run["db"]
    betting = db["betting_seconds"]
    tables = max(run["tables"], 1)
    figures = {
        "clients": args.clients,
        "servers": args.servers,
        "proxy": args.proxy,
        "ws_deflate": args.ws_deflate,
        "game": args.game,
        "seconds": round(elapsed, 1),
        "tables_entered": run["tables"],
        "tables_with_bets": db["tables"],
        "bets_sent": stats.sent,
        "bets_accepted": stats.accepted,
        "bets_accepted_per_second": round(stats.accepted / elapsed, 1),
        "bets_db": db["bets"],
        "bets_db_per_second": round(db["bets"] / elapsed, 1),
        "coins_staked_db": db["coins"],
        "betting_open_share": round(betting / (elapsed * tables), 2),
        # All tables' bets per second of open betting (the tables' rounds run about in step).
        "bets_db_per_betting_second": round(db["bets"] / (betting / tables), 1) if betting else None,
        "latency_ms": latency_figures(stats),
        "rounds_settled": db["settled"],
        "rounds_settled_with_bets": db["settled_with_bets"],
        "rounds_settled_per_second": round(db["settled"] / elapsed, 3),
        "rounds_refunded": db["refunded"],
        "payouts_received": stats.results,
        "refund_notices_received": stats.cancelled,
        "bets_unanswered": stats.unanswered,
        "errors": dict(stats.errors),
        "errors_outside_window": dict(stats.errors_total - stats.errors),
        "seq_gaps": stats.gaps,
        "seq_decreasing": stats.decreasing,
        "disconnects": stats.disconnects,
        **routing_figures(stats),
        "cpu_seconds": {k: round(v, 1) for k, v in sorted(run["cpu"].items())},
        "load_average": {"before": run["load_before"], "after": run["load_after"]},
        "ledger_check": ledger,
    }
    lat = figures["latency_ms"]
    print()
    print(
        f"load: {args.clients} clients, {servers_text(args)}, {args.game}, {run['tables']} table(s), "
        f"{elapsed:.1f} s measured, permessage-deflate {args.ws_deflate}"
    )
    print(
        f"  bets accepted            {stats.accepted} ({figures['bets_accepted_per_second']}/s) of "
        f"{stats.sent} sent; bets in the DB {db['bets']} ({figures['bets_db_per_second']}/s, "
        f"{figures['bets_db_per_betting_second']}/s while betting is open, "
        f"betting open {figures['betting_open_share']:.0%} of the window)"
    )
    print(
        f"  bet → broadcast latency  p50 {lat['p50']} ms, p95 {lat['p95']} ms, "
        f"p99 {lat['p99']} ms, max {lat['max']} ms; unanswered {stats.unanswered}"
    )
    print(
        f"  rounds settled           {db['settled']} ({figures['rounds_settled_per_second']}/s, "
        f"{db['settled_with_bets']} with bets); refunded {db['refunded']}; payouts received {stats.results}"
    )
    report_tail(figures, stats, run, ledger)
    return figures


def servers_text(args) -> str:
    return f"{args.servers} server(s)" + (" behind HAProxy" if args.proxy == "haproxy" else "")


def routing_figures(stats: Stats) -> dict:
    """Behind HAProxy: how many tables each server took, and how many had sockets on both (none expected)."""
    if not stats.served:
        return {}
    alone = Counter(next(iter(servers)) for servers in stats.served.values() if len(servers) == 1)
    return {
        "tables_per_server": dict(sorted(alone.items())),
        "tables_on_several_servers": sum(len(servers) > 1 for servers in stats.served.values()),
    }


def report_tail(figures: dict, stats: Stats, run: dict, ledger: str) -> None:
    if "tables_per_server" in figures:
        print(
            f"  tables per server        {figures['tables_per_server']}; "
            f"on several {figures['tables_on_several_servers']}"
        )
    print(f"  errors                   {dict(stats.errors) or 'none'}")
    outside = dict(stats.errors_total - stats.errors)
    if outside:
        print(f"  errors outside window    {outside}")
    print(f"  seq gaps / decreasing    {stats.gaps} / {stats.decreasing}; disconnects {stats.disconnects}")
    print(f"  CPU seconds in window    {figures['cpu_seconds']}")
    print(f"  load average             {run['load_before']} → {run['load_after']}")
    print(f"  ledger_check             {ledger}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200, help="bot clients (rounded down to whole tables)")
    parser.add_argument("--seconds", type=float, default=60, help="measured seconds, after the warm-up")
    parser.add_argument("--warmup", type=float, default=5, help="seconds of play before measuring")
    parser.add_argument("--servers", type=int, default=1, help="ASGI processes serving the same tables")
    parser.add_argument("--game", default="doudizhu", help="game slug (any game of the registry)")
    parser.add_argument("--seats", type=int, default=3, help="seats per table (seated games)")
    parser.add_argument(
        "--tables", type=int, default=1, help="banker games (百家乐): tables, the clients split evenly"
    )
    parser.add_argument(
        "--split",
        choices=("seats", "tables"),
        default="seats",
        help="with several servers: split each table's players between them (seats) or not (tables)",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="mean time a player thinks before each act, drawn from 0.5x-1.5x (default 0: act at once)",
    )
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--port", type=int, default=18100, help="first server port on 127.0.0.1")
    parser.add_argument(
        "--proxy",
        choices=("none", "haproxy"),
        default="none",
        help="haproxy: the clients go through HAProxy (deploy/haproxy.cfg, on --port + 2) in front of "
        "the two servers, which routes each table's sockets to one of them",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the clients' random choices")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    deflate_argument(parser)
    args = parser.parse_args()
    import games

    if args.game not in games.REGISTRY:
        parser.error(f"--game must be one of {', '.join(sorted(games.REGISTRY))}")
    args.banker = banker_game(args.game)
    if not args.banker:
        args.clients -= args.clients % args.seats
    if args.clients <= 0 or args.clients < args.tables:
        parser.error("--clients must fill at least one table")
    if args.proxy == "haproxy" and args.servers != 2:
        parser.error("--proxy haproxy runs the shipped config, whose two servers need --servers 2")

    env = stack_env("load")
    logdir = Path(tempfile.mkdtemp(prefix="cardroom-load-"))
    procs = Processes(env, logdir)
    # SIGTERM stops like Ctrl-C: through the finally below.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        print(stack_banner(env, logdir))
        stack_database(env)
        tier_ids, names = data_prepare(
            game=args.game, clients=args.clients, seats=args.seats, tables=args.tables
        )
        ports = [args.port + i for i in range(args.servers)]
        worker_name = procs.start_celery(env["CELERY_QUEUE"], workers=args.workers)
        for i, port in enumerate(ports):
            procs.start_uvicorn(f"asgi{i}", "platform.asgi:application", port, *quiet_options(args))
        servers_wait(ports, procs)
        if args.proxy == "haproxy":  # the clients see one address, HAProxy's
            procs.start_haproxy(args.port + args.servers, ports)
            ports = [args.port + args.servers]
            servers_wait(ports, procs)
        worker_wait(worker_name, procs)
        stats = Stats()
        run = event_loop_run(
            clients_run(args, tier_ids=tier_ids, names=names, ports=ports, stats=stats, procs=procs)
        )
        time.sleep(3)  # let the last settlements of the window land before checking the ledger
        check = manage(env, "ledger_check", check=False)
        ledger = (check.stdout.strip() or check.stderr.strip()).splitlines()[-1:] or ["(no output)"]
        figures = report(args, stats, run, ledger[0])
        if args.json:
            args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False))
        return 0 if check.returncode == 0 else 1
    except KeyboardInterrupt:
        print("\ninterrupted; stopping everything the benchmark started")
        return 130
    finally:
        procs.stop()


def deflate_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ws-deflate",
        choices=["on", "off"],
        default="on",
        help="uvicorn's permessage-deflate (on, its default and production's; off: a deployment trade to measure)",
    )


def quiet_options(args) -> tuple[str, ...]:
    """uvicorn's options for a measured server: no access log, permessage-deflate as ``--ws-deflate`` says."""
    return ("--no-access-log", "--ws-per-message-deflate", "true" if args.ws_deflate == "on" else "false")


def event_loop_run(main):
    """Run the clients on uvloop when installed (uvicorn's loop too): they share the cores with the server."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


def servers_wait(ports: list[int], procs: Processes) -> None:
    deadline = time.monotonic() + 90
    for port in ports:
        while True:
            procs.check_alive()
            try:
                conn = http.client.HTTPConnection(HOST, port, timeout=5)
                conn.request("GET", "/accounts/login/")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"the server on port {port} did not answer within 90 s")
            time.sleep(0.3)


def worker_wait(name: str, procs: Processes) -> None:
    from platform.celery_app import app

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        procs.check_alive()
        if app.control.ping(destination=[name], timeout=1):
            return
    raise RuntimeError("the Celery worker did not answer a ping within 90 s")


if __name__ == "__main__":
    sys.exit(main())
