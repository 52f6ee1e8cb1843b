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


def _public(*, round_id: int | None, totals: dict[str, int], name: str = "经典场") -> dict:
    areas = [
        {"area": area, "odds": odds, "open": area != "tie", "total": totals.get(area, 0), "mine": 0}
        for area, odds in (("banker", "1:0.95"), ("player", "1:1"), ("tie", "1:8"))
    ]
    rnd = None
    if round_id is not None:
        rnd = {
            "id": round_id, "number": 3, "shoe": 1, "coup": 3, "phase": "betting", "deadline": 1764450000000,
            "areas": areas, "cards": {}, "totals": {}, "result": None, "shoe_seed_sha256": "ab" * 32,
        }  # fmt: skip
    return {
        "type": "state",
        "seq": 41,
        "table": {"id": 9, "game": "baccarat", "game_name": "百家乐", "tier": {"id": 4, "name": name}},
        "round": rnd,
        "roads": {"bead_plate": [["banker"]], "big_road": []},
        "last_shoe": None,
        "you": None,
    }


def _part(round_id: int | None, balance: int | None, stakes: dict[str, int]) -> dict:
    return {
        "seq": 40,
        "round": round_id,
        "you": {"balance": balance, "stakes": stakes, "staked": sum(stakes.values())},
    }


def test_each_viewers_text_is_the_merged_state_serialised_whole():
    """A state's text is spliced per viewer from pieces cut once: it must be the very text of the merge."""
    from rooms.tables.broadcast import frame_text

    publics = [
        _public(round_id=301, totals={"banker": 1200, "player": 300}),
        _public(round_id=None, totals={}),
        # A value that serialises like a stand-in: the state is serialised whole instead.
        _public(round_id=301, totals={}, name=broadcast._MINE),
        _public(round_id=301, totals={}, name=broadcast._YOU),
    ]
    parts = [
        None,
        _part(301, 12_345, {"banker": 100}),
        _part(301, 0, {"banker": 20_000, "player": 5, "tie": 2500}),
        _part(300, 99, {"player": 50}),  # an older round's part: only its balance shows
        _part(None, None, {}),
    ]
    for public in publics:
        for part in parts:
            assert broadcast.viewer_text(public, part) == frame_text(broadcast.merge(public, part))
    assert broadcast._pieces(publics[2]) is None and broadcast._pieces(publics[3]) is None
    assert broadcast._pieces(publics[0]) is not None


def test_the_pieces_of_a_state_are_cut_once_and_kept_for_a_while(monkeypatch):
    monkeypatch.setattr(broadcast, "_texts", broadcast.collections.OrderedDict())
    cut = []
    real = broadcast._pieces
    monkeypatch.setattr(broadcast, "_pieces", lambda public: (cut.append(public["seq"]), real(public))[1])
    public = _public(round_id=301, totals={"banker": 100})
    for balance in range(60):  # sixty sockets of one change
        broadcast.viewer_text(public, _part(301, balance, {"banker": balance}))
    assert cut == [41]
    for n in range(broadcast.TEXTS_KEPT + 5):
        broadcast.viewer_text({**public, "seq": 100 + n}, None)
    assert len(broadcast._texts) == broadcast.TEXTS_KEPT
