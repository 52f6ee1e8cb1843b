"""The table's WebSocket: validate each message, call one service, forward the broadcasts.

The consumer holds no game state. It knows which group it listens on (its
seat's, or the spectators'), the last ``act`` seq of this connection and a
rate-limit bucket; everything else comes from the services and from the
per-seat payloads the services broadcast after commit. docs/protocol.md is
the contract.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import json
import logging
import queue
import threading
import time
import types
from collections.abc import Callable
from concurrent.futures import Executor, Future

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from channels.sessions import InstanceSessionWrapper
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from rooms.tables import fanout, selectors, services
from rooms.tables.broadcast import frame_text, table_group
from rooms.tables.errors import TableError
from rooms.tables.fanout import INBOX_SIZE, fanout_for, serving
from rooms.tables.models import Table
from rooms.tables.owner import ActingUser, kept_play_enabled, table_act_kept_here
from rooms.tables.presence import heartbeat_ensure_started
from rooms.tables.statements import drop_if_closed_by_server
from rooms.tables.timers import timers_ensure_started

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
RATE_PER_SECOND = 20
MAX_REFUSED_IN_A_ROW = 100
# How long a change that skips a seq waits for the missing one(s) before it goes out anyway.
REORDER_WAIT_SECONDS = 1.0

# How often an open socket asks whether its session still signs its user in (seconds).
SESSION_RECHECK_SECONDS = 30.0

CLOSE_ANONYMOUS = 4401
CLOSE_NO_TABLE = 4404
CLOSE_FLOODING = 4408
CLOSE_TOO_MANY_SOCKETS = 4429
CLOSE_TRY_AGAIN = 1013  # the database failed while the socket opened: the page reconnects with backoff
CLOSE_FAILED = 1011  # the code ``disconnect`` is given for a socket that failed (nothing is sent)

# The database connection failed under a call (PostgreSQL restarted or failed over, a backend was
# terminated): PostgreSQL rolled the call's transaction back, and the thread drops the connection.
DATABASE_ERRORS = (OperationalError, InterfaceError)

# Table and round sockets one user may hold open in one ASGI process (``TABLE_SOCKETS_PER_USER``).
# The rate limit is per socket: without a cap a player multiplied it, and the table's row lock
# that every connect takes, by opening sockets. Tabs and overlapping reconnects stay well under it.
MAX_SOCKETS_PER_USER = 8
_sockets_per_user: collections.Counter = collections.Counter()

# The keys each client message may carry, and the type each must have.
SHAPES: dict[str, dict[str, type]] = {
    "act": {"seq": int, "action": dict},
    "resync": {},
    "ready": {},
    "trustee": {"on": bool},
    "leave": {},
    "ping": {},
}


def bucket_clock() -> float:
    """The rate limiter's clock (a seam for tests; the event loop keeps its own)."""
    return time.monotonic()


def session_recheck_seconds() -> float:
    return float(getattr(settings, "TABLE_SESSION_RECHECK", SESSION_RECHECK_SECONDS))


def session_user_id(session_key: str | None) -> int | None:
    """Return the id of the user this session still signs in, or None.

    None once the player logged out, the session expired, the password was
    changed (Django's session hash) or staff disabled the account: the same
    check Django makes on every page (``django.contrib.auth.get_user``), on a
    fresh read of the session.
    """
    from importlib import import_module

    from django.contrib.auth import get_user

    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(types.SimpleNamespace(session=store))
    return user.pk if user.is_authenticated else None


