"""The ASGI app of ``bench/ceiling.py``: 斗地主 tables held in one process's memory, nothing else.

A deliberately minimal server that speaks the table socket's frames of
docs/protocol.md closely enough for ``bench.load.Bot`` to play on it:
``state`` frames with the same keys (``table``, ``hand`` with the engine's
own ``view`` and 提示 ``hint`` for each seat, ``last_hand``, ``you``), ``error``
frames answering a refused ``act`` by its ``ref``, ``ready`` between hands and
``resync``. What it leaves out is everything a real table needs and that
costs time: sign-in and sessions, the database (no row lock, no write, no
commit: a move is lost with the process), the channel layer and Redis, the
turn clock, 托管, rate limits, settlement and the ledger. Its rate is therefore
an upper bound for any design that runs the same engine and frames in
Python behind uvicorn on this host, including the table-owner design that
bench/README.md describes.

With ``CEILING_DATABASE_URL`` set, moves are durable as the table-owner
design would make them: every change (a deal, a move, a seat's readiness)
appends its action to ``ceiling_action`` and its table's state to
``ceiling_hand`` (jsonb, as a hand row holds it), and its frames are held
until the transaction holding it commits. One task commits whatever the
tables changed since its last commit in one transaction (group commit across
tables: changes that arrive during a commit go in the next one, and with
``CEILING_COMMITTERS`` above 1 that many transactions may be in flight), so
no frame reports a move the database could still lose.

The seat comes from a ``ceiling=<table>:<seat>`` cookie; each connection
has an outbox drained by its own task, so frames leave every socket in the
order the table made them. Run by ``bench/ceiling.py`` as
``uvicorn bench.ceiling_server:app``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
import time

from games import REGISTRY
from games.base import IllegalAction, SeatSpec, SeededRng

GAME = REGISTRY["doudizhu"]
ENGINE = GAME.engine
SEATS = 3
COINS = 100_000
ENCODE = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


class Table:
    """One table: its seats' outboxes, readiness, the hand in play and the last one."""

    def __init__(self, table_id: int) -> None:
        self.id = table_id
        self.seq = 0
        self.outboxes: list[asyncio.Queue | None] = [None] * SEATS
        self.ready = [False] * SEATS
        self.state: dict | None = None
        self.number = 0
        self.seed = b""
        self.seed_sha256 = ""
        self.last: dict | None = None
        self.turn_stamp = 0
        self.held: list[tuple[int, str]] = []  # frames (seat, text) waiting for their commit
        self.actions: list[tuple] = []  # changes not yet committed: (number, seq, seat, action text)

    # -- what every seat is sent ----------------------------------------------------------

    def _table_part(self) -> dict:
        return {
            "id": self.id,
            "status": "playing" if self.state is not None else "waiting",
            "tier": {"id": 1, "game": "doudizhu", "game_name": "斗地主", "name": "ceiling",
                     "base_stake": 1, "rake_bps": 500},
            "seats": [
                {"index": i, "name": f"ceiling-{self.id}-{i}", "is_bot": False, "ready": self.ready[i],
                 "trustee": False, "connected": self.outboxes[i] is not None, "level": 1,
                 "carried": COINS if self.state is not None else None}
                for i in range(SEATS)
            ],
        }  # fmt: skip

    def frame(self, seat: int, table_part: dict) -> str:
        hand = None
        if self.state is not None:
            actors = ENGINE.actors(self.state)
            hand = {
                "id": self.id * 1_000_000 + self.number,
                "number": self.number,
                "status": "playing",
                "deadline": self.turn_stamp,
                "actors": actors,
                "auto": [],
                "view": ENGINE.view(self.state, seat),
                "hint": ENGINE.hint(self.state, seat) if seat in actors else None,
                "seed_sha256": self.seed_sha256,
            }
        return ENCODE(
            {
                "type": "state",
                "seq": self.seq,
                "table": table_part,
                "hand": hand,
                "last_hand": self.last,
                "you": {"seat": seat, "balance": COINS, "trustee": False},
            }
        )

    def broadcast(self, seat: int, action: dict, extra: str | None = None) -> None:
        """Number a change by ``seat`` and queue every connected seat's frame of it (then ``extra``).

        With a committer the frames wait for the commit of the change.
        """
        self.seq += 1
        table_part = self._table_part()
        frames = [
            (i, self.frame(i, table_part)) for i, outbox in enumerate(self.outboxes) if outbox is not None
        ]
        if extra is not None:
            frames += [(i, extra) for i, outbox in enumerate(self.outboxes) if outbox is not None]
        if COMMITTER is None:
            self.release(frames)
            return
        self.held += frames
        self.actions.append((self.number, self.seq, seat, ENCODE(action)))
        COMMITTER.changed(self)

    def release(self, frames: list[tuple[int, str]]) -> None:
        outboxes = self.outboxes
        for seat, text in frames:
            outbox = outboxes[seat]
            if outbox is not None:
                outbox.put_nowait(text)

    # -- what a seat does ---------------------------------------------------------------

    def deal(self) -> None:
        self.number += 1
        self.seed = secrets.token_bytes(32)
        self.seed_sha256 = hashlib.sha256(self.seed).hexdigest()
        seats = [SeatSpec(player_id=self.id * SEATS + i, coins=COINS) for i in range(SEATS)]
        self.state = ENGINE.new_hand({}, seats, SeededRng(self.seed, f"hand:{self.number}"))
        self.ready = [False] * SEATS
        self.turn_stamp = int(time.time() * 1000)

    def act(self, seat: int, ref, action) -> str | None:
        """Apply ``seat``'s action; return an error frame's text when it is refused, else None."""
        state = self.state
        if state is None or seat not in ENGINE.actors(state):
            return ENCODE({"type": "error", "code": "not_your_turn", "ref": ref, "message": "not your turn"})
        if not isinstance(action, dict):
            return ENCODE({"type": "error", "code": "malformed", "ref": ref, "message": "action"})
        try:
            state = ENGINE.apply(state, seat, action)
        except IllegalAction as exc:
            return ENCODE({"type": "error", "code": "illegal", "ref": ref, "message": str(exc)})
        self.turn_stamp += 1  # the turn's deadline moves with every move, as the real clock's does
        outcome = ENGINE.outcome(state)
        if outcome is not None:
            self.last = {
                "id": self.id * 1_000_000 + self.number,
                "number": self.number,
                "status": "finished",
                "view": ENGINE.view(state, None),
                "seed_sha256": self.seed_sha256,
                "seed": self.seed.hex(),
            }
            state = None
        self.state = state
        result = None
        if outcome is not None:
            result = ENCODE(
                {"type": "result", "seq": self.seq + 1, "hand": self.last["id"], "deltas": outcome.deltas}
            )
        self.broadcast(seat, action, result)
        return None

    def mark_ready(self, seat: int) -> None:
        if self.state is not None or self.ready[seat]:
            return
        self.ready[seat] = True
        if all(self.ready) and all(o is not None for o in self.outboxes):
            self.deal()
        self.broadcast(seat, {"type": "ready"})


