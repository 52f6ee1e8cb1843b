"""The banker table's WebSocket: bets in, the round's state out.

Built on the table socket (framing, size and rate limits, language, errors,
the seq order and its reorder hold); it receives each change of the table as
one ``round.change`` message (rooms/rounds/broadcast.py) through this
process's table fan-out (one pub/sub subscription per table and process,
rooms/tables/fanout.py) or, on any other channel layer, the table's group. It
keeps the newest part of its own user that a change carried (their stakes and
balance) and merges it into each public state when that state goes out, so
every ``state`` it sends is the viewer's whole view; of a change's payouts it
sends only its user's. It holds no game state of its own beyond that part.
"""

from __future__ import annotations

import asyncio
import time

from django.utils.translation import gettext as _

from rooms.rounds import selectors, services
from rooms.rounds.broadcast import viewer_text
from rooms.tables import consumers as table_sockets
from rooms.tables.broadcast import frame_text, table_group
from rooms.tables.consumers import (
    CLOSE_ANONYMOUS,
    CLOSE_NO_TABLE,
    DATABASE_ERRORS,
    TableConsumer,
    TableSyncToAsync,
)
from rooms.tables.fanout import fanout_for
from rooms.tables.models import Table
from rooms.tables.timers import timers_ensure_started

# How often a socket that receives broadcasts tells the database it is still there (seconds);
# well inside ROUNDS_VIEWER_STALE_SECONDS.
SEEN_EVERY = 30.0

SHAPES: dict[str, dict[str, type]] = {
    "bet": {"seq": int, "area": str, "amount": int},
    "resync": {},
    "ping": {},
}


def _is_banker_table(table_id: int) -> bool:
    return Table.objects.filter(pk=table_id, tier__game__family="banker").exists()


_readers: dict = {}


def _read(func):
    """``database_sync_to_async(func)`` that first drops a kept connection the database has ended.

    The socket's calls other than a bet (the table check, its presence, the
    snapshot) run on Channels' one shared thread, off the table's lane, so they
    never wait behind the table's queued bets. Channels' own wrapper does not
    notice a connection PostgreSQL ended while idle (a restart, a failover), so
    after one the first such read failed: an open socket's ``resync`` got error
    ``unavailable``, and a connect whose handshake got through
    (``KeptConnectionCheck``) but not its reads was closed with 1013.
    ``TableSyncToAsync`` checks first, as for the table sockets' calls
    (``statements.drop_if_closed_by_server``), and opens a new one.
    """
    wrapped = _readers.get(func)
    if wrapped is None:
        wrapped = _readers[func] = TableSyncToAsync(func)
    return wrapped