def scope_language(scope: dict) -> str:
    """Return the language the player chose (cookie) or their browser asks for, as pages do."""
    from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header

    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code in [cookie] + [lang for lang, _q in parse_accept_lang_header(accept) if lang != "*"]:
        if not code:
            continue
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class TablePool:
    """``TABLE_DB_THREADS`` threads that run the table sockets' database calls, table by table.

    Each table has a lane (``TableLane``): its calls run one at a time, in
    the order they were made, on whichever thread of the pool is free. Before,
    each table was tied to one thread (chosen by table id), so a call waited
    for every call of the other tables on that thread: under load that queue
    was nearly all of the p99 (0.7 s of 0.77 s), while other threads idled.
    A lane with more waiting calls goes to the back of the pool's queue after
    each one, so a busy table cannot hold a thread from the others.

    At interpreter exit the pool finishes every call already made (running or
    queued in a lane) before the process goes, as ``ThreadPoolExecutor``
    does: its threads are daemon threads, so without ``shutdown`` (run by
    threading's own exit hook, before it joins the other threads) a call in
    flight would be cut and its transaction rolled back. A call made after
    that raises ``RuntimeError``, as ``concurrent.futures`` does.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.ready: queue.SimpleQueue = queue.SimpleQueue()  # lanes with a call to run (or a job)
        self.state = threading.Condition(threading.Lock())
        self.busy_lanes = 0  # lanes with a call queued in the pool or running
        self.stopped = False  # shut down: the threads are gone or going
        self.threads = [
            threading.Thread(target=self._work, name=f"table-db-{n}", daemon=True) for n in range(size)
        ]
        for thread in self.threads:
            thread.start()
        _at_exit(self.shutdown)

    def _work(self) -> None:
        get = self.ready.get
        while True:
            job = get()
            if job is None:
                return
            job()

    def _lane_busy(self) -> None:
        """A lane has a call to run (it was idle): count it, unless the pool is shut down."""
        with self.state:
            if self.stopped:
                raise RuntimeError("cannot schedule new futures after interpreter shutdown")
            self.busy_lanes += 1

    def _lane_idle(self) -> None:
        with self.state:
            self.busy_lanes -= 1
            if not self.busy_lanes:
                self.state.notify_all()

    def shutdown(self) -> None:
        """Wait until every lane has run all its calls, then stop the threads (idempotent)."""
        with self.state:
            if self.stopped:
                return
            while self.busy_lanes:
                self.state.wait()
            self.stopped = True
        for _thread in self.threads:
            self.ready.put(None)
        for thread in self.threads:
            if thread is not threading.current_thread():
                thread.join()

    def on_every_thread(self, func) -> None:
        """Run ``func`` once on each thread of the pool, after the calls already queued (for tests)."""
        barrier = threading.Barrier(self.size + 1)

        def job() -> None:
            try:
                func()
            finally:
                barrier.wait()  # holds this thread, so the next job goes to another

        for _thread in self.threads:
            self.ready.put(job)
        barrier.wait()


def _at_exit(func) -> None:
    """Run ``func`` when the interpreter exits, before threading joins the non-daemon threads.

    ``threading._register_atexit`` is what ``concurrent.futures`` uses for the
    same purpose (its hooks run while other threads may still submit work, and
    before ``atexit``'s, which run only once those threads have ended); where
    it is missing, ``atexit``.
    """
    register = getattr(threading, "_register_atexit", None)
    if register is None:
        import atexit

        atexit.register(func)
        return
    try:
        register(func)
    except RuntimeError:  # the interpreter is already exiting: no new thread's work will be waited for
        pass


class TableLane(Executor):
    """One table's calls, run one at a time and in order on a ``TablePool``'s threads."""

    def __init__(self, pool: TablePool) -> None:
        self.pool = pool
        self.calls: collections.deque = collections.deque()
        self.lock = threading.Lock()
        self.busy = False  # a call of this lane is queued in the pool or running
        # Sockets of this process that show the table (``table_hold``); read and changed on the loop only.
        self.holders = 0
        # The ``TableSyncToAsync`` of each plain function called in this lane (``table_sync_to_async``).
        self.wrapped: dict = {}

    def idle(self) -> bool:
        with self.lock:
            return not self.busy

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        with self.lock:
            if self.busy:
                self.calls.append((future, fn, args, kwargs))
                return future
            self.pool._lane_busy()  # raises once the pool is shut down
            self.calls.append((future, fn, args, kwargs))
            self.busy = True
        self.pool.ready.put(self._run_one)
        return future

    def _run_one(self) -> None:
        with self.lock:
            future, fn, args, kwargs = self.calls.popleft()
        outcome = error = None
        running = future.set_running_or_notify_cancel()
        if running:
            try:
                outcome = fn(*args, **kwargs)
            except BaseException as raised:  # noqa: BLE001 - handed to the caller
                error = raised
        # The lane is idle (or its next call queued) before the caller hears back, so a caller
        # that lets the table go on hearing finds it idle (``table_release``). The call is over.
        with self.lock:
            if not self.calls:
                self.busy = False
                idle = True
            else:
                idle = False
        if idle:
            self.pool._lane_idle()
        else:
            self.pool.ready.put(self._run_one)
        if not running:
            return
        if error is not None:
            future.set_exception(error)
            error = None  # no reference cycle through the traceback
        else:
            future.set_result(outcome)


_pool: TablePool | None = None
_lanes: dict[int, TableLane] = {}
_lanes_lock = threading.Lock()


def table_executor(table_id: int) -> TableLane | None:
    """The lane that runs this table's database calls in this process (None: Channels' single thread).

    Channels runs every ``database_sync_to_async`` call of a process on ONE
    thread, so one table's wait on PostgreSQL held up every other table. The
    tables share a pool of ``TABLE_DB_THREADS`` threads instead (``TablePool``):
    a table's calls still run one at a time and in the order they were made,
    while different tables overlap. A lane lives while a socket of this
    process shows its table (``table_hold``) or a call of it is queued or
    running: quick start opens tables all day and a table closes when its last
    human leaves, so lanes kept for every table ever shown (with their call
    wrappers) grew for as long as the process lived. Creating a lane sweeps
    away the lanes nobody holds that have gone idle (a lane whose last call
    came from no socket, such as a retried close); dropping an idle lane loses
    nothing, since the order only binds calls that are waiting. Called on the
    event loop only.
    """
    global _pool
    lane = _lanes.get(table_id)
    if lane is not None:
        return lane
    size = getattr(settings, "TABLE_DB_THREADS", 0)
    if size <= 0:
        return None
    with _lanes_lock:
        if _pool is None:
            _pool = TablePool(size)
        for other, unheld in [(t, lane) for t, lane in _lanes.items() if lane.holders <= 0]:
            if unheld.idle():
                del _lanes[other]
        return _lanes.setdefault(table_id, TableLane(_pool))


def table_hold(table_id: int) -> None:
    """A socket of this process shows the table: keep its lane until ``table_release``."""
    lane = table_executor(table_id)
    if lane is not None:
        lane.holders += 1


def table_release(table_id: int) -> None:
    """The socket that held the table is gone: drop the lane with the last holder, unless a call is still in it."""
    lane = _lanes.get(table_id)
    if lane is None:
        return
    lane.holders -= 1
    if lane.holders <= 0 and lane.idle():
        with _lanes_lock:
            if _lanes.get(table_id) is lane:
                del _lanes[table_id]


def table_executors_close() -> None:
    """Let the table threads finish their calls, then close their database connections.

    For tests: the test database can only be dropped once no thread holds a
    connection to it.
    """
    from django.db import connections

    if _pool is not None:
        _pool.on_every_thread(connections.close_all)
    from rooms.tables.owner import group_commit_close

    group_commit_close()


_check_kept_connection = None


class KeptConnectionCheck:
    """ASGI middleware: before a socket's handshake reads its session, drop a kept connection the database ended.

    Channels' session and auth middleware read the session and the user on
    its one shared thread (``database_sync_to_async``), whose connection is
    kept (``DB_CONN_MAX_AGE``); after a restart or failover of PostgreSQL that
    connection is dead, and the first socket to open after it failed its
    handshake with a server error. One hop to that thread first
    (``statements.drop_if_closed_by_server``: a poll, no round trip) lets the
    read open a new connection. Outside a socket's handshake it does nothing.
    """

    def __init__(self, inner) -> None:
        self.inner = inner  # named as Channels' middleware name theirs

    async def __call__(self, scope, receive, send):
        global _check_kept_connection
        if scope["type"] == "websocket":
            if _check_kept_connection is None:
                _check_kept_connection = DatabaseSyncToAsync(drop_if_closed_by_server)
            await _check_kept_connection()
        return await self.inner(scope, receive, send)


class TableSyncToAsync(DatabaseSyncToAsync):
    """``database_sync_to_async`` for a table socket's calls: the thread knows it serves this event loop.

    So the frames of a change the call commits go straight to this loop's
    fan-out (``fanout.serving``, ``fanout_publish``): this process's sockets
    get them without a Redis round trip, and the thread does not wait for the
    publish to the other processes.
    """

    def thread_handler(self, loop, *args, **kwargs):
        drop_if_closed_by_server()  # a kept connection the database has ended since the last call
        with serving(loop):
            return super().thread_handler(loop, *args, **kwargs)


_wrapped: dict = {}  # without a pool (``TABLE_DB_THREADS`` 0): one wrapper per function


def table_sync_to_async(table_id: int, func):
    """``database_sync_to_async(func)`` in the table's own lane (``table_executor``).

    The wrapper of a plain function (a service) is made once per lane and
    kept with it (so it goes with the lane): building one
    (``functools.update_wrapper`` and checks) for every message was a
    measurable share of the event loop's time.
    """
    executor = table_executor(table_id)
    cacheable = isinstance(func, types.FunctionType)
    kept = _wrapped if executor is None else executor.wrapped
    if cacheable:
        wrapped = kept.get(func)
        if wrapped is not None:
            return wrapped
    if executor is None:
        wrapped = TableSyncToAsync(func)
    else:
        wrapped = TableSyncToAsync(func, thread_sensitive=False, executor=executor)
    if cacheable:
        kept[func] = wrapped
    return wrapped


# Seconds a socket waits for the answer of a move forwarded to another process (``_forwarded``).
FORWARD_WAIT = 5.0


async def serve_forwarded_move(request: dict, withdrawn: Callable[[], bool] = lambda: False) -> dict:
    """Make a move another ASGI process forwarded here: on the kept play on this loop, else in the table's lane.

    Returns the answer's fields: ``seq``, or ``error`` ([code, text] for a
    refusal, in the player's language; None when the database failed, or the
    move was ``withdrawn`` (its asker gave up waiting, and its player was told
    to try again) before it was reached: then it is not made). The player was
    signed in on that process's socket, which checked the message as its own
    moves are checked.
    """
    table_id = int(request["table"])
    if withdrawn():
        return {"error": None}
    try:
        seq = await table_act_kept_here(
            table_id=table_id, user=ActingUser(int(request["user"])), action=request["action"]
        )
        if seq is not None:
            return {"seq": seq}
        return await table_sync_to_async(table_id, _forwarded_move)(
            table_id, int(request["user"]), request["action"], request.get("language"), withdrawn
        )
    except DATABASE_ERRORS:
        logger.warning("table %s: a forwarded move failed on the database", table_id, exc_info=True)
        return {"error": None}


def _forwarded_move(
    table_id: int, user_id: int, action: dict, language: str | None, withdrawn: Callable[[], bool]
) -> dict:
    if withdrawn():
        return {"error": None}
    with translation.override(language or settings.LANGUAGE_CODE):
        try:
            return {"seq": services.table_act(table_id=table_id, user=ActingUser(user_id), action=action)}
        except TableError as exc:
            return {"error": [exc.code, str(exc)]}


fanout.forward_handler = serve_forwarded_move


def _past_session_wrapper(send):
    """The send under Channels' session middleware's: it only ever acts on an HTTP response's start.

    For a socket's messages it only asked the session whether it was modified
    or empty, a lazy object's lookups for every frame sent; the frames of
    every change go through here once per socket.
    """
    wrapper = getattr(send, "__self__", None)
    if isinstance(wrapper, InstanceSessionWrapper) and wrapper.save_message_types == ["http.response.start"]:
        return wrapper.real_send
    return send


class _Failed:
    """Put in a socket's inbox by a source whose receive raised: the consumer raises it in turn."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


