"""The runtime with the real 炸金花 (zhajinhua) engine: bot hands, the clock, and what each seat is sent."""

import json

import pytest
from asgiref.sync import sync_to_async
from django.db.models import Sum

import games
from games.base import apply_rake
from rooms import transport
from rooms.tables import services
from rooms.tables.models import Hand, HandAction, Seat
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.helpers import my_seat, open_hand, per_group, sit_connected, until_my_turn
from rooms.tables.tests.test_abuse import fingerprint, refused_without_effect
from rooms.tables.tests.test_consumers import next_of, open_socket
from wallets.models import Account, LedgerTransaction

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]


@pytest.fixture
def zjh_game():
    """Make sure 炸金花 is in the registry (it registers itself once its page ships)."""
    from games.zhajinhua import GAME

    added = GAME.slug not in games.REGISTRY
    if added:
        games.REGISTRY[GAME.slug] = GAME
    yield games.REGISTRY[GAME.slug]
    if added:
        games.REGISTRY.pop(GAME.slug, None)


@pytest.fixture
def zjh_tier(db, zjh_game):
    """A four-seat 炸金花 room with bots and the demo's per-player cap."""
    from rooms.models import Game, RoomTier

    game, _ = Game.objects.get_or_create(
        slug="zhajinhua",
        defaults={
            "name_zh": "炸金花",
            "name_en": "Golden Flower",
            "family": "seated",
            "min_seats": 2,
            "max_seats": 5,
        },
    )
    return RoomTier.objects.create(
        game=game,
        code="zjh-low",
        name="初级场",
        base_stake=1,
        minimum_rule=RoomTier.MinimumRule.TABLE_CAP,
        table_cap=100,
        rake_bps=500,
        options={"player_cap": 100},
        seats=4,
        bots_enabled=True,
    )


def play_out(table, user) -> Hand:
    """Let the bots and 托管 (which calls for ``user``, 自动跟注) play the open hand to settlement."""
    hand = open_hand(table)
    assert hand is not None and hand.status == "playing"
    services.table_trustee(table_id=table.pk, user=user, on=True)
    for _ in range(20):
        run_clock(max_steps=1000)
        hand.refresh_from_db()
        if hand.status != "playing":
            break
    return hand


def test_bots_play_whole_zhajinhua_hands_and_every_coin_is_accounted_for(zjh_tier, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, zjh_tier)
    assert Seat.objects.filter(table=table, is_bot=True).count() == 3
    for _number in range(1, 4):
        hand = play_out(table, alice)
        assert hand.status == "settled", hand.cancel_reason
        assert hand.state["phase"] == "finished"
        assert sum(hand.outcome["deltas"]) == 0
        tx = LedgerTransaction.objects.get(key=f"hand:{hand.pk}:settle")
        assert sum(tx.entries.values_list("amount", flat=True)) == 0
        assert Account.objects.get(code="escrow").balance == 0
        # 托管 calls for alice at her own rate (002:39 自动跟注): never a look, a raise or a fold.
        mine = HandAction.objects.filter(hand=hand, seat=my_seat(alice).index)
        assert mine.exists() and all(a.auto and a.action == {"type": "call"} for a in mine)
        assert not hand.state["looked"][my_seat(alice).index]
        services.table_ready(table_id=table.pk, user=alice)
    # Coins only moved between accounts: the books sum to zero, and the house kept each hand's
    # fee, 5% of the winner's profit rounded down (0 on a pot of under 20 coins of profit).
    assert Account.objects.aggregate(total=Sum("balance"))["total"] == 0
    settled = list(Hand.objects.filter(status="settled").order_by("number"))
    assert len(settled) == 3
    assert all(hand.outcome["rake"] == apply_rake(hand.outcome["deltas"], 500)[1] for hand in settled)
    assert Account.objects.get(code="rake").balance == sum(hand.outcome["rake"] for hand in settled)
    # The deal passes on: each hand's dealer is the seat after the last one's.
    assert settled[1].config["first_seat"] == settled[0].outcome["details"]["next_first_seat"]