class Committer:
    """Group commit: one transaction for every change the tables made since the last one, then their frames.

    ``connections`` transactions may be committing at once (a batch starts while the one before
    it commits); each batch's frames are released only after the batch before it released
    its own, so frames keep the tables' order. The state rows are written in table order
    (no deadlock between two batches) and never replaced by an older change's.
    """

    def __init__(self, url: str, connections: int) -> None:
        self.url = url
        self.connections = connections
        self.dirty: dict[int, Table] = {}
        self.wake = asyncio.Event()
        self.tasks: list[asyncio.Task] = []
        self.released: asyncio.Future | None = None  # the newest batch's, set once its frames are out

    def changed(self, table: Table) -> None:
        self.dirty[table.id] = table
        self.wake.set()
        if not self.tasks:
            self.tasks = [asyncio.ensure_future(self.run()) for _ in range(self.connections)]

    async def run(self) -> None:
        import psycopg
        from psycopg.types.json import Jsonb

        async with await psycopg.AsyncConnection.connect(self.url) as conn:
            while True:
                await self.wake.wait()
                if not self.dirty:  # another connection took the batch
                    self.wake.clear()
                    continue
                self.wake.clear()
                tables, self.dirty = sorted(self.dirty.values(), key=lambda t: t.id), {}
                prior, mine = self.released, asyncio.get_running_loop().create_future()
                self.released = mine
                # Taken together, before the first await: these rows and frames are exactly this batch's.
                actions, hands, frames = [], [], []
                for table in tables:
                    actions += [(table.id, *row) for row in table.actions]
                    hands.append((table.id, table.number, table.seq, Jsonb(table.state)))
                    frames.append((table, table.held))
                    table.actions, table.held = [], []
                async with conn.transaction(), conn.cursor() as cur:
                    await cur.executemany(
                        "INSERT INTO ceiling_action (table_id, number, seq, seat, action) VALUES (%s, %s, %s, %s, %s)",
                        actions,
                    )
                    await cur.executemany(
                        "INSERT INTO ceiling_hand (table_id, number, seq, state) VALUES (%s, %s, %s, %s) "
                        "ON CONFLICT (table_id) DO UPDATE SET number = excluded.number, seq = excluded.seq, "
                        "state = excluded.state WHERE ceiling_hand.seq < excluded.seq",
                        hands,
                    )
                if prior is not None:
                    await prior
                for table, held in frames:
                    table.release(held)
                mine.set_result(None)