async def _pump(source, inbox: asyncio.Queue) -> None:
    """Move every message of ``source`` into ``inbox``, in order (waiting while the inbox is full)."""
    try:
        while True:
            await inbox.put(await source())
    except asyncio.CancelledError:
        raise
    except BaseException as error:  # noqa: BLE001 - handed to the consumer, which raises it
        await inbox.put(_Failed(error))


class TableConsumer(AsyncWebsocketConsumer):
    # The messages this socket understands; a subclass for another kind of table swaps it.
    shapes: dict[str, dict[str, type]] = SHAPES
    seat_unsure = False  # a seat change could not be followed (the database failed); ``resync`` follows it

    async def __call__(self, scope, receive, send) -> None:
        """Handle the socket's, the channel layer's and the table fan-out's messages, one at a time, in order.

        As Channels' own ``__call__``, with a third source, and one inbox for
        all three: the socket's and the channel layer's messages are moved into
        it by a task each, and this process's ``TableFanout`` puts the table's
        ``table.frames`` straight into it (rooms/tables/fanout.py). Each
        message is handled after the previous one, never alongside it.
        Channels' ``await_many_dispatch`` made a new task and an
        ``asyncio.wait`` over every source for each message (a twelfth of the
        event loop's time under load); a table's frames now wake the socket
        once. The fan-out drops a frame for a socket whose inbox is full
        (``INBOX_SIZE``: its client stopped reading, and resyncs on the gap);
        the socket's own messages wait for room instead.
        """
        self.scope = scope
        self.frames_inbox: asyncio.Queue = asyncio.Queue(maxsize=INBOX_SIZE)
        inbox = self.frames_inbox
        self.fanout = None
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        loop = asyncio.get_running_loop()
        pumps = [loop.create_task(_pump(receive, inbox))]
        try:
            if self.channel_layer is not None:
                self.channel_name = await self.channel_layer.new_channel()
                self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
                pumps.append(loop.create_task(_pump(self.channel_receive, inbox)))
            self.base_send = _past_session_wrapper(send)
            dispatch = self.dispatch
            while True:
                message = await inbox.get()
                if type(message) is _Failed:
                    raise message.error
                await dispatch(message)
        except StopConsumer:
            pass
        except Exception:
            # The socket ends without ``disconnect``: a handler failed, the channel layer's Redis
            # went away, or (most often) a frame was sent after the client had gone, which
            # uvicorn answers with ``ClientDisconnected`` and then drops without a word. Do what
            # ``disconnect`` does: else the player would count as connected for as long as this
            # process lives (the presence sweep drops dead processes' names only), and the
            # table's group and this process's fan-out would go on feeding a socket nobody reads.
            try:
                await self.disconnect(CLOSE_FAILED)
            except Exception:  # noqa: BLE001 - the failure that ended the socket is the one to raise
                logger.exception("table %s: could not record the close of a failed socket", self.table_id)
            raise
        finally:
            self._end_here()  # however the socket ended: closed, refused or failed
            for pump in pumps:
                pump.cancel()
            await asyncio.gather(*pumps, return_exceptions=True)
            if self.channel_layer is not None and hasattr(self, "channel_name"):
                _layer_buffer_forget(self.channel_layer, self.channel_name)

    def _end_here(self) -> None:
        """Drop what this process keeps for the socket, its table's lane last (idempotent; ``_end_local``)."""
        self._end_local()
        if getattr(self, "lane_held", False):
            self.lane_held = False
            table_release(self.table_id)

    def _end_local(self) -> None:
        """Stop the socket's timers, take its inbox out of the fan-out and uncount it (idempotent).

        Nothing here waits or can fail, so it runs on every path a socket ends
        by, before anything that may (the database, Redis).
        """
        self._session_watch_stop()
        if getattr(self, "held_timer", None) is not None:
            self.held_timer.cancel()
            self.held_timer = None
        if getattr(self, "fanout", None) is not None:
            self.fanout.discard(self.table_id, self.frames_inbox)
        self._uncount()

    async def dispatch(self, message) -> None:
        """Run the message's handler in the socket owner's language.

        Errors and notices go out in that language; the consumer and the
        services it calls in threads share this context. Unlike Channels' own
        ``dispatch`` this does not first hop to Channels' shared sync thread to
        close that thread's stale database connections: every database call of
        these sockets runs through ``DatabaseSyncToAsync`` (``_db``), which
        closes them in the thread that uses them, before and after each call.
        The hop cost one thread round trip per message on one thread shared by
        the whole process, i.e. one per socket for every change of a table.

        A table's frames for this socket's own seat (or the spectators') are
        text already written: they are sent without switching the language,
        which cost a twelfth of the event loop's time, a switch per socket for
        every change.
        """
        if message["type"] == "table.frames":
            frames = self._frames_of(message)
            if frames is not None:
                await self._in_order(message["seq"], frames)
                return
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        language = getattr(self, "language", None)
        if language is None:
            language = self.language = scope_language(self.scope)  # the scope never changes
        with translation.override(language):
            await handler(message)

    def _hold_table(self) -> None:
        """Keep this table's lane while the socket lives (``table_hold``; ``_end_here`` lets it go)."""
        table_hold(self.table_id)
        self.lane_held = True

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self._hold_table()
        self.user = self.scope.get("user")
        self.group: str | None = None  # the table's group, once this socket follows the table
        self.seat: int | None = None
        self.recorded = False  # this socket's channel is in its seat's ``sockets``
        self.seq = 0
        self.held: dict[int, list[str]] = {}  # frames that arrived ahead of a missing seq
        self.held_timer: asyncio.TimerHandle | None = None
        self.sending = asyncio.Lock()
        self.last_act_seq: int | None = None
        self.tokens = float(RATE_PER_SECOND)
        self.refilled = bucket_clock()
        self.refused = 0
        self._session_watch_init()
        # Read at every frame the socket is handed (``_frames_of``): through the scope's lazy
        # user that was a proxy's two calls each, ~1.5% of a serving process under load.
        self.user_id: int | None = self.user.pk if self.user is not None else None
        if self.user is None or not self.user.is_authenticated:
            await self.accept()  # accept first: a close code can only follow an open socket
            await self.close(code=CLOSE_ANONYMOUS)
            return
        if await self._refused_over_cap():
            return
        # A house-banked table's socket is /ws/rounds/<id>/; here it is no table (its row lock
        # serialises the round's bets, and this socket would take it for nothing).
        seated = Table.objects.filter(pk=self.table_id, tier__game__family="seated")
        try:
            exists = await self._db(seated.exists)()
        except DATABASE_ERRORS:
            await self._refuse_for_now(opened=False)
            return
        if not exists:
            await self.accept()
            await self.close(code=CLOSE_NO_TABLE)
            return
        timers_ensure_started()
        try:
            await heartbeat_ensure_started(self.channel_layer)  # this process's sockets count as alive
        except Exception:  # noqa: BLE001 - the next beat retries; the key outlives a missed one
            logger.warning("could not mark this ASGI process alive", exc_info=True)
        # Mark the seat connected before the socket opens, so no timer plays for a player
        # whose page is already there.
        opened = False
        try:
            self.recorded = await self._db(services.table_presence)(
                table_id=self.table_id, user=self.user, connected=True, channel=self.channel_name
            )
            await self.accept()
            opened = True
            await self._follow_seat()
        except DATABASE_ERRORS:
            await self._refuse_for_now(opened=opened)  # a recorded name goes with ``disconnect``
            return
        self._session_watch_arm()

    async def _refuse_for_now(self, *, opened: bool) -> None:
        """The database failed while the socket opened: close it with 1013, which the page retries.

        Before, the failure ended the handshake (the browser saw 1006) or the
        open socket (1011) with a server error logged for a passing outage. A
        socket whose connect was not recorded on its seat cannot go on: timers
        would play for a player whose page is there.
        """
        await self._database_failed("a socket's connect", tell=False)
        if not opened:
            await self.accept()  # a close code can only follow an open socket
        await self.close(code=CLOSE_TRY_AGAIN)

    async def disconnect(self, code: int) -> None:
        """The socket closed (or failed, ``__call__``): forget it here, on its seat, then in the table's group.

        Safe to run twice. The seat comes before the group: the group lives in
        Redis, which may be what failed, and the seat must never keep the name.
        """
        self._end_local()
        await self._forget_socket()
        group, self.group = getattr(self, "group", None), None
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def _forget_socket(self) -> None:
        """Take this socket's name off its seat (the seat goes away with its last one); retry while the database fails."""
        if getattr(self, "seat", None) is None and not getattr(self, "recorded", False):
            return
        self.seat, self.recorded = None, False  # once, whoever asks first (``disconnect`` may run twice)
        try:
            await self._db(services.table_presence)(
                table_id=self.table_id, user=self.user, connected=False, channel=self.channel_name
            )
        except TableError:
            pass
        except DATABASE_ERRORS:
            # Left on the seat, the name would keep the player connected for as long as this
            # process lives: try again from this process's loop until the database answers.
            logger.warning(
                "table %s: could not record a socket's close; retrying", self.table_id, exc_info=True
            )
            task = asyncio.get_running_loop().create_task(
                _forget_later(self.table_id, self.user, self.channel_name), name="table-socket-forget"
            )
            _forgetting.add(task)
            task.add_done_callback(_forgetting.discard)

    def _db(self, func):
        return table_sync_to_async(self.table_id, func)

    # --- incoming -------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._take_token():
            self.refused += 1
            if self.refused >= MAX_REFUSED_IN_A_ROW:
                await self.close(code=CLOSE_FLOODING)
                return
            await self._error("rate_limited", _("Too many messages; slow down."))
            return
        self.refused = 0
        try:
            ended = await self._session_ended()
        except DATABASE_ERRORS:
            # Not known whether the session still signs the user in: the message is refused
            # below (once its ``ref`` is known) rather than run unchecked; asked again next time.
            await self._database_failed("a session check", tell=False)
            ended = None
        if ended:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        if text_data is None:
            await self._error("malformed", _("Messages must be JSON text."))
            return
        if len(text_data.encode()) > MAX_FRAME_BYTES:
            await self._error("too_large", _("That message is too large."))
            return
        try:
            message = json.loads(text_data)
            if "\\u" in text_data:
                # An escape may decode to a lone surrogate ("\\ud800"), which is no text: echoed in a
                # refusal (say, as a card's name), the reply could not be encoded and the socket died.
                json.dumps(message, ensure_ascii=False).encode()
        except (ValueError, RecursionError):  # RecursionError: nesting deeper than the decoder allows
            await self._error("malformed", _("That message is not valid JSON."))
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self._error("malformed", _("A message must be an object with a type."))
            return
        kind = message["type"]
        shape = self.shapes.get(kind)
        if shape is None:
            await self._error("unknown_type", _("Unknown message type."))
            return
        ref = message.get("seq") if kind == "act" and _is_int(message.get("seq")) else None
        extra = set(message) - {"type", *shape}
        wrong = [k for k, t in shape.items() if not _has_type(message.get(k), t)]
        if extra or wrong:
            await self._error("malformed", _("That message has missing or unexpected fields."), ref=ref)
            return
        # A well-formed message's refusal answers its seq (an act's or a bet's): before, a failed
        # bet's ``unavailable`` came with ``ref`` null.
        ref = message.get("seq")
        if ended is None:
            await self._tell_unavailable(ref)
            return
        try:
            await getattr(self, f"on_{kind}")(message)
        except DATABASE_ERRORS:
            await self._database_failed(f"a {kind} call", ref=ref)

    async def _database_failed(self, what: str, *, ref: int | None = None, tell: bool = True) -> None:
        """The database connection failed under ``what`` (called in its ``except DATABASE_ERRORS``).

        PostgreSQL rolled its transaction back (had the COMMIT itself gone
        through, the change's broadcast says so) and the thread drops the broken
        connection after the call. The socket stays: it is logged as a warning
        and, with ``tell``, the player gets error ``unavailable`` and may try again.
        """
        logger.warning("table %s: %s failed on the database", self.table_id, what, exc_info=True)
        if tell:
            await self._tell_unavailable(ref)

    async def _tell_unavailable(self, ref: int | None) -> None:
        await self._error(
            "unavailable", _("The server could not do that just now. Please try again."), ref=ref
        )

    # --- how many sockets a user holds ------------------------------------------------

    async def _refused_over_cap(self) -> bool:
        """Close this socket (4429) if its user already holds the most sockets allowed here; else count it.

        Counted before any await, so sockets opened at the same moment cannot all
        slip under the cap; ``__call__`` uncounts it when the socket ends.
        """
        limit = int(getattr(settings, "TABLE_SOCKETS_PER_USER", MAX_SOCKETS_PER_USER))
        if limit > 0 and _sockets_per_user[self.user_id] >= limit:
            await self.accept()
            await self.close(code=CLOSE_TOO_MANY_SOCKETS)
            return True
        _sockets_per_user[self.user_id] += 1
        self.counted_user = self.user_id
        return False

    def _uncount(self) -> None:
        user_id = getattr(self, "counted_user", None)
        if user_id is None:
            return
        self.counted_user = None
        _sockets_per_user[user_id] -= 1
        if _sockets_per_user[user_id] <= 0:
            del _sockets_per_user[user_id]

    # --- the session ---------------------------------------------------------------

    def _session_watch_init(self) -> None:
        self.session_checked = time.monotonic()  # the handshake has just checked it
        self.session_timer: asyncio.TimerHandle | None = None

    def _session_watch_arm(self) -> None:
        """Ask again in ``TABLE_SESSION_RECHECK`` seconds, through the inbox, even if the client sends nothing."""
        delay = session_recheck_seconds()
        if delay > 0:
            self.session_timer = asyncio.get_running_loop().call_later(delay, self._session_check_due)

    def _session_check_due(self) -> None:
        try:
            self.frames_inbox.put_nowait({"type": "session.check"})
        except asyncio.QueueFull:  # the socket is busy: ask at the next interval
            self._session_watch_arm()

    def _session_watch_stop(self) -> None:
        timer = getattr(self, "session_timer", None)
        if timer is not None:
            timer.cancel()
            self.session_timer = None

    async def _session_ended(self, *, force: bool = False) -> bool:
        """Whether the session no longer signs this socket's user in (asked at most every recheck interval).

        The handshake reads the session once; without asking again a socket
        stayed signed in after its player logged out or changed their password
        (say, to shut out someone who had stolen the session cookie), or after
        staff disabled the account, and kept playing and seeing the seat's cards.
        """
        now = time.monotonic()
        if not force and now - self.session_checked < session_recheck_seconds():
            return False
        previous, self.session_checked = self.session_checked, now
        key = (self.scope.get("cookies") or {}).get(settings.SESSION_COOKIE_NAME)
        try:
            return await self._db(session_user_id)(key) != self.user_id
        except DATABASE_ERRORS:
            self.session_checked = previous  # not asked: ask again before the next message
            raise

    async def session_check(self, event: dict) -> None:
        """The recheck interval passed: close the socket (4401) if its session has ended."""
        self.session_timer = None
        try:
            ended = await self._session_ended(force=True)
        except DATABASE_ERRORS:
            # A silent socket has nothing to be told; its next message is refused until a check
            # answers (``receive``), and the timer asks again at the next interval.
            await self._database_failed("a session recheck", tell=False)
            ended = False
        if ended:
            await self.close(code=CLOSE_ANONYMOUS)
            return
        self._session_watch_arm()

    def _take_token(self) -> bool:
        now = bucket_clock()
        self.tokens = min(float(RATE_PER_SECOND), self.tokens + (now - self.refilled) * RATE_PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def on_act(self, message: dict) -> None:
        seq = message["seq"]
        if self.last_act_seq is not None and seq <= self.last_act_seq:
            await self._error("stale_seq", _("That action was already sent."), ref=seq)
            return
        self.last_act_seq = seq
        action = message["action"]
        if not isinstance(action.get("type"), str):
            await self._error("malformed", _("An action must have a type."), ref=seq)
            return
        if await self._forwarded(action, seq):
            return
        if await table_act_kept_here(table_id=self.table_id, user=self.user, action=action) is not None:
            return  # made on this process's kept play, on this loop (rooms/tables/owner.py)
        await self._call(services.table_act, ref=seq, action=action, client_seq=seq)

    async def _forwarded(self, action: dict, ref: int) -> bool:
        """Have the process chosen to keep the table's play make this move; False: make it here.

        That process (``TableFanout.keeper``) makes all the table's moves on its
        kept play (rooms/tables/owner.py): the move costs it no read and joins
        its group commit, where made here it would take the locking path and
        make that process's next move take it too. Its frames come back as
        every change's do; a refusal comes as its answer. A keeper known gone
        (its liveness lapsed, it said it stops) is never chosen, and a move
        nobody received (no process listens on its channel: it died) is made
        here at once. No answer in time: the player is told to try again (the
        move may or may not have been made there), and this process stops
        choosing that one for the table until it hears from it again.
        """
        hub = self.fanout
        keeper = hub.keeper(self.table_id) if hub is not None else None
        if keeper is None or not kept_play_enabled():
            return False
        request = {"table": self.table_id, "user": self.user_id, "action": action, "language": self.language}
        answer = await hub.forward(keeper, request, getattr(settings, "TABLE_FORWARD_WAIT", FORWARD_WAIT))
        if answer is fanout.UNHEARD:
            return False  # nobody received it, so nobody made it: made here
        error = None if answer is None else answer.get("error", ())
        if error is None:
            hub.keeper_gone(self.table_id, keeper)
            await self._tell_unavailable(ref)
        elif error:
            code, text = error
            await self._error(code, text, ref=ref)
        return True

    async def on_resync(self, message: dict) -> None:
        if self.seat_unsure:
            await self._follow_seat()  # a seat change this socket could not follow
            return
        await self._send_state(after_changes=True)

    async def on_ready(self, message: dict) -> None:
        await self._call(services.table_ready)

    async def on_trustee(self, message: dict) -> None:
        await self._call(services.table_trustee, on=message["on"])

    async def on_leave(self, message: dict) -> None:
        await self._call(services.table_leave)

    async def on_ping(self, message: dict) -> None:
        await self._send({"type": "pong", "seq": self.seq})

    async def _call(self, service, *, ref: int | None = None, **kwargs) -> None:
        from rooms.errors import EntryRefused

        try:
            await self._db(service)(table_id=self.table_id, user=self.user, **kwargs)
        except TableError as exc:
            await self._error(exc.code, str(exc), ref=ref)
        except EntryRefused as exc:
            await self._error("entry_refused", str(exc), ref=ref)

    # --- outgoing -------------------------------------------------------------

    async def table_frames(self, event: dict) -> None:
        """Send this socket's frames of a change (serialised once by the sender), or follow a seat change."""
        frames = self._frames_of(event)
        if frames is None:
            await self._refollow_seat()
            return
        await self._in_order(event["seq"], frames)

    def _frames_of(self, event: dict) -> list[str] | None:
        """This socket's frames in a ``table.frames`` message; None when its user's seat changed."""
        mine = self.user_id
        if self.seat is None:
            return event["watch"] if mine not in event["seat_users"] else None
        for index, user_id, seat_frames in event["seats"]:
            if index == self.seat:
                return seat_frames if user_id == mine else None
        return None

    async def table_resync(self, event: dict) -> None:
        """This process's fan-out lost Redis for a while: send the whole current state at once.

        Unlike a ``resync``'s answer it does not wait for changes on their way
        (``_send_state``): those published while Redis was lost never come.
        """
        if self.group is not None:
            try:
                await self._send_state()
            except DATABASE_ERRORS:
                await self._database_failed("a resync after a lost subscription")

    async def table_event(self, event: dict) -> None:
        """Forward a broadcast built per group, unless it shows this user's seat changed (then follow it)."""
        mine = self.user_id
        if (self.seat is not None and event.get("user") != mine) or (
            self.seat is None and mine in event.get("seat_users", ())
        ):
            await self._refollow_seat()
            return
        texts = []
        for payload in event["events"]:
            if payload["type"] == "state" and self.seat is None:
                payload = {**payload, "you": {**payload["you"], "balance": None}}
            texts.append(frame_text(payload))
        seq = event["events"][0].get("seq") if event["events"] else None
        if not isinstance(seq, int):
            for text in texts:
                await self.send(text_data=text)
            return
        await self._in_order(seq, texts)

    async def _in_order(self, seq: int, texts: list[str]) -> None:
        """Send a change's frames in seq order: one that skips a seq waits a moment for the missing one.

        A table's changes reach a socket from more than one process: the ASGI
        process that made the change, another ASGI process, and the settlement
        worker (after its commit, a batch of tables at a time). So a later change can
        overtake an earlier one, e.g. another player's ``ready`` (seq N+1) before
        this seat's settled ``state`` and ``result`` (seq N). The client drops an
        older ``state`` and ``result`` (docs/protocol.md), so the player would
        lose the hand's result panel and see the Ready button without it. Every
        socket receives every seq of its table, so a frame ahead of a missing
        seq is held until the missing one arrives, or at most
        ``TABLE_REORDER_WAIT`` seconds, after which it goes out anyway (the
        client sees the gap and resyncs, as before).
        """
        async with self.sending:
            if self.seq and seq > self.seq + 1:
                self.held.setdefault(seq, []).extend(texts)
                if self.held_timer is None:
                    wait = float(getattr(settings, "TABLE_REORDER_WAIT", REORDER_WAIT_SECONDS))
                    self.held_timer = asyncio.get_running_loop().call_later(wait, self._release_later)
                return
            await self._send_texts(seq, texts)
            await self._send_held(everything=False)

    def _release_later(self) -> None:
        self.held_release = asyncio.ensure_future(self._release_held(everything=True))  # keep a reference

    async def _release_held(self, *, everything: bool) -> None:
        try:
            async with self.sending:
                await self._send_held(everything=everything)
        except OSError:
            # The client went away while its frames were held (uvicorn's ClientDisconnected): the
            # socket's close is handled as usual; this task, which nobody awaits, has nothing to
            # send. Raised here, it was logged as "Task exception was never retrieved".
            self.held.clear()

    async def _send_held(self, *, everything: bool) -> None:
        """Send the held frames that are next in order (``everything``: all of them, the wait is over)."""
        while self.held:
            seq = min(self.held)
            if not everything and seq > self.seq + 1:
                break
            await self._send_texts(seq, self.held.pop(seq))
        if not self.held and self.held_timer is not None:
            self.held_timer.cancel()
            self.held_timer = None
        if everything:
            self.held_timer = None

    async def _send_texts(self, seq: int, texts: list[str]) -> None:
        if seq < self.seq:
            # Older than what this socket already sent: a snapshot (connect, resync) read after
            # the change, or later frames released after the wait. The client ignores it (its
            # seq is below the last one), and sent after a newer one it broke the seq order.
            return
        self.seq = seq
        send = self.base_send  # what ``self.send(text_data=...)`` comes to, without its two calls per frame
        for text in texts:
            await send({"type": "websocket.send", "text": text})

    async def _refollow_seat(self) -> None:
        """A broadcast shows this user's seat changed: follow it, or tell the player it could not be followed.

        A database failure here ended the socket (1011). Now the socket stays:
        it keeps showing what it showed, a later change that shows the seat
        changed tries again, and so does the client's ``resync``
        (``seat_unsure``), which the ``unavailable`` error asks for.
        """
        try:
            await self._follow_seat()
        except DATABASE_ERRORS:
            self.seat_unsure = True
            await self._database_failed("following a seat change")

    async def _follow_seat(self) -> None:
        """Note the seat this user holds here (or none: a spectator), follow the table, and resync.

        Every socket listens on the table's group (``table.frames``: one
        message per change for all its viewers; on Redis they come through this
        process's ``TableFanout`` instead, and the group tells settlement that
        somebody listens). The seat and watch groups are gone: no server code
        sends on them any more, and joining one cost a group add and discard
        per socket. ``table.event`` is still handled when it comes on the
        table's group.
        """
        seat = await self._db(selectors.seat_for_user)(user=self.user)
        if seat is not None and seat.table_id != self.table_id:
            url = reverse("tables:table", kwargs={"table_id": seat.table_id})
            await self._send({"type": "moved", "seq": self.seq, "table": seat.table_id, "url": url})
            seat = None
        previous, self.seat = self.seat, seat.index if seat is not None else None
        if self.seat is None:
            self.recorded = False
        elif not self.recorded or (previous is not None and self.seat != previous):
            # The user sat down here while this socket was open (e.g. it connected as a
            # spectator): the seat must count it, or the player is away as soon as they sit.
            self.recorded = await self._db(services.table_presence)(
                table_id=self.table_id, user=self.user, connected=True, channel=self.channel_name
            )
        if self.group is None:
            group = table_group(self.table_id)
            await self.channel_layer.group_add(group, self.channel_name)
            self.group = group
            self.fanout = fanout_for(self.channel_layer)
            if self.fanout is not None:
                await self.fanout.join(self.table_id, self.frames_inbox)  # subscribed when it returns
        self.seat_unsure = False
        await self._send_state()

    async def _send_state(self, *, after_changes: bool = False) -> None:
        """Send this viewer's whole current state (connect, seat change, lost subscription, ``resync``).

        ``after_changes`` (a client's ``resync``): a snapshot more than one
        change ahead of what this socket sent is held like a change that
        overtook the ones before it (``_in_order``). It is read on the table's
        lane, while the changes committed before the read wait in the socket's
        inbox, which it reads only once the read is over (and those of other
        processes, settlement, the clock or another server, come later still).
        So the snapshot could be ahead of changes on their way: the client saw
        the seq jump, took it for a gap and asked again, and under steady
        changes the next answer could be ahead again (the round socket's did so
        under load). The changes in between go out first, the snapshot after
        them (or after ``TABLE_REORDER_WAIT`` if they never come).

        Any other snapshot goes out at once, as on the round socket: a
        connect's has nothing sent before it, and after a lost subscription or
        a seat change the missing changes may never reach this socket (the
        road was cut, or the change that showed the seat was not sent).
        """
        for _attempt in range(3):
            state = await self._db(selectors.table_snapshot)(table_id=self.table_id, user=self.user)
            # Held frames released while the snapshot was read may be newer than it: then read it
            # again rather than send the seq backwards.
            if state["seq"] < self.seq:
                continue
            if after_changes:
                await self._in_order(state["seq"], [frame_text(state)])
                return
            async with self.sending:
                if state["seq"] >= self.seq:
                    await self._send(state)
                    await self._send_held(everything=False)  # held frames the snapshot caught up with
                    return

    async def _send(self, payload: dict) -> None:
        if isinstance(payload.get("seq"), int):
            self.seq = max(self.seq, payload["seq"])
        await self.send(text_data=frame_text(payload))

    async def _error(self, code: str, message: str, *, ref: int | None = None) -> None:
        await self._send({"type": "error", "seq": self.seq, "ref": ref, "code": code, "message": message})


# Seconds after a socket ends at which what reached its channel meanwhile is dropped: longer than
# channels_redis keeps a message (its ``expiry``, 60 s), so nothing sent to it can arrive later.
LAYER_BUFFER_GRACE = 70.0


def _layer_buffer_forget(layer, channel: str) -> None:
    """Drop what channels_redis' layer holds for a channel nobody receives on any more, now and after the grace.

    The layer pulls every message for this process's channels off Redis as one
    stream and files each under its channel (``receive_buffer``, up to its
    capacity, 100, per channel) for the socket that reads it. A message sent to
    a socket's group before the socket left it, but pulled after the socket had
    stopped reading (under load the stream lags by seconds), was filed under a
    channel nobody would ever read, and stayed for the process's life (each
    round socket: every 百家乐 change). Other layers have no such buffer.
    """
    buffer = getattr(layer, "receive_buffer", None)
    if not isinstance(buffer, dict):
        return
    buffer.pop(channel, None)
    asyncio.get_running_loop().call_later(LAYER_BUFFER_GRACE, buffer.pop, channel, None)


FORGET_RETRY_MAX = 30.0  # seconds between the attempts to record a socket's close, at most
_forgetting: set[asyncio.Task] = set()  # those attempts (a task needs a reference to live)


async def _forget_later(table_id: int, user, channel: str) -> None:
    """Record that socket ``channel`` closed, once the database answers again (``TableConsumer._forget_socket``)."""
    delay = 0.5
    while True:
        await asyncio.sleep(delay)
        try:
            await table_sync_to_async(table_id, services.table_presence)(
                table_id=table_id, user=user, connected=False, channel=channel
            )
            return
        except TableError:
            return
        except DATABASE_ERRORS:
            delay = min(delay * 2, FORGET_RETRY_MAX)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _has_type(value, expected: type) -> bool:
    if expected is int:
        return _is_int(value)
    return isinstance(value, expected)
