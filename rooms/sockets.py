"""What a game's socket does whatever the game: sign-in, limits, messages in, errors out, database calls.

The table socket (rooms/tables/consumers.py) and the round socket
(rooms/rounds/consumers.py) are this class with their own messages. A socket
holds no game state: it checks each message's shape and calls one service in a
thread; what changed reaches it (and every other socket of the table) as a
group message after the commit. docs/protocol.md is the contract.

A table's calls from one process run one at a time, in order (an
``asyncio.Lock`` per table), on a pool of ``TABLE_DB_THREADS`` threads shared
by all tables: so a table's commits, and the broadcasts each sends after its
commit, leave this process in order, while other tables' calls overlap.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import time
import types
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module

from channels.consumer import get_handler_name
from channels.db import DatabaseSyncToAsync
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.contrib.auth import get_user
from django.db import InterfaceError, OperationalError, connections, transaction
from django.urls import re_path
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation.trans_real import get_supported_language_variant, parse_accept_lang_header

from rooms import transport
from rooms.connections import drop_closed_connections
from rooms.errors import EntryRefused, TableError
from rooms.transport import frame_text, send, table_group, user_group

logger = logging.getLogger(__name__)

MAX_FRAME_BYTES = 4096
RATE_PER_SECOND = 20
MAX_REFUSED_IN_A_ROW = 100
MAX_SOCKETS_PER_USER = 8
INBOX_SIZE = 100  # channel messages waiting for one socket; past it, it is sent its whole state instead

CLOSE_ANONYMOUS = 4401
CLOSE_NO_TABLE = 4404
CLOSE_FLOODING = 4408
CLOSE_TOO_MANY_SOCKETS = 4429
CLOSE_TRY_AGAIN = 1013  # the database failed while the socket opened: the page reconnects with backoff

# The database connection failed under a call (PostgreSQL restarted, a backend was terminated):
# PostgreSQL rolled the call's transaction back, and the thread drops the connection.
DATABASE_ERRORS = (OperationalError, InterfaceError)

_sockets_per_user: collections.Counter = collections.Counter()
_table_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
_pool: ThreadPoolExecutor | None = None


def bucket_clock() -> float:
    """The rate limit's clock (a seam for tests)."""
    return time.monotonic()


def _executor() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(
            max_workers=max(1, settings.TABLE_DB_THREADS), thread_name_prefix="table-db"
        )
    return _pool


def pool_shutdown() -> None:
    """Let the pool's threads finish and end, their database connections with them (tests: the test
    database can only be dropped once no thread holds a connection to it)."""
    global _pool
    pool, _pool = _pool, None
    _calls.clear()  # their executor was this pool
    if pool is not None:
        pool.submit(connections.close_all).result()
        pool.shutdown(wait=True)


class _Call(DatabaseSyncToAsync):
    """A socket's call on the pool: its connection checked first, the messages it sends kept for its loop."""

    def thread_handler(self, loop, *args, **kwargs):
        drop_closed_connections()
        with transport.outbox() as sent:
            return super().thread_handler(loop, *args, **kwargs), sent


def database(func):
    """``func`` run on the sockets' thread pool, its stale database connections closed around it; what it
    sends after its commits goes out from this event loop once it returns, in order."""
    call = _calls.get(func)
    if call is None:  # one wrapper per function: making one (its checks and copies) cost every message
        call = _calls[func] = _Call(func, thread_sensitive=False, executor=_executor())

    async def run(*args, **kwargs):
        result, sent = await call(*args, **kwargs)
        if sent:
            transport.send_now(sent)
        return result

    return run


_calls: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def table_lock(table_id: int) -> asyncio.Lock:
    """The lock that orders this process's calls for one table (kept while a socket holds it)."""
    lock = _table_locks.get(table_id)
    if lock is None:
        lock = _table_locks[table_id] = asyncio.Lock()
    return lock


