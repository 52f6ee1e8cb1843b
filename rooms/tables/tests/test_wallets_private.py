"""Wallets stay private at the table: a seat's carried coins and a wallet balance are their player's alone.

Any signed-in spectator used to read every seated player's ``carried`` (at the
start of a hand a seat carries its whole wallet, often) and their balance after
the settlement. Here a spectator and a seated player keep every frame of two
hands of every seated game, and every ``carried`` and ``balance`` the table's
frames carry (the engine's view aside: it shows the coins in play, as the game's
rules need) is checked: the player's own, or null.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from rooms.tables import services
from rooms.tables.models import Seat
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.test_abuse import game_tier
from rooms.tables.tests.test_hidden_cards import SEATED, Capture, roomy_inbox, start_and_play  # noqa: F401
from wallets.selectors import wallet_balance

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

WALLET_KEYS = ("carried", "balance")
ENGINE_VIEWS = ("view", "details")  # the game's own view and outcome: coins in play, by its rules


def wallet_fields(value, path: str = "") -> list[tuple[str, object]]:
    """Every ``carried`` and ``balance`` in a frame, with where it is (``table.seats.1.carried``)."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ENGINE_VIEWS:
                continue
            where = f"{path}.{key}" if path else key
            if key in WALLET_KEYS:
                found.append((where, item))
            found += wallet_fields(item, where)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += wallet_fields(item, f"{path}.{index}")
    return found


def seat_of_row(where: str) -> int | None:
    """The seat index a field belongs to: ``table.seats.<i>.carried`` or ``seats.<i>.balance`` (a result)."""
    parts = where.split(".")
    if "seats" in parts:
        return int(parts[parts.index("seats") + 1])
    return None


@pytest.mark.parametrize("slug", SEATED)
async def test_a_spectator_sees_no_wallet_and_a_player_only_their_own(slug, make_player):
    alice, bob = await sync_to_async(make_player)(coins=50_000), await sync_to_async(make_player)(coins=7_000)
    tier = await sync_to_async(game_tier)(slug)
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    capture = Capture()
    await capture.add("watch", table.pk, bob)
    await capture.add("alice", table.pk, alice)
    await sync_to_async(run_clock)()  # bots fill the table and the first hand starts
    mine = await sync_to_async(lambda: Seat.objects.get(table=table, user=alice).index)()
    hands = []
    for _ in range(2):
        hands.append(await sync_to_async(start_and_play)(table.pk, alice))
        await capture.drain(table.pk)
    await capture.close()
    assert all(hand.status == "settled" for hand in hands), [h.cancel_reason for h in hands]

    watched = [field for frame in capture.frames["watch"] for field in wallet_fields(frame)]
    assert watched, "the spectator's frames carried no wallet field to check"
    for where, value in watched:
        # His own balance comes with the state he is sent on connect; nobody else's, ever.
        assert value is None or (where == "you.balance" and value == 7_000), (slug, where, value)

    carried = {hand.players[mine]["carried"] for hand in hands}
    balances = {await sync_to_async(wallet_balance)(user=alice)}
    own_seen = set()
    for frame in capture.frames["alice"]:
        for where, value in wallet_fields(frame):
            seat = seat_of_row(where)
            if seat is not None and seat != mine:
                assert value is None, (slug, "another seat's", where, value)
            elif value is not None:
                own_seen.add(where.rsplit(".", 1)[-1] if seat is not None else where)
    # She saw her own carried coins in play and her balance in the result (and on her state).
    assert "carried" in own_seen and "balance" in own_seen, own_seen
    results = [f for f in capture.frames["alice"] if f["type"] == "result"]
    assert results and all(r["seats"][mine]["balance"] is not None for r in results)
    assert results[-1]["seats"][mine]["balance"] in balances
    in_play = [
        f["table"]["seats"][mine]["carried"]
        for f in capture.frames["alice"]
        if f["type"] == "state" and f["table"]["seats"][mine]["carried"] is not None
    ]
    assert set(in_play) <= carried and in_play


