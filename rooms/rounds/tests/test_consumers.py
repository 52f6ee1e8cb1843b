"""The round socket through the real ASGI application, signed in with a session cookie."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from rooms.rounds import services
from rooms.rounds.models import Bet, Viewer
from rooms.rounds.tests.conftest import PLAYER_NATURAL_9, live_round, run_to, stack_shoe, tick
from rooms.tables.tests.helpers import inject
from rooms.tables.tests.test_consumers import latest_state, next_of, nothing_before_pong
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_rounds")]


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client.cookies["sessionid"].value


async def open_socket(
    table_id: int, user=None, origin: bytes = b"http://testserver"
) -> WebsocketCommunicator:
    from platform.asgi import application

    headers = [(b"origin", origin)]
    if user is not None:
        cookie = await sync_to_async(session_cookie)(user)
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, f"/ws/rounds/{table_id}/", headers=headers)


async def connected(table_id: int, user) -> WebsocketCommunicator:
    comm = await open_socket(table_id, user)
    ok, _ = await comm.connect()
    assert ok
    return comm


async def betting_table(tier, user):
    """Enter the tier, open a socket (the table is watched) and let the clock open a round."""
    table = await sync_to_async(services.round_enter)(tier_id=tier.pk, user=user)
    comm = await connected(table.pk, user)
    idle = await next_of(comm, "state")
    assert idle["round"] is None and idle["you"] == {"balance": 1000, "stakes": {}, "staked": 0}
    await sync_to_async(tick)()
    state = await latest_state(comm)
    assert state["round"]["phase"] == "betting"
    return table, comm, state


async def test_anonymous_is_closed_with_4401(bacc_tier, make_player):
    alice = await sync_to_async(make_player)(coins=1000)
    table = await sync_to_async(services.round_enter)(tier_id=bacc_tier.pk, user=alice)
    anon = await open_socket(table.pk)
    await anon.connect()
    assert await anon.receive_output() == {"type": "websocket.close", "code": 4401}


async def test_a_foreign_origin_is_refused(bacc_tier, make_player):
    alice = await sync_to_async(make_player)(coins=1000)
    table = await sync_to_async(services.round_enter)(tier_id=bacc_tier.pk, user=alice)
    comm = await open_socket(table.pk, alice, origin=b"https://evil.example")
    ok, _ = await comm.connect()
    assert not ok
    assert not await sync_to_async(Viewer.objects.exists)()


async def test_a_seated_games_table_is_not_a_round_table(make_player):
    from rooms.tables.tests.conftest import ddz_tier  # noqa: F401 - the fixture's body, called below

    alice = await sync_to_async(make_player)(coins=1000)

    def seated_table():
        from rooms.models import Game, RoomTier
        from rooms.tables.models import Table

        game = Game.objects.create(
            slug="seatedx", name_zh="座", name_en="Seated", family="seated", min_seats=2, max_seats=2
        )
        tier = RoomTier.objects.create(game=game, code="t", name="t", base_stake=1)
        return Table.objects.create(tier=tier, seat_count=2)

    table = await sync_to_async(seated_table)()
    comm = await open_socket(table.pk, alice)
    await comm.connect()
    assert await comm.receive_output() == {"type": "websocket.close", "code": 4404}


async def test_the_state_on_connect_follows_the_protocol(bacc_tier, make_player):
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    assert set(state) == {"type", "seq", "table", "round", "roads", "last_shoe", "bank", "you"}
    assert state["bank"] is None  # only the house banks at this tier
    assert state["table"]["game"] == "baccarat" and state["table"]["game_name"] == "百家乐"
    assert state["table"]["game_name_en"] == "Baccarat"
    assert state["table"]["tier"] == {
        "id": bacc_tier.pk,
        "name": "经典场",
        "name_en": "Classic room",
        "variant": "commission",
        "chips": [10, 50, 100, 500, 1000],
        "min_bet": 10,
        "area_limits": {
            "banker": 20000,
            "player": 20000,
            "tie": 2500,
            "banker_pair": 2000,
            "player_pair": 2000,
            "big": 10000,
            "small": 10000,
            "super6": 1000,
        },
        "table_limit": 200000,
    }
    rnd = state["round"]
    assert set(rnd) == {
        "id", "number", "shoe", "coup", "phase", "deadline", "areas", "cards", "totals", "result", "bank",
        "revealer", "revealers", "window", "earlier_windows", "shoe_seed_sha256",
    }  # fmt: skip
    assert (
        rnd["bank"] is None and rnd["revealer"] is None and rnd["revealers"] == [] and rnd["window"] == 0
    )  # one window, no 咪牌
    assert rnd["earlier_windows"] == []
    assert (rnd["number"], rnd["shoe"], rnd["coup"], rnd["result"]) == (1, 1, 1, None)
    assert rnd["areas"][0] == {"area": "banker", "odds": "1:0.95", "open": True, "total": 0, "mine": 0}
    assert [a["area"] for a in rnd["areas"]] == ["banker", "player", "tie", "banker_pair", "player_pair"]
    assert rnd["cards"] == {} and rnd["totals"] == {}
    none = {"big_eye_boy": None, "small_road": None, "cockroach_pig": None}
    assert state["roads"] == {
        "bead_plate": [],
        "big_road": [],
        "big_eye_boy": [],
        "small_road": [],
        "cockroach_pig": [],
        "ask": {"banker": none, "player": none},
    }
    await comm.disconnect()


async def test_a_bet_reaches_the_bettor_and_the_other_viewers(bacc_tier, make_player):
    alice, bob = await sync_to_async(make_player)(coins=1000), await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    watcher = await connected(table.pk, bob)
    await next_of(watcher, "state")

    await comm.send_json_to({"type": "bet", "seq": 1, "area": "banker", "amount": 100})
    mine = await latest_state(comm)
    assert mine["seq"] > state["seq"]
    assert mine["you"] == {"balance": 900, "stakes": {"banker": 100}, "staked": 100}
    banker = mine["round"]["areas"][0]
    assert (banker["total"], banker["mine"]) == (100, 100)

    theirs = await latest_state(watcher)
    assert theirs["seq"] == mine["seq"]
    assert theirs["you"] == {"balance": 1000, "stakes": {}, "staked": 0}
    assert (theirs["round"]["areas"][0]["total"], theirs["round"]["areas"][0]["mine"]) == (100, 0)

    # Bob bets too: Alice's view keeps her own stakes and sees the new total.
    await watcher.send_json_to({"type": "bet", "seq": 1, "area": "banker", "amount": 50})
    again = await latest_state(comm)
    assert again["you"]["stakes"] == {"banker": 100}
    assert (again["round"]["areas"][0]["total"], again["round"]["areas"][0]["mine"]) == (150, 100)
    await comm.disconnect()
    await watcher.disconnect()


REFUSED = [
    ({"type": "bet", "seq": 5, "area": "banker", "amount": 5}, "below_minimum", 5),
    ({"type": "bet", "seq": 6, "area": "dragon", "amount": 10}, "bad_area", 6),
    ({"type": "bet", "seq": 7, "area": "banker", "amount": 5000}, "insufficient_coins", 7),
    ({"type": "bet", "seq": 8, "area": "banker", "amount": "10"}, "malformed", 8),
    ({"type": "bet", "seq": 9, "area": "banker"}, "malformed", 9),
    ({"type": "bet", "seq": 9, "area": "banker", "amount": 10, "extra": 1}, "malformed", 9),
    ({"type": "act", "seq": 10, "action": {}}, "unknown_type", None),
    ({"type": "fold"}, "unknown_type", None),
    ({"type": "bet", "seq": 4, "area": "banker", "amount": 10}, "stale_seq", 4),
]


async def test_a_refused_bet_is_an_error_to_the_sender_only(bacc_tier, make_player):
    alice, bob = await sync_to_async(make_player)(coins=1000), await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    watcher = await connected(table.pk, bob)
    await next_of(watcher, "state")
    for message, code, ref in REFUSED:
        await comm.send_json_to(message)
        error = await next_of(comm, "error")
        assert (error["code"], error["ref"], error["seq"]) == (code, ref, state["seq"]), message
        assert error["message"]
    assert await nothing_before_pong(comm)  # no state: nothing changed
    assert await nothing_before_pong(watcher)
    assert await sync_to_async(wallet_balance)(user=alice) == 1000
    assert not await sync_to_async(Bet.objects.exists)()
    await comm.disconnect()
    await watcher.disconnect()


async def state_where(comm, wanted) -> dict:
    """The next ``state`` for which ``wanted(state)`` holds (the states before it are passed over)."""
    while not wanted(state := await next_of(comm, "state")):
        pass
    return state


async def test_cancel_and_repeat_over_the_socket(bacc_tier, make_player):
    """撤销 returns the stakes and tells every viewer; a repeated cancel and a stale seq are errors; 重复投 restakes."""
    alice, bob = await sync_to_async(make_player)(coins=1000), await sync_to_async(make_player)(coins=1000)
    table, comm, _ = await betting_table(bacc_tier, alice)
    watcher = await connected(table.pk, bob)
    await next_of(watcher, "state")
    await comm.send_json_to({"type": "bet", "seq": 1, "area": "banker", "amount": 100})
    await comm.send_json_to({"type": "bet", "seq": 2, "area": "banker", "amount": 100})
    await comm.send_json_to({"type": "bet", "seq": 3, "area": "tie", "amount": 10})
    staked = await state_where(comm, lambda s: s["you"]["staked"] == 210)
    assert staked["you"] == {"balance": 790, "stakes": {"banker": 200, "tie": 10}, "staked": 210}

    await comm.send_json_to({"type": "cancel", "seq": 4})
    cancelled = await state_where(comm, lambda s: s["you"]["staked"] == 0)
    assert cancelled["you"] == {"balance": 1000, "stakes": {}, "staked": 0}
    assert [(a["area"], a["total"], a["mine"]) for a in cancelled["round"]["areas"][:3]] == [
        ("banker", 0, 0),
        ("player", 0, 0),
        ("tie", 0, 0),
    ]
    theirs = await state_where(watcher, lambda s: s["seq"] == cancelled["seq"])
    assert theirs["round"]["areas"][0]["total"] == 0 and theirs["you"]["balance"] == 1000

    await comm.send_json_to({"type": "cancel", "seq": 5})  # again: nothing left to cancel
    error = await next_of(comm, "error")
    assert (error["code"], error["ref"]) == ("nothing_to_cancel", 5) and error["message"]
    await comm.send_json_to({"type": "cancel", "seq": 5})  # the same seq again: a replay
    assert (await next_of(comm, "error"))["code"] == "stale_seq"
    await comm.send_json_to({"type": "repeat", "seq": 6})  # the table's first round: nothing to repeat
    assert (await next_of(comm, "error"))["code"] == "nothing_to_repeat"
    await comm.send_json_to({"type": "repeat", "seq": 7, "extra": 1})
    assert (await next_of(comm, "error"))["code"] == "malformed"
    assert await sync_to_async(wallet_balance)(user=alice) == 1000

    # Play the round with one bet, then repeat it on the next.
    await comm.send_json_to({"type": "bet", "seq": 8, "area": "player", "amount": 50})
    await state_where(comm, lambda s: s["you"]["staked"] == 50)
    rnd = await sync_to_async(live_round)(table)
    await sync_to_async(stack_shoe)(rnd, PLAYER_NATURAL_9)
    await sync_to_async(run_to)(rnd, "over")
    nxt = await sync_to_async(live_round)(table)
    assert nxt.pk != rnd.pk and nxt.phase == "betting"
    await comm.send_json_to({"type": "repeat", "seq": 9})
    state = await state_where(comm, lambda s: s["round"]["id"] == nxt.pk and s["you"]["staked"])
    assert state["round"]["id"] == nxt.pk
    assert state["you"] == {"balance": 1050 - 50, "stakes": {"player": 50}, "staked": 50}
    await comm.disconnect()
    await watcher.disconnect()


async def test_a_wallet_below_the_minimum_is_refused_entry_to_the_round(bacc_tier, make_player):
    from wallets.services import wallet_adjust

    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, _ = await betting_table(bacc_tier, alice)
    await sync_to_async(wallet_adjust)(user=alice, amount=-950, key="test:lost", reason="test")
    await comm.send_json_to({"type": "bet", "seq": 1, "area": "player", "amount": 10})
    error = await next_of(comm, "error")
    assert (error["code"], error["ref"]) == ("entry_refused", 1)
    assert "needs at least 100 coins" in error["message"]
    await comm.disconnect()


async def test_a_bet_after_the_countdown_is_refused(bacc_tier, make_player):
    from rooms.rounds.tests.conftest import expire

    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, _ = await betting_table(bacc_tier, alice)
    await sync_to_async(expire)(await sync_to_async(live_round)(table))
    await comm.send_json_to({"type": "bet", "seq": 1, "area": "player", "amount": 10})
    error = await next_of(comm, "error")
    assert error["code"] == "betting_closed"
    assert error["message"] == "Betting is closed for this round."
    await comm.disconnect()


async def test_the_bettor_gets_the_payout_and_the_new_balance(bacc_tier, make_player):
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, _ = await betting_table(bacc_tier, alice)
    await comm.send_json_to({"type": "bet", "seq": 1, "area": "player", "amount": 100})
    await comm.send_json_to({"type": "bet", "seq": 2, "area": "tie", "amount": 10})
    rnd = await sync_to_async(live_round)(table)
    await sync_to_async(stack_shoe)(rnd, PLAYER_NATURAL_9)
    await latest_state(comm)
    await sync_to_async(run_to)(rnd, "result")
    state = None
    while (message := await comm.receive_json_from(timeout=3))["type"] != "payout":
        if message["type"] == "state":
            state = message
    payout = message
    assert payout == {
        "type": "payout",
        "seq": payout["seq"],
        "round": rnd.pk,
        "net": 90,
        "bets": [{"area": "player", "amount": 100, "net": 100}, {"area": "tie", "amount": 10, "net": -10}],
        "balance": 1090,
    }
    assert state["seq"] == payout["seq"]  # the state of the payout's change came just before it
    assert state["round"]["phase"] == "result" and state["round"]["result"]["winner"] == "player"
    assert state["round"]["cards"] == {"player": ["9s", "Ks"], "banker": ["7h", "Kd"]}
    assert state["round"]["totals"] == {"player": 9, "banker": 7}
    assert state["you"]["balance"] == 1090
    await comm.disconnect()


async def test_closing_the_socket_marks_the_viewer_gone(bacc_tier, make_player):
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, _ = await betting_table(bacc_tier, alice)
    assert await sync_to_async(Viewer.objects.filter(table=table, left_at__isnull=True).count)() == 1
    await comm.disconnect()
    assert await sync_to_async(Viewer.objects.filter(table=table, left_at__isnull=True).count)() == 0


async def test_resync_and_ping_answer_without_moving_the_sequence(bacc_tier, make_player):
    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    await comm.send_json_to({"type": "ping"})
    assert await next_of(comm, "pong") == {"type": "pong", "seq": state["seq"]}
    await comm.send_json_to({"type": "resync"})
    again = await next_of(comm, "state")
    assert again == state
    await comm.disconnect()


async def test_a_payout_overtaken_by_a_later_change_still_comes_and_keeps_the_seq_order(
    bacc_tier, make_player
):
    """The worker's payout (seq N) reaching the socket after the next change (N+1) from the ASGI process.

    It went out with seq N after N+1 (the chaos soak saw it): the one place a
    round socket's seq went backwards. The player still gets it; it carries
    the socket's current seq, as error and pong do.
    """
    from rooms.rounds.broadcast import change_message
    from rooms.transport import table_group

    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    payout = {"type": "payout", "seq": state["seq"] - 1, "round": 7, "net": 5, "bets": [], "balance": 1005}
    public = {**state, "seq": state["seq"] - 1, "you": None}
    inject(table_group(table.pk), change_message(public, parts={}, payouts={alice.pk: payout}))
    got = await next_of(comm, "payout")
    assert got == {**payout, "seq": state["seq"]}
    assert await nothing_before_pong(comm)  # the older state itself is not sent
    await comm.disconnect()


async def test_a_change_ahead_of_an_earlier_one_goes_out_and_the_late_one_only_leaves_its_part(
    bacc_tier, make_player
):
    """A change from another process (the clock, the payout worker) can arrive before an earlier one.

    It goes out at once, gap and all (the client asks for its state again),
    and the earlier one is not sent after it (the seq a socket sends never goes
    back); but the player's own part it carried (their stakes after their bet)
    is kept, and shows in every later state.
    """
    from rooms.rounds.broadcast import change_message
    from rooms.transport import table_group

    alice = await sync_to_async(make_player)(coins=1000)
    table, comm, state = await betting_table(bacc_tier, alice)
    seq, public = state["seq"], {**state, "you": None}
    rnd = public["round"]

    def change(n: int, banker: int, parts: dict) -> dict:
        areas = [{**a, "total": banker if a["area"] == "banker" else a["total"]} for a in rnd["areas"]]
        return change_message({**public, "seq": n, "round": {**rnd, "areas": areas}}, parts=parts)

    inject(table_group(table.pk), change(seq + 2, 300, {}))  # Bob's bet, ahead
    ahead = await next_of(comm, "state")
    assert ahead["seq"] == seq + 2 and ahead["round"]["areas"][0]["total"] == 300
    part = {
        "seq": seq + 1,
        "round": rnd["id"],
        "you": {"balance": 900, "stakes": {"banker": 100}, "staked": 100},
    }
    inject(table_group(table.pk), change(seq + 1, 100, {alice.pk: part}))  # Alice's own, late
    assert await nothing_before_pong(comm)
    inject(table_group(table.pk), change(seq + 3, 350, {}))
    later = await next_of(comm, "state")
    assert later["seq"] == seq + 3 and later["you"] == part["you"]
    assert (later["round"]["areas"][0]["total"], later["round"]["areas"][0]["mine"]) == (350, 100)
    await comm.disconnect()