def test_a_player_whose_clock_runs_out_calls_and_is_put_under_tuoguan(zjh_tier, make_player):
    alice = make_player(coins=5000)
    table = sit_connected(alice, zjh_tier)
    hand = until_my_turn(table, alice)
    assert hand is not None
    seat = my_seat(alice).index
    assert hand.state["status"][seat] == "active"
    bet = hand.state["bets"][seat]

    expire(hand)
    run_clock(max_steps=1)

    hand.refresh_from_db()
    assert hand.state["status"][seat] == "active"
    assert hand.state["bets"][seat] > bet and not hand.state["looked"][seat]
    last = HandAction.objects.filter(hand=hand, seat=seat).order_by("-n").first()
    assert last.action == {"type": "call"} and last.auto
    assert my_seat(alice).trustee


@pytest.fixture
def captured(monkeypatch):
    """Record every group message the runtime sends (group name, message), instead of sending it."""
    sent: list[tuple[str, dict]] = []
    monkeypatch.setattr(transport, "send_many", lambda messages: sent.extend(per_group(messages)))
    return sent


def _cards_in(payload: dict, cards: list[str]) -> bool:
    text = json.dumps(payload, ensure_ascii=False)
    return any(f'"{card}"' in text for card in cards)


def test_state_frames_never_carry_another_seats_hidden_cards(zjh_tier, make_player, captured):
    alice = make_player(coins=5000)
    table = sit_connected(alice, zjh_tier)
    hands: list[Hand] = []
    compared = folded = False
    for number in range(8):
        if number % 2 == 0:
            # Alice folds at her first turn (托管 would call): a folded hand, which the rules show nobody.
            if until_my_turn(table, alice) is not None:
                services.table_act(table_id=table.pk, user=alice, action={"type": "fold"})
        hand = play_out(table, alice)
        assert hand.status == "settled", hand.cancel_reason
        hands.append(hand)
        log = hand.state["log"]
        compared |= any(entry["type"] == "compare" for entry in log)
        folded |= any(entry["type"] == "fold" for entry in log)
        services.table_ready(table_id=table.pk, user=alice)
        if compared and folded:
            break
    assert compared and folded, "nobody compared or folded: the check below would prove less"

    by_id = {hand.pk: hand for hand in hands}
    checked = 0
    for group, message in captured:
        for payload in message["events"]:
            if payload.get("type") != "state":
                continue
            viewer = None if group.endswith("-watch") else int(group.rsplit("-", 1)[1])
            for key in ("hand", "last_hand"):
                part = payload.get(key)
                if not part or part["id"] not in by_id or not part.get("view"):
                    continue
                full = by_id[part["id"]].state
                view = part["view"]
                for other, cards in enumerate(full["_hands"]):
                    if other == viewer:
                        continue
                    allowed = False
                    if view["phase"] == "finished":
                        result = full["result"]
                        # At the end: the hands that decided the pot, and those the viewer compared with.
                        allowed = other in result["shown"] or any(
                            {c["seat"], c["target"]} == {viewer, other} for c in full["compares"]
                        )
                    if not allowed:
                        assert not _cards_in(part, cards), (
                            f"seat {viewer} was sent seat {other}'s cards in hand {part['id']} ({view['phase']})"
                        )
                        checked += 1
                if viewer is not None and view["phase"] == "betting":
                    # Its own cards only after 看牌, and not after folding or losing a 比牌.
                    own = full["_hands"][viewer]
                    if not view["looked"][viewer] or view["status"][viewer] != "active":
                        assert not _cards_in(part, own)
                        assert view["hand"] is None
                assert not any(str(k).startswith("_") for k in view)
    assert checked > 100


@pytest.mark.zh
def test_the_table_page_loads_the_zhajinhua_client_with_chinese_labels(zjh_tier, make_player, client):
    alice = make_player(coins=5000)
    table = sit_connected(alice, zjh_tier)
    client.force_login(alice)

    html = client.get(f"/tables/{table.pk}/").content.decode()

    assert "js/zhajinhua.js" in html and "js/table.js" not in html
    assert "底池" in html  # 底池 Pot, in the page's default language
    labels = json.loads(html.split('id="table-labels" type="application/json">')[1].split("</script>")[0])
    assert labels["look"] == "看牌" and labels["fold"] == "弃牌"
    assert labels["call_amount"].replace(" ", "") == "跟注{amount}"
    assert labels["compare_amount"].replace(" ", "") == "比牌{amount}"
    # 炸金花's own names for its hands, not 德州扑克's (同花顺, 同花).
    assert labels["cat_straight_flush"] == "顺金" and labels["cat_flush"] == "金花"