class RoundConsumer(TableConsumer):
    shapes = SHAPES

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self._hold_table()
        self.user = self.scope.get("user")
        self.user_id: int | None = self.user.pk if self.user is not None else None  # as the table socket's
        self.groups_joined: list[str] = []
        self.seq = 0
        # The table socket's seq order (``TableConsumer._in_order``): a change ahead of a missing seq
        # is held a moment for it. A held public ``state`` (a dict) is merged with the newest part
        # when it goes out (``_send_texts``), so it shows what the earlier change it waited for
        # brought this user (a bet's stakes).
        self.held: dict[int, list] = {}
        self.held_timer: asyncio.TimerHandle | None = None
        self.sending = asyncio.Lock()
        self.last_bet_seq: int | None = None
        self.part: dict | None = None
        self.present = False
        self.tokens = float(table_sockets.RATE_PER_SECOND)
        self.refilled = table_sockets.bucket_clock()
        self.refused = 0
        self._session_watch_init()
        if self.user is None or not self.user.is_authenticated:
            await self.accept()  # accept first: a close code can only follow an open socket
            await self.close(code=CLOSE_ANONYMOUS)
            return
        self.user_key = str(self.user_id)  # how a change names this user's part and payout
        if await self._refused_over_cap():
            return
        try:
            banker = await _read(_is_banker_table)(self.table_id)
        except DATABASE_ERRORS:
            await self._refuse_for_now(opened=False)
            return
        if not banker:
            await self.accept()
            await self.close(code=CLOSE_NO_TABLE)
            return
        timers_ensure_started()
        group = table_group(self.table_id)
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)
        # On Redis the changes come through this process's one subscription to the table,
        # confirmed before the first state is read, so no change falls between the two.
        self.fanout = fanout_for(self.channel_layer)
        if self.fanout is not None:
            await self.fanout.join(self.table_id, self.frames_inbox)
        opened = False
        try:
            await _read(services.round_presence)(
                table_id=self.table_id, user=self.user, channel=self.channel_name, connected=True
            )
            self.present = True
            self.seen = time.monotonic()
            await self.accept()
            opened = True
            await self._send_state()
        except DATABASE_ERRORS:
            # Unrecorded, the socket would not keep the table dealing: the page reconnects.
            await self._refuse_for_now(opened=opened)  # ``disconnect`` leaves the group and the fan-out
            return
        self._session_watch_arm()

    async def disconnect(self, code: int) -> None:
        """The socket closed (or failed): leave the fan-out, stop watching, then leave the group (safe to run twice).

        The Viewer row comes before the group: the group lives in Redis, which
        may be what failed, and an open row keeps the table dealing for nobody.
        """
        self._end_local()  # the socket's inbox leaves this process's fan-out
        if getattr(self, "present", False):
            self.present = False
            try:
                await _read(services.round_presence)(
                    table_id=self.table_id, user=self.user, channel=self.channel_name, connected=False
                )
            except DATABASE_ERRORS:
                # The row stops counting once it is not seen for ROUNDS_VIEWER_STALE_SECONDS; the
                # groups must still be left.
                await self._database_failed("a socket's close", tell=False)
        groups, self.groups_joined = getattr(self, "groups_joined", []), []
        for group in groups:
            await self.channel_layer.group_discard(group, self.channel_name)

    # --- incoming -------------------------------------------------------------

    async def on_bet(self, message: dict) -> None:
        seq = message["seq"]
        if self.last_bet_seq is not None and seq <= self.last_bet_seq:
            await self._error("stale_seq", _("That bet was already sent."), ref=seq)
            return
        self.last_bet_seq = seq
        await self._call(services.round_bet, ref=seq, area=message["area"], amount=message["amount"])

    # --- outgoing -------------------------------------------------------------

    async def dispatch(self, message) -> None:
        """A change goes out without the language switch (its frames hold no translated text)."""
        if message["type"] == "round.change":
            await self.round_change(message)
            return
        await super().dispatch(message)

    async def round_change(self, event: dict) -> None:
        """Send a change's public state merged with this user's part, and this user's payout, in seq order.

        A table's changes come from more than one process (the ASGI process of
        a bet, another one's, the clock's and the payout worker's), so a later
        change can overtake an earlier one: it is held until the earlier one
        has gone out, at most ``TABLE_REORDER_WAIT``, as on the table socket.
        A payout goes out right after the state of its change, held with it;
        one whose change a later change overtook (the worker's payout and the
        next bet reach the socket by different roads) still goes out, with the
        socket's current seq, so the seq it sends never goes back.
        """
        seq = event["seq"]
        part = event["parts"].get(self.user_key)
        if part is not None and (self.part is None or part["seq"] >= self.part["seq"]):
            self.part = part
        payout = event["payouts"].get(self.user_key)
        if seq < self.seq:
            if payout is not None:
                async with self.sending:
                    await self.send(text_data=frame_text({**payout, "seq": self.seq}))
            return
        frames: list = [event["state"]]  # merged with the newest part as it goes out
        if payout is not None:
            frames.append(frame_text(payout))
        await self._in_order(seq, frames)
        if self.present and time.monotonic() - self.seen > SEEN_EVERY:
            self.seen = time.monotonic()
            try:
                await _read(services.round_presence_seen)(channel=self.channel_name)
            except DATABASE_ERRORS:  # the state went out; the next broadcast after SEEN_EVERY notes it
                self.seen = 0.0
                await self._database_failed("noting a watching socket", tell=False)

    async def _send_texts(self, seq: int, texts: list) -> None:
        if seq < self.seq:
            return  # older than what this socket already sent (``TableConsumer._send_texts``)
        self.seq = seq
        for text in texts:
            if type(text) is dict:  # a change's public state
                text = viewer_text(text, self.part)
            await self.send(text_data=text)

    async def table_resync(self, event: dict) -> None:
        """This process's fan-out lost Redis for a while: send the whole current state, as ``resync`` does."""
        try:
            await self._send_state()
        except DATABASE_ERRORS:
            await self._database_failed("a resync after a lost subscription")

    async def on_resync(self, message: dict) -> None:
        await self._send_state(after_changes=True)

    async def _send_state(self, *, after_changes: bool = False) -> None:
        """Send the viewer's whole current state (on connect, after a lost subscription, on ``resync``).

        ``after_changes`` (a client's ``resync``): a snapshot more than one
        change ahead of what this socket sent is held like a change that
        overtook the ones before it (``_in_order``). It is read on another
        thread than the changes' road, so under load it was often ahead of the
        changes still on their way to the socket: the client saw the snapshot's
        seq jump, took it for a gap and asked again, and at 50 bets a second
        every answer was ahead again. The changes in between go out first, the
        snapshot after them (or after ``TABLE_REORDER_WAIT`` if they never come).
        """
        for _attempt in range(3):
            state = await _read(selectors.round_snapshot)(table_id=self.table_id, user=self.user)
            # Changes sent while the snapshot was read may be newer than it: then read it again
            # rather than send the seq backwards.
            if state["seq"] < self.seq:
                continue
            part = {
                "seq": state["seq"],
                "round": state["round"]["id"] if state["round"] else None,
                "you": state["you"],
            }
            if self.part is None or part["seq"] >= self.part["seq"]:
                self.part = part
            if after_changes:
                await self._in_order(state["seq"], [frame_text(state)])
                return
            async with self.sending:
                if state["seq"] < self.seq:
                    continue
                await self._send(state)
                await self._send_held(everything=False)  # held changes the snapshot caught up with
                return
