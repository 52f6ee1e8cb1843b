"""The banker table's WebSocket: bets in, the round's state out.

Built on the table socket (framing, size and rate limits, language, errors);
it listens on the table's watch group (the public state) and on the player's
own group (their stakes and balance, their payouts), and merges the newest
part into each public state, so every ``state`` it sends is the viewer's
whole view. It holds no game state of its own beyond that merge.
"""

from __future__ import annotations

import asyncio
import time

from channels.db import database_sync_to_async
from django.utils.translation import gettext as _

from rooms.rounds import selectors, services
from rooms.rounds.broadcast import merge, user_group, watch_group
from rooms.tables import consumers as table_sockets
from rooms.tables.broadcast import frame_text
from rooms.tables.consumers import CLOSE_ANONYMOUS, CLOSE_NO_TABLE, DATABASE_ERRORS, TableConsumer
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


class RoundConsumer(TableConsumer):
    shapes = SHAPES

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self._hold_table()
        self.user = self.scope.get("user")
        self.groups_joined: list[str] = []
        self.seq = 0
        # The table socket's seq order (``TableConsumer._in_order``): a change ahead of a missing seq
        # is held a moment for it.
        self.held: dict[int, list[str]] = {}
        self.held_timer: asyncio.TimerHandle | None = None
        self.sending = asyncio.Lock()
        self.last_bet_seq: int | None = None
        self.public: dict | None = None
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
        if await self._refused_over_cap():
            return
        try:
            banker = await database_sync_to_async(_is_banker_table)(self.table_id)
        except DATABASE_ERRORS:
            await self._refuse_for_now(opened=False)
            return
        if not banker:
            await self.accept()
            await self.close(code=CLOSE_NO_TABLE)
            return
        timers_ensure_started()
        for group in (watch_group(self.table_id), user_group(self.table_id, self.user.pk)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        opened = False
        try:
            await database_sync_to_async(services.round_presence)(
                table_id=self.table_id, user=self.user, channel=self.channel_name, connected=True
            )
            self.present = True
            self.seen = time.monotonic()
            await self.accept()
            opened = True
            await self._send_state()
        except DATABASE_ERRORS:
            # Unrecorded, the socket would not keep the table dealing: the page reconnects.
            await self._refuse_for_now(opened=opened)  # ``disconnect`` leaves the groups
            return
        self._session_watch_arm()

    async def disconnect(self, code: int) -> None:
        """The socket closed (or failed): stop watching, then leave the groups (safe to run twice).

        The Viewer row comes first: the groups live in Redis, which may be what
        failed, and an open row keeps the table dealing for nobody.
        """
        self._end_local()
        if getattr(self, "present", False):
            self.present = False
            try:
                await database_sync_to_async(services.round_presence)(
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

    async def round_public(self, event: dict) -> None:
        """Send a change's public state merged with this player's part, in seq order.

        A table's changes come from more than one process (the ASGI process of
        a bet, another one's, the clock's and the payout worker's), so a later
        change can overtake an earlier one: it is held until the earlier one
        has gone out, at most ``TABLE_REORDER_WAIT``, as on the table socket.
        """
        state = event["state"]
        if state["seq"] < self.seq:
            return  # older than what this socket already showed
        if self.public is None or state["seq"] >= self.public["seq"]:
            self.public = state
        await self._in_order(state["seq"], [frame_text(merge(state, self.part))])
        if self.present and time.monotonic() - self.seen > SEEN_EVERY:
            self.seen = time.monotonic()
            try:
                await database_sync_to_async(services.round_presence_seen)(channel=self.channel_name)
            except DATABASE_ERRORS:  # the state went out; the next broadcast after SEEN_EVERY notes it
                self.seen = 0.0
                await self._database_failed("noting a watching socket", tell=False)

    async def round_part(self, event: dict) -> None:
        part = event["part"]
        if self.part is not None and part["seq"] < self.part["seq"]:
            return
        self.part = part
        if self.public is not None and self.public["seq"] == part["seq"]:
            # The public state of this change went out first with the older part: send it again.
            await self._in_order(part["seq"], [frame_text(merge(self.public, part))])

    async def round_payout(self, event: dict) -> None:
        payout = event["payout"]  # right after the state of the same change (same seq), held with it
        if payout["seq"] < self.seq:
            # A later change (the next bet, the next round) went out first: the worker's payout
            # and the ASGI process's change reach the socket by different roads. The player must
            # still get the payout, and the socket's seq must not go back: it carries the current
            # seq, as error and pong do (its ``round`` says which round it pays).
            async with self.sending:
                await self.send(text_data=frame_text({**payout, "seq": self.seq}))
            return
        await self._in_order(payout["seq"], [frame_text(payout)])

    async def _send_state(self) -> None:
        state = await database_sync_to_async(selectors.round_snapshot)(table_id=self.table_id, user=self.user)
        public = {**state, "you": None}
        if self.public is None or public["seq"] >= self.public["seq"]:
            self.public = public
        part = {
            "seq": state["seq"],
            "round": state["round"]["id"] if state["round"] else None,
            "you": state["you"],
        }
        if self.part is None or part["seq"] >= self.part["seq"]:
            self.part = part
        async with self.sending:
            await self._send(state)
            await self._send_held(everything=False)  # held changes the snapshot caught up with
