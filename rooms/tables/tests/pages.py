"""A browser's table page over a real WebSocket, for tests that run real servers (test_proxy.py)."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import defaultdict

from asgiref.sync import sync_to_async
from django.conf import settings

from rooms.tables.models import Table
from rooms.tables.tests.test_consumers import session_cookie

if str(settings.BASE_DIR) not in sys.path:
    sys.path.insert(0, str(settings.BASE_DIR))

from bench.load import act_answered, browser_choice, turn_mark  # noqa: E402

WAIT = 60.0  # seconds: a generous bound on anything a page waits for, to fail a hang and nothing else


def table_seq(table_id: int) -> int:
    return Table.objects.get(pk=table_id).seq


class Page:
    """A browser's table page: one socket at a time, following docs/protocol.md as static/js/socket.js does.

    A reading task applies each ``state`` whose ``seq`` is the last one plus one
    (or any after connecting), asks for a resync on a gap, and opens a new
    socket when the socket closes. ``served_by`` lists the process that
    answered each socket's handshake (HAProxy's ``X-Served-By``). With a
    ``rng`` the page also plays as a person does: on its turn a random action
    among those its state offers (the browser's buttons), one at a time, and
    ready between hands until ``hands`` hands have been dealt to it.
    """

    def __init__(self, user, table_id: int, port: int, *, rng: random.Random | None = None, hands: int = 0):
        self.user, self.table_id, self.port = user, table_id, port
        self.rng, self.hands = rng, hands
        self.cookie: str | None = None
        self.ws = None
        self.reader: asyncio.Task | None = None
        self.state: dict | None = None
        self.awaiting_snapshot = True
        self.changed = asyncio.Event()
        self.served_by: list[str | None] = []
        self.reconnects = 0
        self.errors: list[dict] = []
        self.results = 0
        self.act_seq = 0
        self.pending: dict | None = None  # the act in flight: its ref, action, hand and turn
        self.accepted: dict[int, list[dict]] = defaultdict(list)  # hand id -> my actions applied, in order
        self.ready_sent = False
        self.dealt: set[int] = set()  # the hands seen being played

    # --- the socket ---------------------------------------------------------------------------

    async def open(self) -> None:
        """Connect the page (again), retrying as the browser's backoff does until ``WAIT`` has passed."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidStatus

        if self.cookie is None:
            self.cookie = await sync_to_async(session_cookie)(self.user)
        deadline = time.monotonic() + WAIT
        while True:
            try:
                self.ws = await connect(
                    f"ws://127.0.0.1:{self.port}/ws/tables/{self.table_id}/",
                    origin=f"http://127.0.0.1:{self.port}",
                    additional_headers={"Cookie": f"sessionid={self.cookie}"},
                    open_timeout=10,
                )
                break
            except (OSError, TimeoutError, InvalidStatus) as exc:  # refused, or HAProxy's 503
                assert time.monotonic() < deadline, (
                    f"{self.user.username}: no server took the socket ({exc!r})"
                )
                await asyncio.sleep(0.2)
        self.served_by.append(self.ws.response.headers.get("X-Served-By"))
        self.awaiting_snapshot = True  # the server sends the whole state on connect
        self.act_seq = 0  # an act's seq rises per connection
        self.pending = None
        await self.send({"type": "resync"})  # as the page does on open

    async def start(self) -> None:
        await self.open()
        self.reader = asyncio.create_task(self.read())

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        while True:
            try:
                message = json.loads(await self.ws.recv())
            except ConnectionClosed:
                self.reconnects += 1
                await self.open()
                continue
            await self.receive(message)
            self.changed.set()

    async def send(self, message: dict) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            await self.ws.send(json.dumps(message))
        except ConnectionClosed:
            pass  # the reader opens a new socket; the page asks again from its next state

    async def close(self) -> None:
        if self.reader is not None:
            self.reader.cancel()
            await asyncio.gather(self.reader, return_exceptions=True)
        if self.ws is not None:
            await self.ws.close()

    async def wait_until(self, check, what: str) -> None:
        """Wait until ``check()`` (a coroutine function) holds, checking again after each message (and at
        least every second); fail after ``WAIT`` seconds."""
        deadline = time.monotonic() + WAIT
        while True:
            self.changed.clear()
            if await check():
                return
            if self.reader is not None and self.reader.done():
                self.reader.result()  # the reader failed: show why
            left = deadline - time.monotonic()
            assert left > 0, f"{self.user.username} never saw {what} (at seq {self.seq}, on {self.served_by})"
            try:
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))
            except TimeoutError:
                pass

    async def catch_up(self) -> None:
        """Wait until the page shows the table's current seq (its own reconnect moves the table on too)."""

        async def current() -> bool:
            return self.seq == await sync_to_async(table_seq)(self.table_id)

        await self.wait_until(current, "the table's seq")

    @property
    def seq(self) -> int | None:
        return self.state["seq"] if self.state else None

    # --- the protocol -------------------------------------------------------------------------

    async def receive(self, message: dict) -> None:
        kind = message["type"]
        if kind == "error":
            self.errors.append(message)
            if self.pending is not None and message.get("ref") == self.pending["ref"]:
                self.pending = None  # refused: it changed nothing
                await self.play()
            return
        if kind == "result":
            self.results += 1
            return
        if kind != "state":
            return
        last = self.seq or 0
        if self.awaiting_snapshot or message["seq"] == last + 1:
            self.state = message
            self.awaiting_snapshot = False
            await self.play()
        elif message["seq"] > last + 1:
            self.awaiting_snapshot = True  # a gap: ask for the whole state
            await self.send({"type": "resync"})

    async def play(self) -> None:
        """Do what the player does on this state: note an act answered, then act, or press ready."""
        state = self.state
        seat = state["you"]["seat"]
        hand = state.get("hand")
        if self.pending is not None and act_answered(state, self.pending["turn"], seat):
            self.accepted[self.pending["hand"]].append(self.pending["action"])
            self.pending = None
        if self.rng is None or seat is None or self.pending is not None:
            return
        if hand is not None and hand["status"] == "playing":
            self.dealt.add(hand["id"])
            self.ready_sent = False
            if seat in hand["actors"]:
                action = browser_choice(state["table"]["tier"]["game"], hand, self.rng)
                self.act_seq += 1
                self.pending = {
                    "ref": self.act_seq,
                    "action": action,
                    "hand": hand["id"],
                    "turn": turn_mark(state),
                }
                await self.send({"type": "act", "seq": self.act_seq, "action": action})
            return
        mine = state["table"]["seats"][seat]
        if state["table"]["status"] == "waiting" and not mine["ready"] and not self.ready_sent:
            if len(self.dealt) < self.hands:
                self.ready_sent = True  # once until a hand starts, as the page hides its button
                await self.send({"type": "ready"})