def _hand_row(hand_id: int) -> dict:
    hand = Hand.objects.get(pk=hand_id)
    return {
        "state": hand.state,
        "deadline": hand.deadline,
        "deadline_token": hand.deadline_token,
        "turn_deadline": (hand.clock or {}).get("turn", {}).get("deadline"),
        "game": hand.game_slug,
    }


async def state_where(comm, shows) -> dict:
    """The first ``state`` whose open hand ``shows`` what the test waits for (a presence change may come first)."""
    while True:
        state = await next_of(comm, "state")
        if state["hand"] is not None and shows(state["hand"]):
            return state


async def test_a_look_out_of_turn_is_accepted_and_changes_only_that_seats_view(zjh_tier, make_player):
    """看牌 while a bot is on turn: the socket takes it, her view shows her cards, nobody's turn or clock moves."""
    alice = await sync_to_async(make_player)(coins=5000)
    table = await sync_to_async(services.table_quick_start)(tier_id=zjh_tier.pk, user=alice)
    comm = await open_socket(table.pk, alice)
    state = await next_of(comm, "state")  # the connect's snapshot; no tick runs, so bots wait
    seat = state["you"]["seat"]
    hand = state["hand"]
    assert hand["status"] == "playing"
    if seat in hand["actors"]:
        assert hand["out_of_turn"] == []  # her turn: her actions are the view's choices
        await comm.send_json_to({"type": "act", "seq": 1, "action": {"type": "call"}})
        state = await state_where(comm, lambda hand: seat not in hand["actors"])
        hand = state["hand"]
    assert hand["status"] == "playing" and seat not in hand["actors"]  # a bot's turn
    assert hand["view"]["hand"] is None and hand["view"]["choices"] == []
    assert hand["out_of_turn"] == [{"type": "look"}]
    before = await sync_to_async(_hand_row)(hand["id"])
    books = await sync_to_async(fingerprint)(table.pk)

    await comm.send_json_to({"type": "act", "seq": 2, "action": {"type": "look"}})
    looked = await state_where(comm, lambda hand: hand["view"]["looked"][seat])
    after = await sync_to_async(_hand_row)(hand["id"])
    assert looked["seq"] > state["seq"]
    assert looked["hand"]["actors"] == hand["actors"] and looked["hand"]["deadline"] == hand["deadline"]
    assert looked["hand"]["view"]["hand"] == before["state"]["_hands"][seat]
    assert looked["hand"]["out_of_turn"] == []  # once
    # The clock of the seat on turn is where it was: same deadline, same token, same turn.
    for key in ("deadline", "deadline_token", "turn_deadline"):
        assert after[key] == before[key], key
    engine = games.REGISTRY["zhajinhua"].engine
    for other in range(len(before["state"]["players"])):
        old, new = engine.view(before["state"], other), engine.view(after["state"], other)
        changed = {key for key in old if old[key] != new[key]}
        if other == seat:
            assert changed == {"hand", "hand_category", "hands", "categories", "looked", "log"}
        else:  # the others learn only that she looked
            assert changed == {"looked", "log"}, (other, changed)
            assert new["looked"][seat] and new["hands"] == old["hands"]
    assert after["state"]["bets"] == before["state"]["bets"]
    now = await sync_to_async(fingerprint)(table.pk)
    for key in ("transactions", "entries", "balances", "seats"):
        assert now[key] == books[key], key
    # A second look, or anything else out of turn, is refused and changes nothing.
    await refused_without_effect(
        comm, table.pk, '{"type": "act", "seq": 3, "action": {"type": "look"}}', "not_your_turn", None
    )
    await refused_without_effect(
        comm, table.pk, '{"type": "act", "seq": 4, "action": {"type": "call"}}', "not_your_turn", None
    )
    await comm.disconnect()