def ints_in(value) -> list[int]:
    """Every whole number anywhere in a frame."""
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, dict):
        return [n for item in value.values() for n in ints_in(item)]
    if isinstance(value, list):
        return [n for item in value for n in ints_in(item)]
    return []


def _play_hand(table_id: int, users, after: int) -> object:
    """Ready every human (the hand after hand number ``after`` starts) and let it be played out under 托管."""
    from rooms.tables.models import Hand, Table

    if Table.objects.get(pk=table_id).status == Table.Status.WAITING:
        for user in users:
            services.table_ready(table_id=table_id, user=user)
    run_clock()
    hand = Hand.objects.filter(table_id=table_id, number__gt=after).order_by("number").first()
    assert hand is not None, "no hand started"
    if hand.status == Hand.Status.PLAYING:
        for user in users:
            services.table_trustee(table_id=table_id, user=user, on=True)
    for _ in range(50):
        run_clock(max_steps=2000)
        hand.refresh_from_db()
        if hand.status in (Hand.Status.SETTLED, Hand.Status.CANCELLED):
            return hand
        expire(hand)  # a phase only the clock ends (a die shown for a few seconds): its time passes
    raise AssertionError(f"hand {hand.pk} did not finish: {hand.status}")


@pytest.mark.parametrize("slug", SEATED)
async def test_a_seat_carries_the_tiers_carry_or_its_minimum_so_no_stack_is_a_wallet(slug, make_player):
    """The games show every seat's stack (coins in play), which was the seat's whole wallet.

    A seat now carries the tier's carry when its wallet holds it, else the tier's
    minimum: a spectator's frames show neither a rich player's wallet nor one
    between the two, and the rest of each wallet stays out of the hand.
    """
    from wallets.selectors import ledger_check

    tier = await sync_to_async(game_tier)(slug)
    minimum, target = tier.minimum_coins, tier.carry_target
    assert 0 < minimum < target
    alice = await sync_to_async(make_player)(coins=50_017)
    # Carol holds more than the minimum but less than the carry, even after losing one hand.
    carol = await sync_to_async(make_player)(coins=2 * minimum + 7)
    bob = await sync_to_async(make_player)(coins=7_000)
    tier.bots_enabled = False  # both sit down before the bots fill the table and the first hand starts
    await sync_to_async(tier.save)(update_fields=["bots_enabled"])
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    assert (await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=carol)).pk == table.pk
    tier.bots_enabled = True
    await sync_to_async(tier.save)(update_fields=["bots_enabled"])
    for user in (alice, carol):  # at the table, as their pages would say
        await sync_to_async(services.table_presence)(table_id=table.pk, user=user, connected=True)
    capture = Capture()
    await capture.add("watch", table.pk, bob)
    alice_held = [50_017]
    before = {alice: 50_017, carol: 2 * minimum + 7}
    await sync_to_async(services.table_fill_bots)(table_id=table.pk)  # the first hand starts
    number = 0
    for _ in range(2):
        hand = await sync_to_async(_play_hand)(table.pk, [alice, carol], number)
        number = hand.number
        await capture.drain(table.pk)
        assert hand.status == "settled"
        carried = {p["user"]: p["carried"] for p in hand.players}
        for user in (alice, carol):
            expected = target if before[user] >= target else minimum
            assert carried[user.pk] == expected, (slug, user.pk, before[user], carried[user.pk])
        held = {user.pk: await sync_to_async(wallet_balance)(user=user) for user in (alice, carol)}
        for user in (alice, carol):  # limited liability: what was carried bounds the loss
            assert before[user] - held[user.pk] <= carried[user.pk], (slug, user.pk)
        alice_held.append(held[alice.pk])
        before = {alice: held[alice.pk], carol: held[carol.pk]}
    await capture.close()

    seen = {n for frame in capture.frames["watch"] for n in ints_in(frame)}
    assert not seen & set(alice_held), (slug, seen & set(alice_held))
    assert await sync_to_async(ledger_check)() == []
