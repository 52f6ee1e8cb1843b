"""Every key and channel the project uses in Redis starts with ``REDIS_PREFIX``.

Two deployments, or a test run beside one, may share a Redis database only if
nothing they write collides: the tables' and users' pub/sub channels, Celery's
queues, acknowledgements and bindings, its workers' mailboxes, and the
channel layer's keys. The test runs its own ``redis-server`` (nothing else
talks to it), records every command sent to it (``MONITOR``) while a 斗地主
hand is played and settled by a real Celery worker and a 百家乐 round is bet on
and paid, and checks the key or channel of each command, and every key left.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import threading
import time
from urllib.parse import urlparse

import pytest
import redis
from asgiref.sync import sync_to_async
from django.db import connection

from conftest import require_service
from rooms import transport
from rooms.rounds import services as round_services
from rooms.rounds.models import Round
from rooms.rounds.tests.conftest import live_round, make_tier, run_to, tick
from rooms.tables import services
from rooms.tables.models import Hand
from rooms.tables.tests.conftest import run_clock
from rooms.tables.tests.servers import RedisServer
from rooms.tables.tests.test_abuse import game_tier
from rooms.tables.tests.test_consumers import latest_state, next_of
from rooms.tables.tests.test_sockets import open_socket, session_cookie

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fast_tables"),
]

# Commands that name no key or channel.
KEYLESS = {
    "AUTH", "CLIENT", "COMMAND", "CONFIG", "DBSIZE", "DISCARD", "ECHO", "EXEC", "HELLO", "INFO",
    "MONITOR", "MULTI", "PING", "QUIT", "RESET", "SCRIPT", "SELECT", "TIME", "UNWATCH", "PUNSUBSCRIBE",
    "UNSUBSCRIBE",
    "KEYS",  # a pattern (this test's own look at what is left)
}  # fmt: skip
# Commands whose every argument is a key or channel (the others name one key, first).
ALL_KEYS = {"DEL", "EXISTS", "MGET", "PSUBSCRIBE", "SUBSCRIBE", "UNLINK", "WATCH"}


def keys_of(command: list[str]) -> list[str]:
    """The keys and channels a command names (MONITOR's words)."""
    name, args = command[0].upper(), command[1:]
    if name in KEYLESS or not args:
        return []
    if name in ALL_KEYS:
        return args
    if name in ("BRPOP", "BLPOP"):
        return args[:-1]  # the last is the timeout
    if name in ("EVAL", "EVALSHA"):
        return args[2 : 2 + int(args[1])]
    return args[:1]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Monitor:
    """Every command the Redis server on ``port`` receives, in its own thread (``MONITOR``)."""

    def __init__(self, port: int) -> None:
        self.commands: list[list[str]] = []
        self.port = port
        self.connection = socket.create_connection(("127.0.0.1", port))
        self.connection.sendall(b"MONITOR\r\n")
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = self.connection.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            *lines, buffer = buffer.split(b"\r\n")
            for line in lines:
                # +1700000000.123456 [0 127.0.0.1:5555] "PUBLISH" "prefix:table:3" "{...}"
                if line.startswith(b"+") and b"] " in line:
                    words = line.decode("utf-8", "replace").split("] ", 1)[1]
                    try:
                        self.commands.append(shlex.split(words))
                    except (
                        ValueError
                    ):  # an argument shlex cannot read (a payload): its command's name is enough
                        self.commands.append(words.split(" ", 2)[:2])

    def caught_up(self) -> bool:
        """Whether every command sent before this call has been read (a marker sent, then seen)."""
        marker = f"monitor-marker-{time.monotonic_ns()}"
        redis.Redis(port=self.port).echo(marker)
        return wait_for(lambda: any(marker in command for command in self.commands), 30)

    def stop(self) -> None:
        self.connection.close()
        self.thread.join(5)


def wait_for(predicate, timeout: float = 60) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return predicate()


def use_broker(url: str) -> None:
    """Send this process's tasks (and pings) to ``url``: its connection and producer pools start again."""
    from platform.celery_app import app

    app.close()  # forgets the connection pool
    del app.amqp  # and the producer pool made on it, kept by the app's AMQP helper
    app.conf.broker_url = url


@pytest.fixture
def private_redis(settings):
    """A Redis of this test's own, carrying the tables' messages and Celery's tasks, watched by MONITOR."""
    from platform.celery_app import app

    require_service(
        "redis-server binary", shutil.which("redis-server") is not None, "apt-get install redis-server"
    )
    server = RedisServer(free_port())
    server.start()
    url = f"redis://127.0.0.1:{server.port}/0"
    monitor = Monitor(server.port)
    settings.REDIS_URL = url
    transport.reset()
    broker = app.conf.broker_url
    use_broker(url)
    try:
        yield url, monitor
    finally:
        monitor.stop()
        use_broker(broker)
        transport.reset()
        server.kill()


@pytest.fixture
def worker(private_redis):
    """A real Celery worker on the private Redis and the test database, with the suite's REDIS_PREFIX."""
    from platform.celery_app import app
    from platform.worker_processes import WorkerProcesses

    url, _monitor = private_redis
    database = urlparse(os.environ["DATABASE_URL"])._replace(path="/" + connection.settings_dict["NAME"])
    env = {
        **os.environ,
        "DATABASE_URL": database.geturl(),
        "REDIS_URL": url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "TABLE_TIMERS": "off",
    }
    workers = WorkerProcesses(app.conf.task_default_queue, env)
    workers.start(timeout=90)
    yield workers
    workers.stop_all()


def _play_to_the_end(table_id: int, user) -> Hand:
    hand = Hand.objects.get(table_id=table_id, status="playing")
    services.table_trustee(table_id=table_id, user=user, on=True)
    for _ in range(20):
        run_clock(max_steps=1000)
        hand.refresh_from_db()
        if hand.status != "playing":
            break
    return hand


def _round_paid(round_id: int) -> bool:
    return Round.objects.filter(pk=round_id, status__in=["settled", "refunded"]).exists()


async def test_every_key_and_channel_the_project_uses_in_redis_carries_the_prefix(
    make_player, settings, private_redis, worker
):
    from channels.layers import channel_layers

    url, monitor = private_redis
    prefix = settings.REDIS_PREFIX + ":"
    alice = await sync_to_async(make_player)(coins=50_000)
    cookie = await sync_to_async(session_cookie)(alice)

    # A 斗地主 hand: the socket listens on its table's and user's channels, the runtime publishes each
    # change, the settlement goes to the worker through Celery and its result comes back published.
    tier = await sync_to_async(game_tier)("doudizhu")
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    comm, connected = await open_socket(f"/ws/tables/{table.pk}/", cookie)
    assert connected
    await latest_state(comm)
    await sync_to_async(run_clock)()  # the bots sit down and the hand is dealt
    hand = await sync_to_async(_play_to_the_end)(table.pk, alice)
    assert hand.status in ("finished", "settled")
    result = await next_of(comm, "result", timeout=60)  # settled by the worker, told through Redis
    assert result["hand"] == hand.pk
    await comm.disconnect()

    # A 百家乐 round: a bet on the socket, the round dealt, paid by the worker.
    banker = await sync_to_async(lambda: round_services.round_enter(tier_id=make_tier().pk, user=alice))()
    rounds, connected = await open_socket(f"/ws/rounds/{banker.pk}/", cookie)
    assert connected
    await next_of(rounds, "state")
    await sync_to_async(tick)()
    rnd = await sync_to_async(live_round)(banker)
    await rounds.send_json_to({"type": "bet", "seq": 1, "round": rnd.pk, "area": "banker", "amount": 10})
    await next_of(rounds, "state")
    await sync_to_async(run_to)(rnd, "over")
    assert await sync_to_async(wait_for)(lambda: _round_paid(rnd.pk)), "the worker never paid the round"
    await rounds.disconnect()

    # The channel layer (Channels' own API; the sockets do not use it) under its configured prefix.
    config = settings.CHANNEL_LAYERS["default"]
    settings.CHANNEL_LAYERS = {"default": {**config, "CONFIG": {**config["CONFIG"], "hosts": [url]}}}
    layer = channel_layers.make_backend("default")
    channel = await layer.new_channel()
    await layer.group_add("prefix-check", channel)
    await layer.group_send("prefix-check", {"type": "check.prefix"})
    assert (await layer.receive(channel))["type"] == "check.prefix"
    await layer.flush()

    left = [key.decode() for key in redis.Redis.from_url(url).keys("*")]
    worker.stop_all()
    assert await sync_to_async(monitor.caught_up)()
    used = [(command[0].upper(), key) for command in monitor.commands for key in keys_of(command)]
    outside = sorted({(name, key) for name, key in used if not key.startswith(prefix)})
    assert outside == [], json.dumps(outside[:20], ensure_ascii=False)
    assert all(key.startswith(prefix) for key in left), left
    # The check saw each kind of use: the tables' channels, Celery's queue and its workers' mailbox.
    names = {key for _name, key in used}
    for part in (f"table:{table.pk}", f"table:{banker.pk}", f"user:{alice.pk}", "celery:", "pidbox"):
        assert any(part in key for key in names), (part, sorted(names)[:40])
