"""Chaos soak: misbehaving players over real WebSockets against two ASGI servers, a Celery worker and beat.

    .venv/bin/python bench/chaos.py [--seconds 120] [--clients 24] [--games doudizhu,zhajinhua,texas,baccarat]

What it does (bench/README.md has the method and the latest run):

1. Prepares the database named by ``DATABASE_URL`` (default ``cardroom_chaos``,
   created if missing) as ``bench/load.py`` does: migrate, catalogue_sync, one
   room tier ``chaos`` per game with bots on (so a table goes on when its
   players misbehave or walk away), ``--clients`` users ``chaos-00000`` … with
   coins; hands and seats left by an earlier run are refunded and vacated.
2. Starts two uvicorn processes, one Celery worker and beat (the table clock),
   all on ``REDIS_URL``, with ``bench/load.py``'s process handling.
3. Runs the clients for ``--seconds``. Each plays its game legally through the
   protocol of docs/protocol.md (sign in, quick start or 进入, follow ``seq``,
   act on its turn, ready between hands; 百家乐: bet while betting is open) and,
   every few seconds, misbehaves: reconnects mid-hand (to the other server too),
   opens a second tab on the same seat, sends an act twice or replays an old
   one, acts out of turn, sends malformed, binary, deeply nested or oversized
   frames, spams ready and resync, switches 托管 on and off, leaves and comes
   back through quick start, and drops its socket without a close.
4. Stops the clients, waits for the worker to drain (finished hands settled,
   百家乐 payouts made) and checks, printing each verdict:
   - no traceback, ``ERROR`` line or HTTP 5xx in any process's log, and no
     HTTP 5xx or unexpected close code (1011) seen by a client; entries caused
     by PostgreSQL refusing connections (``too many clients already``: its
     ``max_connections`` shared with other work on the host) are printed
     apart and do not count, nor do the 5xx they explain;
   - ``manage.py ledger_check`` finds nothing;
   - every hand that finished is settled exactly once (one ``hand:<id>:settle``
     transaction, none for a cancelled hand), none left unsettled; every 百家乐
     round that showed its result is paid or refunded exactly once;
   - every settled or cancelled hand replays from its seed and log to its stored
     state and outcome (``rooms.tables.verify.hand_verification``, the check of
     the verify page and ``manage.py hand_verify``);
   - no table stuck: no hand whose deadline passed more than ``--stuck-slack``
     seconds ago without a move, no table whose seats were all taken and ready
     without a hand for as long, no hand unsettled for 90 s (sampled during the
     run and at the end);
   - on every socket the ``seq`` of the frames received never decreases;
   - no frame a socket received shows a card of another seat before the rules
     reveal it: each hand is replayed from its seed, every ``state`` frame is
     matched to the step whose view it shows, and the cards in the frame are
     checked against that step with ``rooms/tables/tests/cards_seen.py`` (the
     rule of the hidden-card tests); 百家乐: no card while betting.
   It exits 1 on any violation, 0 otherwise. Every process it started is stopped
   at the end, on an error and on Ctrl-C.
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
import hashlib
import json
import random
import re
import signal
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from bench.load import (
    HOST,
    Browser,
    Processes,
    browser_choice,
    event_loop_run,
    load_average,
    manage,
    servers_wait,
    stack_banner,
    stack_database,
    stack_env,
    worker_wait,
)
from rooms.tables.tests.cards_seen import cards_in, leaked

DEFAULT_DATABASE_URL = "postgres://root@127.0.0.1:5432/cardroom_chaos"
TIER_CODE = "chaos"
USER_PREFIX = "chaos-"
GAMES = ("doudizhu", "zhajinhua", "texas", "baccarat")
PASS = {"type": "pass"}
# Messages a misbehaving client sends as they are (``{seq}`` is filled with a fresh act seq).
JUNK = [
    "not json {",
    "[1, 2, 3]",
    '"act"',
    "null",
    '{"type": "nope"}',
    '{"type": "ACT"}',
    '{"type": "act", "seq": "7", "action": {"type": "pass"}}',
    '{"type": "act", "seq": 1.5, "action": {"type": "pass"}}',
    '{"type": "act", "seq": {seq}, "action": {}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "pass"}, "seat": 0}',
    '{"type": "act", "seq": {seq}, "action": {"type": "play", "cards": [["3s"]]}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "play", "cards": ["\\ud800", "ZZ"]}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "bid", "points": NaN}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "raise", "amount": 1e308}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "raise", "amount": -5}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "bet", "amount": 99999999999999999999999}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "compare", "target": 99}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "compare", "target": -1}}',
    '{"type": "act", "seq": {seq}, "action": {"type": "fold", "seat": 1}}',
    '{"type": "trustee", "on": "yes"}',
    '{"type": "ready", "table": 1}',
    "[" * 2000 + "]" * 2000,
    json.dumps({"type": "ping", "pad": "x" * 5000}),
    json.dumps({"type": "ping", "pad": "字" * 1400}, ensure_ascii=False),
]
ROUND_JUNK = [
    '{"type": "bet", "seq": {seq}, "area": "banker", "amount": -10}',
    '{"type": "bet", "seq": {seq}, "area": "banker", "amount": 0}',
    '{"type": "bet", "seq": {seq}, "area": "banker", "amount": 10.5}',
    '{"type": "bet", "seq": {seq}, "area": "banker", "amount": 99999999999999999999}',
    '{"type": "bet", "seq": {seq}, "area": "moon", "amount": 10}',
    '{"type": "bet", "seq": {seq}, "area": ["banker"], "amount": 10}',
    '{"type": "bet", "seq": {seq}, "area": "banker", "amount": true}',
    '{"type": "act", "seq": {seq}, "action": {"type": "pass"}}',
    '{"type": "ready"}',
]
# Close codes a client may meet without anything being wrong: its own closes and drops, a
# refused extra socket (4429) and the flood guard.
CLOSES_EXPECTED = {1000, 1001, 1005, 1006, 4408, 4429}


def frame_json(template: str, seq: int) -> str:
    return template.replace("{seq}", str(seq))


def view_digest(view) -> bytes:
    """The same digest for equal JSON values, whatever their key order (a frame's view, a replayed one)."""
    return hashlib.blake2b(
        json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(), digest_size=16
    ).digest()


# --- what the run found -------------------------------------------------------------


@dataclass
class Findings:
    """Everything the clients saw that the checks at the end need, and the violations found on the way."""

    violations: list[str] = field(default_factory=list)
    kinds: Counter = field(default_factory=Counter)  # violations by the invariant they break
    counts: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    closes: Counter = field(default_factory=Counter)
    # hand id → [(seat, user id, kind, view digest or None, cards shown)]; kind: live, last, result
    frames: dict[int, list] = field(default_factory=lambda: defaultdict(list))
    cards_while_betting: int = 0
    http_5xx: list[str] = field(default_factory=list)  # judged with the logs, which say why

    def violation(self, text: str, kind: str = "client") -> None:
        self.kinds[kind] += 1
        if len(self.violations) < 200:
            self.violations.append(f"[{kind}] {text}")


# --- one socket -------------------------------------------------------------------


class Socket:
    """One WebSocket of a client (its table, or a second tab), with the seq rule of static/js/socket.js."""

    ids = 0

    def __init__(self, client: Client, *, port: int, tab: str) -> None:
        Socket.ids += 1
        self.id = Socket.ids
        self.client = client
        self.port = port
        self.tab = tab
        self.table_id = client.table_id
        self.ws = None
        self.last: int | None = None  # the client rule's last applied seq
        self.highest: int | None = None  # the highest seq any frame carried (never decreases)
        self.state: dict | None = None
        self.act_seq = 0
        self.acted_on: tuple | None = None  # (hand id, seq) of the state last acted on
        self.reader: asyncio.Task | None = None
        self.closed = asyncio.Event()

    @property
    def path(self) -> str:
        kind = "rounds" if self.client.game == "baccarat" else "tables"
        return f"/ws/{kind}/{self.table_id}/"

    async def open(self) -> bool:
        from websockets.asyncio.client import connect

        origin = f"http://{HOST}:{self.port}"
        try:
            self.ws = await connect(
                f"ws://{HOST}:{self.port}{self.path}",
                origin=origin,
                additional_headers={"Cookie": self.client.browser.cookie_header()},
                open_timeout=60,
                max_size=2**22,
            )
        except (OSError, TimeoutError) as exc:
            self.client.findings.counts["connect_failed"] += 1
            self.client.log(f"socket to {self.path} on {self.port} did not open: {exc!r}")
            self.closed.set()
            return False
        self.client.findings.counts["sockets_opened"] += 1
        self.reader = asyncio.ensure_future(self.read())
        await self.send({"type": "resync"})  # as the browser does on open
        return True

    async def read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                message = await self.ws.recv()
                if isinstance(message, bytes):
                    self.client.findings.violation(f"socket {self.id}: the server sent a binary frame")
                    continue
                try:
                    await self.receive(json.loads(message))
                except Exception as exc:  # noqa: BLE001 - a client bug must not hide the run's findings
                    self.client.findings.violation(
                        f"client {self.client.name}: handling a frame raised {exc!r}"
                    )
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd is not None else 1006
            self.client.findings.closes[code] += 1
            if code not in CLOSES_EXPECTED:
                self.client.findings.violation(
                    f"socket {self.id} ({self.client.name}, {self.path}) closed by the server with {code}",
                    "server",
                )
        finally:
            self.closed.set()

    async def send(self, message) -> bool:
        from websockets.exceptions import ConnectionClosed

        if self.ws is None or self.closed.is_set():
            return False
        text = message if isinstance(message, str | bytes) else json.dumps(message, separators=(",", ":"))
        try:
            await self.ws.send(text)
            return True
        except ConnectionClosed:
            return False

    async def close(self) -> None:
        if self.ws is not None:
            try:
                await asyncio.wait_for(self.ws.close(), 10)
            except (TimeoutError, OSError):
                pass
        await self._reaped()

    async def drop(self) -> None:
        """Cut the TCP connection without a WebSocket close (a lost network, a killed browser)."""
        if self.ws is not None:
            self.ws.transport.abort()
        await self._reaped()

    async def _reaped(self) -> None:
        if self.reader is not None:
            try:
                await asyncio.wait_for(self.reader, 10)
            except (TimeoutError, asyncio.CancelledError):
                self.reader.cancel()
        self.closed.set()

    async def receive(self, msg: dict) -> None:
        findings = self.client.findings
        kind = msg.get("type")
        seq = msg.get("seq")
        if isinstance(seq, int):
            if self.highest is not None and seq < self.highest:
                findings.violation(
                    f"socket {self.id} ({self.client.name}, {self.path}): a {kind} with seq {seq} "
                    f"after seq {self.highest}",
                    "seq",
                )
            self.highest = seq if self.highest is None else max(self.highest, seq)
        findings.counts[f"frames_{kind}"] += 1
        if self.client.game == "baccarat":
            await self.receive_round(msg, kind, seq)
            return
        if kind in ("state", "result", "cancelled"):
            self.record(msg, kind)
        if kind in ("state", "result") and isinstance(seq, int):
            last = self.last
            if kind == "state" and last is not None and seq <= last:
                return
            if kind == "result" and last is not None and seq < last:
                return
            if last is not None and seq > last + 1:
                findings.counts["seq_gaps"] += 1
                await self.send({"type": "resync"})
            self.last = seq if last is None else max(last, seq)
        if kind == "state":
            self.state = msg
            await self.client.on_state(self)
        elif kind == "error":
            self.note_error(msg)
        elif kind == "moved":
            findings.counts["moved"] += 1
            self.client.moved_to = int(msg["table"])

    def note_error(self, msg: dict) -> None:
        """Count an ``error`` by its code; ``unavailable`` (the server's database failed) is a violation."""
        findings = self.client.findings
        findings.errors[msg.get("code", "?")] += 1
        if msg.get("code") == "unavailable":
            findings.violation(
                f"socket {self.id}: error unavailable (the server's database failed)", "server"
            )

    def record(self, msg: dict, kind: str) -> None:
        """Keep what the hidden-card check needs of a frame: whose view, of which hand and step, and its cards."""
        findings = self.client.findings
        user = self.client.user_id
        if kind == "state":
            seat = (msg.get("you") or {}).get("seat")
            hand = msg.get("hand")
            if hand is not None:
                findings.frames[hand["id"]].append(
                    (seat, user, "live", view_digest(hand.get("view")), frozenset(cards_in(msg)))
                )
            elif msg.get("last_hand") is not None:
                findings.frames[msg["last_hand"]["id"]].append(
                    (seat, user, "last", None, frozenset(cards_in(msg)))
                )
            elif cards_in(msg):
                findings.violation(
                    f"socket {self.id}: a state without a hand shows cards {sorted(cards_in(msg))}", "hidden"
                )
        elif isinstance(msg.get("hand"), int):
            findings.frames[msg["hand"]].append((None, user, kind, None, frozenset(cards_in(msg))))

    async def receive_round(self, msg: dict, kind: str, seq) -> None:
        findings = self.client.findings
        if kind == "state":
            rnd = msg.get("round")
            if rnd and rnd.get("phase") == "betting" and (cards_in(rnd.get("cards")) or rnd.get("result")):
                findings.cards_while_betting += 1
                findings.violation(
                    f"socket {self.id}: 百家乐 cards shown while betting: {rnd.get('cards')}", "hidden"
                )
            if isinstance(seq, int):
                if self.last is not None and seq <= self.last:
                    return
                if self.last is not None and seq > self.last + 1:
                    findings.counts["seq_gaps"] += 1
                    await self.send({"type": "resync"})
                self.last = seq
            self.state = msg
            await self.client.on_round_state(self)
        elif kind == "error":
            self.note_error(msg)
        elif kind == "payout":
            findings.counts["payouts"] += 1


# --- one misbehaving player ----------------------------------------------------------------


class Client:
    """A player of one game: plays it legally, and misbehaves every ``chaos_every`` seconds on average."""

    def __init__(
        self, *, name: str, user_id: int, game: str, tier_id: int, ports, args, findings, rng
    ) -> None:
        self.name = name
        self.user_id = user_id
        self.game = game
        self.tier_id = tier_id
        self.ports = ports
        self.args = args
        self.findings = findings
        self.rng = rng
        self.browser = Browser(ports[0])
        self.table_id: int | None = None
        self.main: Socket | None = None
        self.tabs: list[Socket] = []
        self.moved_to: int | None = None
        self.ready_sent_at: int | None = None  # the seq at which ready was last sent
        self.last_action: dict | None = None
        self.last_choices: list = []
        self.pending_acts: set[asyncio.Task] = set()

    def log(self, text: str) -> None:
        if self.args.verbose:
            print(f"  [{self.name}] {text}")

    # HTTP ------------------------------------------------------------------------

    async def http(self, func, *args):
        try:
            return await asyncio.to_thread(func, *args)
        except RuntimeError as exc:
            text = str(exc)
            self.findings.counts["http_refused"] += 1
            if re.search(r"HTTP 5\d\d", text):
                self.findings.http_5xx.append(f"client {self.name}: {text}")
            self.log(text)
            return None

    async def enter(self) -> bool:
        """Quick start (百家乐: 进入); the table the page redirects to becomes this client's."""
        self.browser.port = self.rng.choice(self.ports)
        self.browser.origin = f"http://{HOST}:{self.browser.port}"
        if self.game == "baccarat":
            table = await self.http(self.browser.enter_round, self.game, self.tier_id)
        else:
            table = await self.http(self.browser.quick_start, self.game, self.tier_id)
        if table is None:
            return False
        self.table_id = table
        return True

    # sockets ---------------------------------------------------------------------

    def other_port(self, port: int) -> int:
        return next((p for p in self.ports if p != port), port)

    async def open_main(self, port: int | None = None) -> None:
        self.main = Socket(self, port=port or self.rng.choice(self.ports), tab="main")
        await self.main.open()

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set() and not await self.enter():
            await asyncio.sleep(2)
        if stop.is_set():
            return
        await self.open_main()
        next_chaos = time.monotonic() + self.rng.expovariate(1 / self.args.chaos_every)
        while not stop.is_set():
            await asyncio.sleep(0.2)
            if self.moved_to is not None and self.moved_to != self.table_id:
                self.table_id, self.moved_to = self.moved_to, None
                await self.main.close()
                await self.open_main()
                continue
            if self.main.closed.is_set():  # the socket.js client reconnects with backoff
                await asyncio.sleep(self.rng.uniform(0.2, 1.5))
                await self.open_main()
                continue
            if self.game != "baccarat" and self.unseated():
                # Stood up (away too long, or left): back through quick start, as a player would.
                await asyncio.sleep(self.rng.uniform(0.5, 2))
                await self.leave_and_rejoin(send_leave=False)
                continue
            if time.monotonic() >= next_chaos:
                await self.misbehave()
                next_chaos = time.monotonic() + self.rng.expovariate(1 / self.args.chaos_every)
        for tab in [*self.tabs, self.main]:
            if tab is not None:
                await tab.close()

    def unseated(self) -> bool:
        state = self.main.state if self.main else None
        return bool(state) and state.get("you", {}).get("seat") is None and self.main.last is not None

    # legal play ------------------------------------------------------------------

    async def on_state(self, sock: Socket) -> None:
        state = sock.state
        seat = (state.get("you") or {}).get("seat")
        if seat is None:
            return
        hand = state.get("hand")
        if hand and hand.get("status") == "playing":
            self.ready_sent_at = None
            if seat in hand.get("actors") or []:
                view = hand.get("view") or {}
                self.last_choices = [c for c in view.get("choices") or [] if isinstance(c, dict)]
                # The main tab plays; a second tab plays now and then too (a player with two tabs).
                if sock is self.main or self.rng.random() < 0.3:
                    mark = (hand["id"], state["seq"])
                    if sock.acted_on != mark:
                        sock.acted_on = mark
                        delay = self.rng.uniform(0.05, self.args.think)
                        task = asyncio.ensure_future(self.act_later(sock, hand, mark, delay))
                        self.pending_acts.add(task)
                        task.add_done_callback(self.pending_acts.discard)
            return
        mine = state["table"]["seats"][seat]
        if sock is self.main and state["table"]["status"] == "waiting" and not mine["ready"]:
            if self.ready_sent_at is None or state["seq"] > self.ready_sent_at + 5:
                self.ready_sent_at = state["seq"]
                await sock.send({"type": "ready"})

    async def act_later(self, sock: Socket, hand: dict, mark: tuple, delay: float) -> None:
        await asyncio.sleep(delay)
        if sock.state is None or (sock.state["hand"] or {}).get("id") != mark[0]:
            return
        latest = (sock.state or {}).get("hand") or {}
        seat = (sock.state or {}).get("you", {}).get("seat")
        if latest.get("status") == "playing" and seat in (latest.get("actors") or []):
            hand = latest  # still my turn: choose from what the page shows now
        action = self.choose(hand)
        sock.act_seq += 1
        self.last_action = action
        self.findings.counts["acts_sent"] += 1
        await sock.send({"type": "act", "seq": sock.act_seq, "action": action})

    def choose(self, hand: dict) -> dict:
        return browser_choice(self.game, hand, self.rng)

    async def on_round_state(self, sock: Socket) -> None:
        rnd = sock.state.get("round")
        if sock is not self.main or not rnd or rnd.get("phase") != "betting":
            return
        mark = (rnd["id"], "bet")
        if sock.acted_on == mark or self.rng.random() < 0.3:
            sock.acted_on = mark
            return
        sock.acted_on = mark
        areas = [a["area"] for a in rnd.get("areas") or [] if a.get("open")]
        if not areas:
            return
        tier = sock.state["table"]["tier"]
        chips = [c for c in tier.get("chips") or [tier.get("min_bet", 10)] if c <= 100] or [tier["min_bet"]]
        sock.act_seq += 1
        self.findings.counts["bets_sent"] += 1
        bet = {
            "type": "bet",
            "seq": sock.act_seq,
            "area": self.rng.choice(areas),
            "amount": self.rng.choice(chips),
        }
        self.last_action = bet
        await sock.send(bet)

    # chaos -----------------------------------------------------------------------

    async def misbehave(self) -> None:
        table_moves = [
            ("reconnect", 3),
            ("drop", 3),
            ("tab", 3),
            ("duplicate", 3),
            ("replay", 3),
            ("wrong_turn", 3),
            ("junk", 4),
            ("ready_spam", 2),
            ("trustee", 3),
            ("leave", 2),
            ("resync_storm", 2),
        ]
        round_moves = [
            ("reconnect", 3),
            ("drop", 3),
            ("tab", 3),
            ("duplicate", 3),
            ("junk", 5),
            ("resync_storm", 2),
        ]
        moves = round_moves if self.game == "baccarat" else table_moves
        move = self.rng.choices([m for m, _w in moves], weights=[w for _m, w in moves])[0]
        self.findings.counts[f"chaos_{move}"] += 1
        self.log(f"chaos: {move}")
        await getattr(self, f"chaos_{move}")()

    async def chaos_reconnect(self) -> None:
        port = self.main.port
        await self.main.close()
        await self.open_main(self.other_port(port) if self.rng.random() < 0.5 else port)

    async def chaos_drop(self) -> None:
        port = self.main.port
        await self.main.drop()
        # Sometimes back within the disconnect grace, sometimes after it (the clock plays meanwhile).
        await asyncio.sleep(self.rng.choice([0.1, 1.0, 3.0, 7.0]))
        await self.open_main(self.other_port(port))

    async def chaos_tab(self) -> None:
        tab = Socket(self, port=self.other_port(self.main.port), tab="second")
        if not await tab.open():
            return
        self.tabs.append(tab)

        async def later() -> None:
            await asyncio.sleep(self.rng.uniform(2, 12))
            if self.rng.random() < 0.5:
                await tab.drop()
            else:
                await tab.close()
            if tab in self.tabs:
                self.tabs.remove(tab)

        task = asyncio.ensure_future(later())
        self.pending_acts.add(task)
        task.add_done_callback(self.pending_acts.discard)

    async def chaos_duplicate(self) -> None:
        """Send the same act (or bet) twice with one seq: the second must get stale_seq."""
        sock = self.main
        if self.game == "baccarat":
            areas = [a["area"] for a in ((sock.state or {}).get("round") or {}).get("areas") or []] or [
                "banker"
            ]
            sock.act_seq += 1
            bet = {"type": "bet", "seq": sock.act_seq, "area": self.rng.choice(areas), "amount": 10}
            await sock.send(bet)
            await sock.send(bet)
            return
        hand = (sock.state or {}).get("hand")
        action = self.choose(hand) if hand else dict(PASS)
        sock.act_seq += 1
        message = {"type": "act", "seq": sock.act_seq, "action": action}
        await sock.send(message)
        await sock.send(message)

    async def chaos_replay(self) -> None:
        """The last action again with a new seq (a replay), then an old seq again."""
        sock = self.main
        sock.act_seq += 1
        await sock.send({"type": "act", "seq": sock.act_seq, "action": self.last_action or dict(PASS)})
        await sock.send({"type": "act", "seq": max(1, sock.act_seq - 3), "action": dict(PASS)})

    async def chaos_wrong_turn(self) -> None:
        """Act while it is someone else's turn (or between hands) with something once offered."""
        sock = self.main
        options = self.last_choices or [dict(PASS), {"type": "bid", "points": 3}, {"type": "fold"}]
        for _ in range(self.rng.randint(1, 3)):
            sock.act_seq += 1
            await sock.send({"type": "act", "seq": sock.act_seq, "action": self.rng.choice(options)})

    async def chaos_junk(self) -> None:
        sock = self.main
        junk = JUNK + (ROUND_JUNK if self.game == "baccarat" else [])
        for _ in range(self.rng.randint(1, 4)):
            pick = self.rng.random()
            if pick < 0.1:
                await sock.send(b"\x00\x01binary")
                continue
            sock.act_seq += 1
            await sock.send(frame_json(self.rng.choice(junk), sock.act_seq))

    async def chaos_ready_spam(self) -> None:
        for _ in range(self.rng.randint(3, 8)):
            await self.main.send({"type": "ready"})

    async def chaos_trustee(self) -> None:
        await self.main.send({"type": "trustee", "on": True})
        await asyncio.sleep(self.rng.uniform(0, 6))
        if self.rng.random() < 0.8:
            await self.main.send({"type": "trustee", "on": False})

    async def chaos_resync_storm(self) -> None:
        sock = self.main
        for _ in range(self.rng.randint(10, 30)):  # over the 20/s bucket at times: rate_limited
            await sock.send({"type": "resync"})

    async def chaos_leave(self) -> None:
        await self.leave_and_rejoin(send_leave=True)

    async def leave_and_rejoin(self, *, send_leave: bool) -> None:
        """Leave (refused during a hand: then the page is closed anyway), and come back through quick start."""
        if send_leave:
            await self.main.send({"type": "leave"})
            await asyncio.sleep(self.rng.uniform(0.2, 1.0))
        if self.rng.random() < 0.5:
            await self.main.close()
        else:
            await self.main.drop()
        await asyncio.sleep(self.rng.uniform(0.1, 2.0))
        if await self.enter():
            await self.open_main()
        else:
            await self.open_main(self.main.port)  # refused (e.g. entry rule): back to the old page


# --- the database ---------------------------------------------------------------------


def data_prepare(*, game_slugs: list[str], clients: int) -> tuple[dict[str, int], list[tuple[str, int]]]:
    """Create (or reset) a ``chaos`` tier per game and the users; return tier ids and (username, id)."""
    from platform.accounts.services import user_create

    from django.contrib.auth import get_user_model

    from bench.load import PASSWORD
    from rooms.demo import demo_tiers_for
    from rooms.models import Game, RoomTier
    from rooms.tables import services
    from rooms.tables.errors import TableError
    from rooms.tables.models import Hand, Seat
    from wallets.selectors import wallet_balance
    from wallets.services import wallet_grant

    tiers = {}
    for slug in game_slugs:
        game = Game.objects.get(slug=slug)
        spec = dict(demo_tiers_for(game)[0])
        spec.pop("code")
        spec.update(name="Chaos soak", bots_enabled=True, is_open=True, sort_order=98)
        tier, _ = RoomTier.objects.update_or_create(game=game, code=TIER_CODE, defaults=spec)
        tiers[slug] = tier.pk
    open_hands = Hand.objects.filter(
        table__tier__code=TIER_CODE, status__in=[Hand.Status.PLAYING, Hand.Status.FINISHED]
    )
    for hand_id in list(open_hands.values_list("pk", flat=True)):
        services.hand_cancel(hand_id=hand_id, reason="chaos soak reset")
    for seat in list(Seat.objects.filter(user__username__startswith=USER_PREFIX).select_related("user")):
        try:
            services.table_leave(table_id=seat.table_id, user=seat.user)
        except TableError:
            pass
    User = get_user_model()
    names = [f"{USER_PREFIX}{i:05d}" for i in range(clients)]
    existing = {u.username: u for u in User.objects.filter(username__in=names)}
    users = []
    for name in names:
        user = existing.get(name) or user_create(username=name, password=PASSWORD)
        balance = wallet_balance(user=user)
        if balance < 20_000:
            wallet_grant(
                user=user,
                amount=50_000 - balance,
                key=f"chaos-topup:{uuid.uuid4().hex}",
                reason="chaos top-up",
            )
        users.append((name, user.pk))
    return tiers, users


class StuckWatch:
    """Samples the database during the run: what made no progress for longer than the clock allows."""

    def __init__(self, tier_ids: list[int], slack: float, findings: Findings) -> None:
        self.tier_ids = tier_ids
        self.slack = slack
        self.findings = findings
        self.seen: dict[tuple, float] = {}  # a suspicious condition → when first seen
        self.reported: set[tuple] = set()

    def sample(self, *, final: bool = False) -> None:
        from django.db import connection
        from django.utils import timezone

        from rooms.rounds.models import Round
        from rooms.tables.models import Hand, Table

        now = timezone.now()
        late = now - timezone.timedelta(seconds=self.slack)
        current: dict[tuple, str] = {}
        for pk, count, token, deadline in Hand.objects.filter(
            table__tier_id__in=self.tier_ids, status=Hand.Status.PLAYING, deadline__lt=late
        ).values_list("pk", "action_count", "deadline_token", "deadline"):
            current["hand", pk, count, token] = f"hand {pk}: deadline {deadline:%H:%M:%S} passed, no move"
        for pk, finished in Hand.objects.filter(
            table__tier_id__in=self.tier_ids,
            status=Hand.Status.FINISHED,
            finished_at__lt=now - timezone.timedelta(seconds=90),
        ).values_list("pk", "finished_at"):
            current["unsettled", pk] = f"hand {pk}: finished at {finished:%H:%M:%S}, not settled"
        for table in (
            Table.objects.filter(tier_id__in=self.tier_ids, status=Table.Status.WAITING)
            .exclude(seats__user__isnull=True)
            .exclude(seats__ready=False)
            .exclude(tier__game__family="banker")
        ):
            current["table", table.pk, table.seq] = f"table {table.pk}: every seat taken and ready, no hand"
        for pk, phase, deadline in Round.objects.filter(
            table__tier_id__in=self.tier_ids, phase__in=Round.LIVE_PHASES, deadline__lt=late
        ).values_list("pk", "phase", "deadline"):
            current["round", pk, phase] = f"round {pk}: {phase} deadline {deadline:%H:%M:%S} passed"
        for pk in Round.objects.filter(
            table__tier_id__in=self.tier_ids,
            status=Round.Status.DUE,
            result_at__lt=now - timezone.timedelta(seconds=90),
        ).values_list("pk", flat=True):
            current["due", pk] = f"round {pk}: payout due for 90 s"
        connection.close()
        clock = time.monotonic()
        for key, text in current.items():
            first = self.seen.setdefault(key, clock)
            if (final or clock - first >= self.slack) and key[:2] not in self.reported:
                self.reported.add(key[:2])
                self.findings.violation(f"{text} (seen for {clock - first:.0f} s)", "stuck")
        self.seen = {key: self.seen[key] for key in current}


# --- the checks at the end ---------------------------------------------------------------


# Where a server's log entry starts: a failed request, an error line, an exception.
LOG_ENTRY = re.compile(r"^(?:Internal Server Error|ERROR|CRITICAL|Task \S+ raised|\[[^]]*\] ERROR)")
# What the host, not the code, is to blame for: PostgreSQL's max_connections shared with other work.
ENVIRONMENT = "too many clients already"


def check_logs(logdir: Path, sizes: dict[str, int] | None = None) -> tuple[list[str], list[str]]:
    """Every error entry in the processes' logs, summed up as its first and last lines.

    Returns the entries caused by the code and those caused by the host
    (PostgreSQL refusing connections: ``ENVIRONMENT``), which the report shows
    apart. An entry runs from its first line (``LOG_ENTRY``, or a traceback
    outside any entry) to the next entry. ``sizes`` (bytes per log name) reads
    only each log's first bytes: what was written before the processes were stopped.
    """
    code: list[str] = []
    host: list[str] = []
    for path in sorted(logdir.glob("*.log")):
        with path.open("rb") as log:
            data = log.read(sizes[path.name]) if sizes and path.name in sizes else log.read()
        lines = data.decode(errors="replace").splitlines()
        entries: list[tuple[int, list[str]]] = []
        inside = False
        for i, line in enumerate(lines):
            if LOG_ENTRY.match(line) or (line.startswith("Traceback") and not inside):
                entries.append((i + 1, [line]))
                inside = True
            elif entries and inside:
                entries[-1][1].append(line)
        for number, body in entries:
            last = next((x for x in reversed(body) if x and not x.startswith(" ")), body[0])
            summary = f"{path.name}:{number}: {body[0].strip()[:150]} … {last.strip()[:200]}"
            (host if any(ENVIRONMENT in x for x in body) else code).append(summary)
    return code, host


def replay_states(hand) -> list[dict]:
    """Every state of ``hand`` from its deal to now, re-dealt from its seed as ``hands.hand_start`` deals it."""
    import games
    from games.base import SeatSpec, SeededRng

    engine = games.REGISTRY[hand.game_slug].engine
    seats = [SeatSpec(player_id=p["user"], coins=p["carried"]) for p in hand.players]
    state = engine.new_hand(dict(hand.config), seats, SeededRng(bytes(hand.seed), "hand"))
    states = [state]
    for row in hand.actions.order_by("n"):
        state = engine.on_deadline(state) if row.seat is None else engine.apply(state, row.seat, row.action)
        states.append(state)
    return states


def check_hidden_cards(findings: Findings) -> dict:
    """Match every recorded frame to a replayed step of its hand and look for cards the viewer may not see."""
    import games
    from rooms.tables.models import Hand

    counts = Counter()
    for hand_id, frames in findings.frames.items():
        hand = Hand.objects.filter(pk=hand_id).first()
        if hand is None:
            findings.violation(f"hand {hand_id}: seen in frames, not in the database", "hidden")
            continue
        engine = games.REGISTRY[hand.game_slug].engine
        try:
            states = replay_states(hand)
        except Exception as exc:  # noqa: BLE001 - reported as a violation
            findings.violation(f"hand {hand_id}: its log does not replay: {exc!r}", "replay")
            continue
        players = [p.get("user") for p in hand.players]
        index: dict[tuple, int] = {}
        for k, state in enumerate(states):
            for seat in [None, *range(len(players))]:
                index.setdefault((seat, view_digest(json.loads(json.dumps(engine.view(state, seat))))), k)
        final = states[-1]
        notices = cards_in(hand.outcome or {})
        for seat, user, kind, digest, shown in frames:
            counts["frames"] += 1
            played = seat is not None and 0 <= seat < len(players) and players[seat] == user
            viewer = seat if played else None
            if kind == "live":
                k = index.get((seat, digest))
                if k is None:
                    counts["unmatched"] += 1
                    findings.violation(
                        f"hand {hand_id}: a frame for seat {seat} shows a view of no step", "hidden"
                    )
                    continue
                bad = leaked(engine, hand.game_slug, states[k], viewer, set(shown))
            else:
                bad = leaked(engine, hand.game_slug, final, viewer, set(shown), notices)
            if bad:
                counts["leaks"] += 1
                who = f"seat {seat}" + ("" if played or seat is None else " (a later occupant)")
                findings.violation(
                    f"hand {hand_id} ({hand.game_slug}): a {kind} frame to {who} shows {sorted(bad)}",
                    "hidden",
                )
        counts["hands"] += 1
    return dict(counts)


def check_hands(tier_ids: list[int], since, findings: Findings) -> dict:
    """Settled once, nothing left unsettled, every finished hand replays to what was stored."""
    from rooms.rounds.models import Round
    from rooms.tables.models import Hand
    from rooms.tables.verify import hand_verification
    from wallets.models import LedgerTransaction

    hands = Hand.objects.filter(table__tier_id__in=tier_ids, started_at__gte=since)
    # The tables play on after the clients stop (bots, and the clock for the players who left),
    # so a hand may finish just now: give such a hand the time the worker needs before judging.
    deadline = time.monotonic() + 60
    while hands.filter(status=Hand.Status.FINISHED).exists() and time.monotonic() < deadline:
        time.sleep(1)
    rows = list(hands)  # one reading: hands finishing meanwhile are judged as they were then
    counts = Counter(hand.status for hand in rows)
    keys = Counter(
        LedgerTransaction.objects.filter(reference__in=[f"hand:{hand.pk}" for hand in rows]).values_list(
            "key", flat=True
        )
    )
    for hand in rows:
        settles = keys.get(f"hand:{hand.pk}:settle", 0)
        if hand.status == Hand.Status.SETTLED and settles != 1:
            findings.violation(
                f"hand {hand.pk}: settled with {settles} settlement transactions", "settlement"
            )
        if hand.status == Hand.Status.CANCELLED and settles:
            findings.violation(
                f"hand {hand.pk}: {hand.status} but has a settlement transaction", "settlement"
            )
        if hand.status == Hand.Status.FINISHED:
            findings.violation(
                f"hand {hand.pk}: finished at {hand.finished_at:%H:%M:%S} and still not settled", "settlement"
            )
        if hand.is_over and hand.status != Hand.Status.FINISHED:
            check = hand_verification(hand=hand)
            counts["verified"] += 1
            if not check.ok:
                findings.violation(
                    f"hand {hand.pk}: does not replay to its stored result: {check.problems}", "replay"
                )
    rounds = Round.objects.filter(table__tier_id__in=tier_ids, opened_at__gte=since)
    round_keys = Counter(
        LedgerTransaction.objects.filter(
            reference__in=[f"round:{pk}" for pk in rounds.values_list("pk", flat=True)]
        ).values_list("key", flat=True)
    )
    for rnd in rounds.iterator():
        counts[f"round_{rnd.status}"] += 1
        paid = round_keys.get(f"round:{rnd.pk}:settle", 0) + round_keys.get(f"round:{rnd.pk}:refund", 0)
        if rnd.status in (Round.Status.SETTLED, Round.Status.REFUNDED) and paid != 1:
            findings.violation(
                f"round {rnd.pk}: {rnd.status} with {paid} payout/refund transactions", "settlement"
            )
        if rnd.status == Round.Status.DUE:
            findings.violation(f"round {rnd.pk}: payout still due after the drain", "settlement")
    return dict(counts)


def drained(tier_ids: list[int]) -> bool:
    from django.db import connection

    from rooms.rounds.models import Round
    from rooms.tables.models import Hand

    busy = (
        Hand.objects.filter(table__tier_id__in=tier_ids, status=Hand.Status.FINISHED).exists()
        or Round.objects.filter(table__tier_id__in=tier_ids, status=Round.Status.DUE).exists()
    )
    connection.close()
    return not busy


# --- the run ----------------------------------------------------------------------------


async def clients_run(
    args, *, tiers: dict, users: list, ports: list[int], findings: Findings, procs, watch
) -> dict:
    rng = random.Random(args.seed)
    stop = asyncio.Event()
    slugs = args.games
    clients = [
        Client(
            name=name,
            user_id=user_id,
            game=slugs[i % len(slugs)],
            tier_id=tiers[slugs[i % len(slugs)]],
            ports=ports,
            args=args,
            findings=findings,
            rng=random.Random(rng.getrandbits(64)),
        )
        for i, (name, user_id) in enumerate(users)
    ]
    gate = asyncio.Semaphore(6)

    async def start(client: Client) -> None:
        for attempt in range(5):  # a refused sign-in is tried again, as a person would
            async with gate:
                await client.http(client.browser.sign_in, client.name)
            if "sessionid" in client.browser.cookies or stop.is_set():
                break
            await asyncio.sleep(2**attempt)
        else:
            findings.violation(f"client {client.name}: could not sign in")
            return
        await client.run(stop)

    started = time.monotonic()
    tasks = [asyncio.ensure_future(start(c)) for c in clients]
    end = started + args.seconds
    next_sample = started + 5
    while time.monotonic() < end:
        await asyncio.sleep(1)
        procs.check_alive()
        if time.monotonic() >= next_sample:
            await asyncio.to_thread(watch.sample)
            next_sample = time.monotonic() + 5
    stop.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    for client, result in zip(clients, results, strict=True):
        if isinstance(result, BaseException):
            findings.violation(f"client {client.name} failed: {result!r}")
    for client in clients:
        for task in list(client.pending_acts):
            task.cancel()
    return {"elapsed": time.monotonic() - started, "clients": len(clients)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=120, help="how long the clients misbehave")
    parser.add_argument("--clients", type=int, default=24, help="clients, spread over the games in turn")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game slugs")
    parser.add_argument(
        "--chaos-every", type=float, default=4.0, help="mean seconds between a client's misdeeds"
    )
    parser.add_argument("--think", type=float, default=1.0, help="longest pause before a legal act (seconds)")
    parser.add_argument(
        "--stuck-slack", type=float, default=20.0, help="seconds past a deadline that count as stuck"
    )
    parser.add_argument(
        "--drain", type=float, default=120.0, help="most seconds to wait for the worker at the end"
    )
    parser.add_argument("--port", type=int, default=18300, help="first of the two server ports on 127.0.0.1")
    parser.add_argument("--seed", type=int, default=None, help="seed of the clients' random choices")
    parser.add_argument(
        "--json", type=Path, default=None, help="also write the verdicts and figures to this file"
    )
    parser.add_argument(
        "--keep-logs", action="store_true", help="say where the logs are even when all is well"
    )
    parser.add_argument("--verbose", action="store_true", help="print every client's misdeeds")
    args = parser.parse_args()
    args.games = [g for g in args.games.split(",") if g]
    unknown = set(args.games) - set(GAMES)
    if unknown:
        parser.error(f"unknown games: {sorted(unknown)}")
    if args.seed is None:
        args.seed = random.SystemRandom().getrandbits(32)

    env = stack_env("chaos", DEFAULT_DATABASE_URL)
    logdir = Path(tempfile.mkdtemp(prefix="cardroom-chaos-"))
    procs = Processes(env, logdir)
    signal.signal(signal.SIGTERM, _interrupt)
    findings = Findings()
    try:
        print(
            f"chaos: {args.clients} clients over {', '.join(args.games)} for {args.seconds:.0f} s, seed {args.seed}; "
            + stack_banner(env, logdir)
        )
        stack_database(env)
        from django.utils import timezone

        tiers, users = data_prepare(game_slugs=args.games, clients=args.clients)
        since = timezone.now()
        ports = [args.port, args.port + 1]
        worker_name = procs.start_celery(env["CELERY_QUEUE"])
        for i, port in enumerate(ports):
            procs.start_uvicorn(f"asgi{i}", "platform.asgi:application", port)
        servers_wait(ports, procs)
        worker_wait(worker_name, procs)
        load_before = load_average()
        watch = StuckWatch(list(tiers.values()), args.stuck_slack, findings)
        run = event_loop_run(
            clients_run(
                args, tiers=tiers, users=users, ports=ports, findings=findings, procs=procs, watch=watch
            )
        )
        load_after = load_average()
        print(f"clients stopped after {run['elapsed']:.0f} s; draining (at most {args.drain:.0f} s)")
        deadline = time.monotonic() + args.drain
        while time.monotonic() < deadline and not drained(list(tiers.values())):
            procs.check_alive()
            time.sleep(2)
        watch.sample(final=True)
        procs.check_alive()
        check = manage(env, "ledger_check", check=False)
        ledger = (check.stdout.strip() or check.stderr.strip()).splitlines()[-1:] or ["(no output)"]
        if check.returncode != 0:
            findings.violation(f"ledger_check: {ledger[0]}", "ledger")
        hands = check_hands(list(tiers.values()), since, findings)
        hidden = check_hidden_cards(findings)
        # The logs are judged as they stood before the stop: stopping signals each process group,
        # so a worker's pool child killed in a task logs WorkerLostError, which is the stop's doing.
        before_stop = {path.name: path.stat().st_size for path in logdir.glob("*.log")}
        procs.stop()
        log_lines, host_lines = check_logs(logdir, before_stop)
        for line in log_lines[:40]:
            findings.violation(f"log: {line}", "server")
        # A 5xx the client saw: the host's fault only if every failed request in the logs was.
        if log_lines or len(findings.http_5xx) > len(host_lines):
            for line in findings.http_5xx:
                findings.violation(line, "server")
        for line in host_lines[:20]:
            print(f"host: {line}")
        return report(
            args,
            findings,
            run,
            hands,
            hidden,
            ledger[0],
            log_lines,
            host_lines,
            load_before,
            load_after,
            logdir,
        )
    except KeyboardInterrupt:
        print("\ninterrupted; stopping everything the soak started")
        return 130
    finally:
        procs.stop()


def report(
    args, findings, run, hands, hidden, ledger, log_lines, host_lines, load_before, load_after, logdir
) -> int:
    counts = findings.counts
    chaos = {k.removeprefix("chaos_"): v for k, v in sorted(counts.items()) if k.startswith("chaos_")}
    print()
    print(
        f"chaos soak: {run['clients']} clients, 2 servers, {', '.join(args.games)}, {run['elapsed']:.0f} s, seed {args.seed}"
    )
    print(f"  misdeeds                 {sum(chaos.values())}: {chaos}")
    print(
        f"  sockets opened           {counts['sockets_opened']}; acts sent {counts['acts_sent']}, bets sent "
        f"{counts['bets_sent']}; seq gaps resynced {counts['seq_gaps']}; moved (分组) {counts['moved']}"
    )
    print(f"  refusals received        {dict(findings.errors.most_common())}")
    print(f"  closes seen              {dict(findings.closes)}")
    print(f"  hands (started in run)   {hands}")
    print(f"  frames checked for cards {hidden}")
    print(f"  load average             {load_before} → {load_after}")
    if host_lines:
        print(
            f"  host refusals            {len(host_lines)} log entries: PostgreSQL refused connections (shared host)"
        )
    kinds = findings.kinds
    verdicts = [
        ("no server exception, 5xx or 1011 (logs and clients)", not kinds["server"]),
        ("ledger_check", not kinds["ledger"]),
        ("every finished hand settled exactly once, every round paid once", not kinds["settlement"]),
        ("every settled hand replays to its stored outcome", not kinds["replay"]),
        ("no table stuck", not kinds["stuck"]),
        ("per-socket seq never decreases", not kinds["seq"]),
        ("no hidden card shown before the rules reveal it", not kinds["hidden"]),
        ("the clients themselves ran", not kinds["client"]),
    ]
    print(f"  ledger_check             {ledger}")
    for name, ok in verdicts:
        print(f"  {'OK  ' if ok else 'FAIL'} {name}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "verdicts": dict(verdicts),
                    "violations": findings.violations,
                    "misdeeds": chaos,
                    "counts": dict(counts),
                    "refusals": dict(findings.errors),
                    "hands": hands,
                    "hidden": hidden,
                    "ledger_check": ledger,
                    "host_refusals": host_lines,
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    if findings.violations:
        print(f"\n{sum(kinds.values())} violation(s); the first {len(findings.violations)}:")
        for line in findings.violations:
            print(f"  - {line}")
        print(f"logs kept in {logdir}")
        return 1
    if args.keep_logs:
        print(f"logs in {logdir}")
    print("no violation")
    return 0


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
