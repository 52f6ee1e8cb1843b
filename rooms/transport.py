"""How a change reaches the sockets of a table, in either runtime: one group message after the commit.

The channel layer carries it (channels-redis' pub/sub layer across processes,
the in-memory layer in one process). A message a layer loses costs one resync:
every frame carries the table's ``seq``, and a client that sees a gap asks for
its whole state again.
"""

from __future__ import annotations

import logging

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    """The group every socket of a table listens on, whatever its seat."""
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    """The group of every table socket a user holds (closed at once when they sign out)."""
    return f"user-{user_id}"


def frame_text(payload) -> str:
    """A frame as a socket sends it: compact JSON, UTF-8 kept (integer keys written as strings)."""
    return orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS).decode()


def send_many(messages: list[tuple[str, dict]]) -> None:
    """Send group messages in order; a failing channel layer loses a broadcast, never a change.

    From a thread of an ASGI process the sends run on its event loop; anywhere
    else (a worker) on an event loop of their own, one for the whole batch.
    """
    layer = get_channel_layer()
    if layer is None or not messages:
        return

    async def send_all() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    try:
        async_to_sync(send_all)()
    except Exception:  # noqa: BLE001 - a client resyncs on the next seq gap
        logger.exception("broadcast of %d messages failed", len(messages))


def send(group: str, message: dict) -> None:
    send_many([(group, message)])