COMMITTER = (
    Committer(os.environ["CEILING_DATABASE_URL"], int(os.environ.get("CEILING_COMMITTERS", "1")))
    if os.environ.get("CEILING_DATABASE_URL")
    else None
)


TABLES: dict[int, Table] = {}


def _seat_of(scope) -> tuple[int, int] | None:
    for name, value in scope.get("headers", ()):
        if name == b"cookie":
            for part in value.decode("latin-1").split(";"):
                key, _, val = part.strip().partition("=")
                if key == "ceiling":
                    table, _, seat = val.partition(":")
                    return int(table), int(seat)
    return None


async def _writer(outbox: asyncio.Queue, send) -> None:
    while True:
        text = await outbox.get()
        await send({"type": "websocket.send", "text": text})


async def _socket(scope, receive, send) -> None:
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    where = _seat_of(scope)
    if where is None or not 0 <= where[1] < SEATS:
        await send({"type": "websocket.close", "code": 4401})
        return
    table_id, seat = where
    table = TABLES.get(table_id) or TABLES.setdefault(table_id, Table(table_id))
    await send({"type": "websocket.accept"})
    outbox: asyncio.Queue = asyncio.Queue()
    table.outboxes[seat] = outbox
    writer = asyncio.ensure_future(_writer(outbox, send))
    try:
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                msg = json.loads(message.get("text") or "")
            except ValueError:
                outbox.put_nowait(ENCODE({"type": "error", "code": "malformed", "message": "not JSON"}))
                continue
            kind = msg.get("type") if isinstance(msg, dict) else None
            if kind == "act":
                error = table.act(seat, msg.get("seq"), msg.get("action"))
                if error is not None:
                    outbox.put_nowait(error)
            elif kind == "ready":
                table.mark_ready(seat)
            elif kind == "resync":
                outbox.put_nowait(table.frame(seat, table._table_part()))
            else:
                outbox.put_nowait(ENCODE({"type": "error", "code": "unknown_type", "message": str(kind)}))
    finally:
        if table.outboxes[seat] is outbox:
            table.outboxes[seat] = None
        writer.cancel()


async def app(scope, receive, send) -> None:
    if scope["type"] == "websocket":
        await _socket(scope, receive, send)
    elif scope["type"] == "http":
        await send(
            {"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]}
        )
        await send({"type": "http.response.body", "body": b"ok"})
