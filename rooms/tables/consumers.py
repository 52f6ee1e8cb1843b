"""The seated table's WebSocket: a player's messages in, their seat's frames out.

A ``rooms.sockets.GameSocket`` with the seated table's messages (``act``,
``ready``, ``trustee``, ``leave``, ``resync``). Each change of the table
arrives as one ``table.frames`` message holding every viewer's frames; the
socket sends those of the seat its user holds, or the spectators'. Frames go
out in ``seq`` order: an older one is dropped (a snapshot already covered it),
and a gap makes the client ask for its whole state again (docs/protocol.md).
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _

from rooms.sockets import DATABASE_ERRORS, GameSocket, database
from rooms.tables import selectors, services
from rooms.tables.errors import TableError
from rooms.tables.play import amove
from rooms.tables.timers import clock_unwatch, clock_watch

# The close code an ASGI server gives its sockets when it shuts down (uvicorn: 1012, Service Restart).
SERVER_RESTART = 1012

SHAPES: dict[str, dict[str, type]] = {
    "act": {"seq": int, "action": dict},
    "resync": {},
    "ready": {},
    "trustee": {"on": bool},
    "leave": {},
    "ping": {},
}


class TableConsumer(GameSocket):
    family = "seated"
    shapes = SHAPES

    def table_exists(self) -> bool:
        return selectors.table_exists(self.table_id, self.family)

    def current_seq(self) -> int:
        return selectors.table_seq(self.table_id)

    async def opened(self) -> None:
        self.seat: int | None = None
        self.recorded = False  # this socket's name is on its seat
        self.last_act_seq: int | None = None
        clock_watch(self.table_id)
        # Marked connected before the socket opens, so no timer plays for a player whose page is here.
        self.recorded = await self.presence(connected=True)
        await self.accept()
        await self.follow_seat()

    async def closed(self) -> None:
        clock_unwatch(self.table_id)
        if self.recorded and getattr(self, "close_code", None) == SERVER_RESTART:
            # This server is stopping (a restart, a deploy), not the player leaving: the socket's name
            # stays on the seat, as a killed process's would, and the seat's presence lease keeps the
            # player seated while their page reconnects to the server that comes back.
            self.recorded = False
        if self.recorded:
            self.recorded = False
            try:
                await self.presence(connected=False)
            except TableError:
                pass
            except DATABASE_ERRORS:
                # The name stays on the seat until its lease lapses: the presence sweep drops it.
                await self.database_failed("a socket's close", tell=False)

    async def move(self, step) -> None:
        """Make a move of this table from this event loop, after this process's earlier ones (``play.amove``)."""
        async with self.lock:
            await amove(self.table_id, step, database=database)

    async def presence(self, *, connected: bool) -> bool:
        """Record this socket on its player's seat (or take it off); whether the user is seated here."""
        try:
            await self.move(services.presence_step(self.user_id, connected, self.socket_id))
        except services.Unchanged:
            return False
        return True

    async def renew(self) -> None:
        if self.recorded:
            await database(services.presence_renew)(table_id=self.table_id, user=self.user)

    # --- messages in ----------------------------------------------------------------------

    async def on_act(self, message: dict) -> None:
        seq = message["seq"]
        if self.last_act_seq is not None and seq <= self.last_act_seq:
            await self.error("stale_seq", _("That action was already sent."), ref=seq)
            return
        self.last_act_seq = seq
        action = message["action"]
        if not isinstance(action.get("type"), str):
            await self.error("malformed", _("An action must have a type."), ref=seq)
            return
        try:
            await self.move(services.act_step(self.user_id, action))
        except TableError as exc:
            await self.error(exc.code, str(exc), ref=seq)

    async def on_resync(self, message: dict) -> None:
        await self.follow_seat()

    async def resync(self) -> None:
        await self.follow_seat()

    async def on_ready(self, message: dict) -> None:
        await self.call(services.table_ready)

    async def on_trustee(self, message: dict) -> None:
        try:
            await self.move(services.trustee_step(self.user_id, message["on"]))
        except TableError as exc:
            await self.error(exc.code, str(exc))

    async def on_leave(self, message: dict) -> None:
        await self.call(services.table_leave)

    # --- frames out -----------------------------------------------------------------------

    async def table_frames(self, event: dict) -> None:
        """Send this socket's frames of a change, or follow its user's seat if the change moved it."""
        frames = self._frames_of(event)
        if frames is None:
            try:
                await self.follow_seat()
            except DATABASE_ERRORS:
                await self.database_failed("following a seat change", ref=None)
            return
        if event["seq"] <= self.seq:
            return  # a snapshot already showed it
        self.seq = event["seq"]
        for text in frames:
            await self.send(text_data=text)

    def _frames_of(self, event: dict) -> list[str] | None:
        """This socket's frames in a ``table.frames`` message; None when its user's seat changed."""
        if self.seat is None:
            return event["watch"] if self.user_id not in event["seat_users"] else None
        for index, user_id, frames in event["seats"]:
            if index == self.seat:
                return frames if user_id == self.user_id else None
        return None

    async def follow_seat(self) -> None:
        """Note the seat this user holds here (or none: a spectator) and send the whole current state."""
        seat = await database(selectors.seat_for_user)(user=self.user)
        if seat is not None and seat.table_id != self.table_id:
            url = reverse("tables:table", kwargs={"table_id": seat.table_id})
            await self.send_json_text({"type": "moved", "seq": self.seq, "table": seat.table_id, "url": url})
            seat = None
        previous, self.seat = self.seat, seat.index if seat is not None else None
        if self.seat is not None and (not self.recorded or previous != self.seat):
            # The user sat down here while this socket was open: the seat must count it.
            self.recorded = await self.presence(connected=True)
        state = await self.db(selectors.table_snapshot)(table_id=self.table_id, user=self.user)
        if state["seq"] >= self.seq:
            self.seq = state["seq"]
            await self.send_json_text(state)
