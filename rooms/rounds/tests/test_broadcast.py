"""A bet's broadcast leaves its table's thread at once and still goes out in the order of the commits."""

import asyncio
import threading

from rooms.rounds import broadcast
from rooms.tables.fanout import serving


class SlowLayer:
    """A channel layer whose sends take a while, the first ones longest."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int]] = []
        self.delays = [0.05, 0.03, 0.01, 0.0, 0.0, 0.0]

    async def group_send(self, group: str, message: dict) -> None:
        await asyncio.sleep(self.delays.pop(0) if self.delays else 0)
        self.sent.append((group, message["seq"]))


def test_a_sockets_thread_hands_the_sends_to_its_loop_and_they_keep_their_order(monkeypatch):
    layer = SlowLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    changes = [[("part", {"seq": seq}), ("watch", {"seq": seq})] for seq in (7, 8, 9)]
    returned: list[float] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()

        def table_thread() -> None:  # as a bet runs in its table's lane, serving this loop
            with serving(loop):
                for messages in changes:
                    broadcast.send_messages(messages)
            returned.append(len(layer.sent))

        thread = threading.Thread(target=table_thread)
        thread.start()
        await asyncio.to_thread(thread.join)
        for _ in range(100):
            if len(layer.sent) == 6:
                break
            await asyncio.sleep(0.02)

    asyncio.run(main())
    assert returned == [0]  # the thread went on before any send finished
    assert layer.sent == [(group, seq) for seq in (7, 8, 9) for group in ("part", "watch")]


def test_elsewhere_the_sends_are_made_before_the_call_returns(monkeypatch):
    layer = SlowLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    broadcast.send_messages([("part", {"seq": 3}), ("watch", {"seq": 3})])
    assert layer.sent == [("part", 3), ("watch", 3)]