def session_user_id(session_key: str | None) -> int | None:
    """The id of the user this session still signs in (None once logged out, expired, or disabled)."""
    if not session_key:
        return None
    store = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    user = get_user(types.SimpleNamespace(session=store))
    return user.pk if user.is_authenticated else None


def scope_language(scope: dict) -> str:
    """The language the player chose (cookie) or their browser asks for, as pages choose it."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    accept = dict(scope.get("headers") or []).get(b"accept-language", b"").decode("latin-1")
    for code in [cookie] + [lang for lang, _q in parse_accept_lang_header(accept) if lang != "*"]:
        if code:
            try:
                return get_supported_language_variant(code)
            except LookupError:
                continue
    return settings.LANGUAGE_CODE


def _has_type(value, expected: type) -> bool:
    if expected is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, expected)


class GameSocket(AsyncWebsocketConsumer):
    """A socket of one table of ``family``: the messages in ``shapes``, each handled by ``on_<type>``."""

    family = "seated"
    shapes: dict[str, dict[str, type]] = {}
    closing = False
    channel_layer_alias = "sockets use rooms.transport"  # no layer: no channel per socket to subscribe

    async def __call__(self, scope, receive, send) -> None:
        """Channels' consumer loop; a socket that fails (a handler raised, a frame sent after the
        client left) is forgotten as a closed one is, or its player would count as connected."""
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            try:
                await self.disconnect(1011)
            except Exception:  # noqa: BLE001 - the failure that ended the socket is the one to raise
                logger.exception(
                    "table %s: could not forget a failed socket", getattr(self, "table_id", None)
                )
            raise

    async def dispatch(self, message) -> None:
        """Run the message's handler, as Channels does but without its hop to its shared thread to close
        that thread's old connections (every message, each socket's frames of every change included):
        this socket's database calls close their own, on the thread that uses them (``database``)."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.user_id = self.user.pk if self.user is not None else None
        self.language = scope_language(self.scope)
        self.seq = 0
        self.tokens, self.refilled, self.refused = float(RATE_PER_SECOND), bucket_clock(), 0
        self.session_checked = time.monotonic()
        self.watch: asyncio.Task | None = None
        self.joined: list[str] = []
        # The socket's own name (on its seat, its viewer row), and the queue its channels' messages wait in.
        self.socket_id = uuid.uuid4().hex
        self.inbox: asyncio.Queue = asyncio.Queue(maxsize=INBOX_SIZE)
        self.behind = False  # the inbox overflowed: what it dropped is made up by a resync
        self.pump: asyncio.Task | None = None
        if self.user is None or not self.user.is_authenticated:
            await self.refuse(CLOSE_ANONYMOUS)
            return
        limit = int(getattr(settings, "TABLE_SOCKETS_PER_USER", MAX_SOCKETS_PER_USER))
        if limit > 0 and _sockets_per_user[self.user_id] >= limit:
            await self.refuse(CLOSE_TOO_MANY_SOCKETS)
            return
        _sockets_per_user[self.user_id] += 1  # before any await, so sockets opened together all count
        self.counted = True
        self.lock = table_lock(self.table_id)
        try:
            exists = await database(self.table_exists)()
        except DATABASE_ERRORS:
            await self.database_failed("a socket's connect", tell=False)
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        if not exists:
            await self.refuse(CLOSE_NO_TABLE)
            return
        # Listening before the first state is read, so no change after it is missed; what arrives
        # meanwhile waits in the inbox until the socket is accepted and has sent that state.
        for channel in (table_group(self.table_id), user_group(self.user_id)):
            await transport.hub().join(channel, self.take)
            self.joined.append(channel)
        try:
            with translation.override(self.language):
                await self.opened()
        except DATABASE_ERRORS:
            await self.database_failed("a socket's connect", tell=False)
            await self.refuse(CLOSE_TRY_AGAIN)
            return
        self.pump = asyncio.get_running_loop().create_task(self._pump())
        self.watch = asyncio.get_running_loop().create_task(self.watch_session())

    def table_exists(self) -> bool:
        """Whether ``table_id`` is a table of this socket's runtime (a blocking read)."""
        raise NotImplementedError

    async def opened(self) -> None:
        """Record the socket where its runtime keeps sockets, accept it and send the first state."""
        raise NotImplementedError

    async def refuse(self, code: int) -> None:
        """Close with ``code`` (accepted first: a close code can only follow an open socket)."""
        if not self.closing:
            self.closing = True
            await self.accept()
            await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        """The socket closed: stop its clock, leave its channels, forget it (safe to run twice)."""
        self.close_code = code
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None
        pump, self.pump = getattr(self, "pump", None), None
        if pump is not None and pump is not asyncio.current_task():
            pump.cancel()
        if getattr(self, "counted", False):
            self.counted = False
            _sockets_per_user[self.user_id] -= 1
            if _sockets_per_user[self.user_id] <= 0:
                del _sockets_per_user[self.user_id]
        channels, self.joined = getattr(self, "joined", []), []
        for channel in channels:
            await transport.hub().leave(channel, self.take)
        if channels:
            await self.closed()
            self.__dict__.pop("lock", None)  # the table's lock goes with its last socket

    async def closed(self) -> None:
        """Forget the socket where its runtime recorded it."""

    # --- messages from its channels -------------------------------------------------------

    def take(self, message: dict) -> None:
        """The hub hands over a message of one of the socket's channels (queued: never waits)."""
        try:
            self.inbox.put_nowait(message)
        except asyncio.QueueFull:  # the client reads too slowly: it gets its whole state once it catches up
            self.behind = True

    async def _pump(self) -> None:
        """Handle the socket's channel messages in order; a failure ends the socket as a failed handler does."""
        try:
            while True:
                message = await self.inbox.get()
                if self.behind and self.inbox.empty():
                    self.behind = False
                    message = transport.LOST
                handler = getattr(self, get_handler_name(message), None)
                if handler is None:
                    raise ValueError(f"No handler for message type {message['type']}")
                await handler(message)
        except asyncio.CancelledError:
            raise
        except OSError:  # the client went away while a frame was on its way (uvicorn's ClientDisconnected):
            return  # the server hands the socket its disconnect, which forgets it
        except Exception:
            logger.warning(
                "table %s: a socket failed on a message of its channels", self.table_id, exc_info=True
            )
            await self.disconnect(1011)
            if not self.closing:
                self.closing = True
                await self.close(code=1011)

    async def transport_lost(self, message: dict) -> None:
        """Messages may have been lost on the way (the hub's subscription broke): send the whole state."""
        try:
            with translation.override(self.language):
                await self.resync()
        except DATABASE_ERRORS:
            await self.database_failed("a resync after lost messages")

    async def resync(self) -> None:
        """Send the viewer's whole current state."""
        raise NotImplementedError

    # --- the session ----------------------------------------------------------------------

    async def watch_session(self) -> None:
        """Every ``TABLE_SESSION_RECHECK`` seconds: close (4401) once the session has ended, else renew
        the socket's presence (at least every third of ``TABLE_PRESENCE_LEASE``)."""
        recheck = float(getattr(settings, "TABLE_SESSION_RECHECK", 30.0))
        lease = float(getattr(settings, "TABLE_PRESENCE_LEASE", 90.0))
        delay = min(recheck, lease / 3) if recheck > 0 else lease / 3
        while True:
            await asyncio.sleep(delay)
            try:
                if recheck > 0 and await self.session_ended(force=True):
                    await self.refuse_signed_out()
                    return
                await self.renew()
            except DATABASE_ERRORS:
                # A silent socket has nothing to be told; its next message is refused until a
                # check answers, and this asks again at the next interval.
                await self.database_failed("a session recheck", tell=False)

    async def renew(self) -> None:
        """Tell the runtime this socket is still there (its presence lease)."""

    async def session_ended(self, *, force: bool = False) -> bool:
        """Whether the session no longer signs this socket's user in (asked at most once per interval).

        Logging out, changing the password or staff disabling the account also
        closes the socket at once (``user.signed_out``); this catches a session
        that expired or was ended any other way.
        """
        now = time.monotonic()
        if not force and now - self.session_checked < float(getattr(settings, "TABLE_SESSION_RECHECK", 30.0)):
            return False
        previous, self.session_checked = self.session_checked, now
        key = (self.scope.get("cookies") or {}).get(settings.SESSION_COOKIE_NAME)
        try:
            return await database(session_user_id)(key) != self.user_id
        except DATABASE_ERRORS:
            self.session_checked = previous  # not asked: ask again before the next message
            raise

    async def user_signed_out(self, event: dict) -> None:
        """The user logged out in the browser of this socket's session: close it now."""
        key = (self.scope.get("cookies") or {}).get(settings.SESSION_COOKIE_NAME)
        if event.get("session") == key:
            await self.refuse_signed_out()

    async def user_session_check(self, event: dict) -> None:
        """The user's password changed or staff disabled them: close now if this session has ended."""
        try:
            if await self.session_ended(force=True):
                await self.refuse_signed_out()
        except DATABASE_ERRORS:
            await self.database_failed("a session check", tell=False)

    async def refuse_signed_out(self) -> None:
        if not self.closing:
            self.closing = True
            await self.close(code=CLOSE_ANONYMOUS)

    # --- messages in ----------------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return  # closed already (a flood, a session that ended): the rest is not read
        with translation.override(self.language):
            await self._receive(text_data)

    async def _receive(self, text_data: str | None) -> None:
        if not self._take_token():
            self.refused += 1
            if self.refused >= MAX_REFUSED_IN_A_ROW:
                self.closing = True
                await self.close(code=CLOSE_FLOODING)
                return
            await self.error("rate_limited", _("Too many messages; slow down."))
            return
        self.refused = 0
        try:
            ended = await self.session_ended()
        except DATABASE_ERRORS:
            await self.database_failed("a session check", tell=False)
            ended = None  # unknown: the message is refused below rather than run unchecked
        if ended:
            await self.refuse_signed_out()
            return
        message = await self._parse(text_data)
        if message is None:
            return
        ref = message.get("seq")
        if ended is None:
            await self.tell_unavailable(ref)
            return
        try:
            await getattr(self, f"on_{message['type']}")(message)
        except DATABASE_ERRORS:
            await self.database_failed(f"a {message['type']} call", ref=ref)

    async def _parse(self, text_data: str | None) -> dict | None:
        """The message if it is well formed (an object of a known type with exactly its fields), else None."""
        if text_data is None:
            await self.error("malformed", _("Messages must be JSON text."))
            return None
        if len(text_data.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
            await self.error("too_large", _("That message is too large."))
            return None
        try:
            message = json.loads(text_data)
            if "\\u" in text_data:
                # An escape may decode to a lone surrogate ("\\ud800"), which is no text: echoed in a
                # refusal the reply could not be encoded and the socket died.
                json.dumps(message, ensure_ascii=False).encode()
        except (ValueError, RecursionError):
            await self.error("malformed", _("That message is not valid JSON."))
            return None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.error("malformed", _("A message must be an object with a type."))
            return None
        shape = self.shapes.get(message["type"])
        if shape is None:
            await self.error("unknown_type", _("Unknown message type."))
            return None
        seq = message.get("seq")
        ref = seq if _has_type(seq, int) else None
        extra = set(message) - {"type", *shape}
        if extra or not all(_has_type(message.get(k), t) for k, t in shape.items()):
            await self.error("malformed", _("That message has missing or unexpected fields."), ref=ref)
            return None
        return message

    def _take_token(self) -> bool:
        now = bucket_clock()
        self.tokens = min(float(RATE_PER_SECOND), self.tokens + (now - self.refilled) * RATE_PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def on_ping(self, message: dict) -> None:
        """``pong`` with the table's current ``seq``: a client behind it missed a broadcast and resyncs."""
        await self.send_json_text({"type": "pong", "seq": await self.db(self.current_seq)()})

    def current_seq(self) -> int:
        """The table's current event ``seq`` (a blocking read)."""
        raise NotImplementedError

    # --- calls ----------------------------------------------------------------------------

    def db(self, func):
        """``func`` as an awaitable on the pool, after this table's earlier calls from this process."""
        call = database(func)

        async def in_order(*args, **kwargs):
            async with self.lock:
                return await call(*args, **kwargs)

        return in_order

    async def call(self, service, *, ref: int | None = None, **kwargs) -> None:
        """Call a service for this socket's user at its table; a refusal becomes an ``error``."""
        try:
            await self.db(service)(table_id=self.table_id, user=self.user, **kwargs)
        except TableError as exc:
            await self.error(exc.code, str(exc), ref=ref)
        except EntryRefused as exc:
            await self.error("entry_refused", str(exc), ref=ref)

    async def database_failed(self, what: str, *, ref: int | None = None, tell: bool = True) -> None:
        """The database failed under ``what``: logged; with ``tell``, the player may try again."""
        logger.warning("table %s: %s failed on the database", self.table_id, what, exc_info=True)
        if tell:
            await self.tell_unavailable(ref)

    async def tell_unavailable(self, ref: int | None) -> None:
        await self.error(
            "unavailable", _("The server could not do that just now. Please try again."), ref=ref
        )

    # --- frames out -----------------------------------------------------------------------

    async def send_json_text(self, payload: dict) -> None:
        await self.send(text_data=frame_text(payload))

    async def error(self, code: str, message: str, *, ref: int | None = None) -> None:
        await self.send_json_text(
            {"type": "error", "seq": self.seq, "ref": ref, "code": code, "message": message}
        )


class SocketSession:
    """ASGI middleware: the socket's session, from its cookie (``scope["session"]``, read lazily).

    Channels' ``SessionMiddleware`` does the same, and wraps every frame the
    socket sends to save the session on an HTTP response's start: a socket
    never saves it, and the wrapper's checks cost every frame of every change.
    """

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        key = (scope.get("cookies") or {}).get(settings.SESSION_COOKIE_NAME)
        session = import_module(settings.SESSION_ENGINE).SessionStore(key)
        return await self.inner({**scope, "session": session}, receive, send)


class ConnectionCheck:
    """ASGI middleware: before a socket's handshake reads its session and user (on Channels' shared
    thread), a kept connection the database ended meanwhile (a restart, a failover) is dropped, so the
    first socket after it opens (``drop_closed_connections``)."""

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket":
            await DatabaseSyncToAsync(drop_closed_connections)()
        return await self.inner(scope, receive, send)


class UnknownSocket(AsyncWebsocketConsumer):
    """Any other socket path: refused cleanly (closed with 4404), not a server error."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_NO_TABLE)


unknown_socket_route = re_path(r"", UnknownSocket.as_asgi())


# --- signing out closes the user's sockets ------------------------------------------------------


def _tell_sockets(user_id: int, event: dict) -> None:
    send(user_group(user_id), event)


def on_logged_out(sender, request, user, **kwargs) -> None:
    """Logging out closes the sockets this browser's session opened, at once."""
    session = getattr(request, "session", None)
    if user is not None and session is not None and session.session_key:
        _tell_sockets(user.pk, {"type": "user.signed_out", "session": session.session_key})


def on_user_saved(sender, instance, created: bool = False, **kwargs) -> None:
    """A changed password or a disabled account ends sessions: the user's sockets check theirs now."""
    fields = kwargs.get("update_fields")
    if not created and (fields is None or {"password", "is_active"} & set(fields)):
        transaction.on_commit(lambda: _tell_sockets(instance.pk, {"type": "user.session_check"}))
