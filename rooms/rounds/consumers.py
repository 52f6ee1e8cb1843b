"""The banker table's WebSocket: bets in, the round's state out.

A ``rooms.sockets.GameSocket`` with the banker table's messages (``bet``,
``cancel`` 撤销, ``repeat`` 重复投, ``bank``, ``unbank``, ``reveal`` 咪牌, ``resync``). Each change of the table arrives as one ``round.change`` message
(rooms/rounds/broadcast.py): the socket keeps the newest part of its own user
that a change carried (their stakes and balance) and merges it into each
public state it sends, so every ``state`` is the viewer's whole view; of a
change's payouts it sends only its user's.
"""

from __future__ import annotations

import time

from django.utils.translation import gettext as _

from rooms.rounds import selectors, services
from rooms.rounds.broadcast import viewer_text
from rooms.sockets import DATABASE_ERRORS, GameSocket, database
from rooms.tables import selectors as table_selectors
from rooms.tables.timers import clock_unwatch, clock_watch
from rooms.transport import frame_text

# How often a socket that receives broadcasts tells the database it is still there (seconds);
# well inside ROUNDS_VIEWER_STALE_SECONDS.
SEEN_EVERY = 30.0

SHAPES: dict[str, dict[str, type]] = {
    "bet": {"seq": int, "area": str, "amount": int},
    "cancel": {"seq": int},
    "repeat": {"seq": int},
    "bank": {"seq": int},  # apply to bank: join the banker queue
    "unbank": {"seq": int},  # step down: leave the queue, or step down after this round
    "reveal": {"seq": int},  # 咪牌: the revealer turns the next card now
    "resync": {},
    "ping": {},
}


class RoundConsumer(GameSocket):
    family = "banker"
    shapes = SHAPES

    def table_exists(self) -> bool:
        return table_selectors.table_exists(self.table_id, self.family)

    def current_seq(self) -> int:
        return table_selectors.table_seq(self.table_id)

    async def opened(self) -> None:
        self.last_bet_seq: int | None = None
        self.part: dict | None = None
        self.present = False
        clock_watch(self.table_id)
        await database(services.round_presence)(
            table_id=self.table_id, user=self.user, channel=self.socket_id, connected=True
        )
        self.present, self.seen = True, time.monotonic()
        await self.accept()
        await self._send_state()

    async def closed(self) -> None:
        """Stop watching (a table nobody watches goes idle)."""
        clock_unwatch(self.table_id)
        if self.present:
            self.present = False
            try:
                await database(services.round_presence)(
                    table_id=self.table_id, user=self.user, channel=self.socket_id, connected=False
                )
            except DATABASE_ERRORS:
                # The row stops counting once it is not seen for ROUNDS_VIEWER_STALE_SECONDS.
                await self.database_failed("a socket's close", tell=False)

    async def renew(self) -> None:
        if self.present:
            self.seen = time.monotonic()
            await database(services.round_presence_seen)(channel=self.socket_id)

    # --- messages in ----------------------------------------------------------------------

    async def _fresh(self, seq: int) -> bool:
        """Take a bet, cancel or repeat only with a ``seq`` above the last one (one counter for the three)."""
        if self.last_bet_seq is not None and seq <= self.last_bet_seq:
            await self.error("stale_seq", _("That bet was already sent."), ref=seq)
            return False
        self.last_bet_seq = seq
        return True

    async def on_bet(self, message: dict) -> None:
        seq = message["seq"]
        if await self._fresh(seq):
            await self.call(services.round_bet, ref=seq, area=message["area"], amount=message["amount"])

    async def on_cancel(self, message: dict) -> None:
        seq = message["seq"]
        if await self._fresh(seq):
            await self.call(services.round_cancel, ref=seq)

    async def on_repeat(self, message: dict) -> None:
        seq = message["seq"]
        if await self._fresh(seq):
            await self.call(services.round_repeat, ref=seq)

    async def on_bank(self, message: dict) -> None:
        await self.call(services.round_bank_apply, ref=message["seq"])

    async def on_unbank(self, message: dict) -> None:
        await self.call(services.round_bank_leave, ref=message["seq"])

    async def on_reveal(self, message: dict) -> None:
        await self.call(services.round_reveal, ref=message["seq"])

    async def on_resync(self, message: dict) -> None:
        await self._send_state()

    async def resync(self) -> None:
        await self._send_state()

    # --- frames out -----------------------------------------------------------------------

    async def round_change(self, event: dict) -> None:
        """Send a change's public state merged with this user's part, then this user's payout.

        A change older than what the socket has sent is dropped, but its payout
        still goes out, with the socket's current seq (the seq never goes back).
        """
        seq = event["seq"]
        part = event["parts"].get(str(self.user_id))
        if part is not None and (self.part is None or part["seq"] >= self.part["seq"]):
            self.part = part
        payout = event["payouts"].get(str(self.user_id))
        if seq > self.seq:
            self.seq = seq
            await self.send(text_data=viewer_text(event["state"], self.part))
        if payout is not None:
            await self.send(text_data=frame_text({**payout, "seq": self.seq}))

    async def _send_state(self) -> None:
        """Send the viewer's whole current state (connect, ``resync``)."""
        state = await database(selectors.round_snapshot)(table_id=self.table_id, user=self.user)
        part = {
            "seq": state["seq"],
            "round": state["round"]["id"] if state["round"] else None,
            "you": state["you"],
        }
        if self.part is None or part["seq"] >= self.part["seq"]:
            self.part = part
        if state["seq"] >= self.seq:
            self.seq = state["seq"]
            await self.send_json_text(state)
