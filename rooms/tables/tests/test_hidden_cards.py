"""Hidden cards: over many hands of every seated game, no client is ever sent a card it may not see yet.

Every seat (the human and the bots) and a spectator hold a real socket through
the ASGI app; every frame they receive is kept. Beside them the test records
the true state of the hand at each ``seq`` (wrapping ``broadcast.snapshot`` and
``broadcast.frames_message``, which build every state message). Then, frame by frame:

- a spectator is sent no card beyond the engine's public view ``view(state, None)``;
- a seat is told no more of who else may act than ``Engine.shown_actors``;
- a seat is sent no card beyond its own (the cards the state deals to it), the
  public view, the public ``result``, and what the game's rules show that seat
  alone (炸金花: at the end, the hands it compared with).

Games come from ``games.REGISTRY``: a new seated game is covered as soon as it
registers (banker games have no seats and are tested by their own runtime).
"""

from __future__ import annotations

import copy
import json
import os

import pytest
from asgiref.sync import sync_to_async

import games
from rooms.tables import broadcast, services
from rooms.tables.models import Hand, Seat, Table
from rooms.tables.tests.cards_seen import PRIVATE_REVEALS, cards_in, seat_holdings
from rooms.tables.tests.conftest import expire, run_clock
from rooms.tables.tests.test_abuse import game_tier, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fast_tables")]

# 5 hands of each game fit CI's time; HIDDEN_CARDS_HANDS=30 (or more) for a longer run.
HANDS_PER_GAME = int(os.environ.get("HIDDEN_CARDS_HANDS", "5"))
SEATED = sorted(slug for slug, info in games.REGISTRY.items() if info.family == "seated")


@pytest.fixture(autouse=True)
def roomy_inbox(monkeypatch):
    # Room for every frame of a hand: a socket behind its inbox would get one resync instead.
    from rooms import sockets

    monkeypatch.setattr(sockets, "INBOX_SIZE", 100_000)


@pytest.fixture
def truth(monkeypatch):
    """Record (table, seq) → the true state of the table's hand (open, else last) at that seq."""
    import sys

    from rooms.tables import play

    recorded: dict[tuple[int, int], dict | None] = {}

    def state_of(ctx):
        hand = ctx.hand or ctx.last_hand
        return copy.deepcopy(hand.state) if hand else None

    def recording(build):
        def record(ctx, *args, **kwargs):
            # A change's frames are built before its write, which may find the table moved on
            # (they are then never sent): a committed change's own record below wins.
            recorded.setdefault((ctx.table.pk, ctx.table.seq), state_of(ctx))
            return build(ctx, *args, **kwargs)

        return record

    # Every state message is built by broadcast.snapshot (one viewer's: a connect, a
    # resync) or broadcast.frames_message (every viewer's frames of a change), wherever
    # they were imported.
    for attr in ("snapshot", "frames_message"):
        build = getattr(broadcast, attr)
        for name, module in list(sys.modules.items()):
            if name.startswith("rooms.") and getattr(module, attr, None) is build:
                monkeypatch.setattr(module, attr, recording(build))

    done = play._done

    def committed(ctx):
        recorded[(ctx.table.pk, ctx.table.seq)] = state_of(ctx)
        return done(ctx)

    monkeypatch.setattr(play, "_done", committed)
    return recorded


class Capture:
    """The sockets of one table: the spectator's and one per seat, and every frame each received."""

    def __init__(self) -> None:
        self.sockets: dict[object, object] = {}  # seat index or "watch" → communicator
        self.frames: dict[object, list[dict]] = {}

    async def add(self, key, table_id: int, user) -> None:
        comm, connected = await open_socket(table_id, user)
        assert connected
        self.sockets[key] = comm
        self.frames[key] = []

    async def drain(self, table_id: int) -> None:
        """Every socket's frames up to the table's last change and its notices (a ``result`` follows
        its ``state``): read up to a ping's pong, again until the change's frames are in."""
        seq = await sync_to_async(lambda: Table.objects.get(pk=table_id).seq)()
        for key, comm in self.sockets.items():
            frames = self.frames[key]
            while max((frame.get("seq", -1) for frame in frames), default=-1) < seq:
                await comm.send_json_to({"type": "ping"})
                while (frame := json.loads((await comm.receive_output(timeout=30))["text"]))[
                    "type"
                ] != "pong":
                    frames.append(frame)

    async def close(self) -> None:
        for comm in self.sockets.values():
            await comm.disconnect()


def start_and_play(table_id: int, user) -> Hand:
    """Ready the player (a hand starts), put her under 托管 and let everyone play it to the end."""
    if Table.objects.get(pk=table_id).status == Table.Status.WAITING:
        services.table_ready(table_id=table_id, user=user)
    run_clock()
    hand = Hand.objects.get(table_id=table_id, status="playing")
    services.table_trustee(table_id=table_id, user=user, on=True)
    for _ in range(50):
        run_clock(max_steps=2000)
        hand.refresh_from_db()
        if hand.status in (Hand.Status.SETTLED, Hand.Status.CANCELLED):
            return hand
        expire(hand)  # a phase only the clock ends (a die shown for a few seconds): its time passes
    raise AssertionError(f"hand {hand.pk} did not finish: {hand.status}")


@pytest.mark.parametrize("slug", SEATED)
async def test_no_frame_shows_a_card_before_the_rules_reveal_it(slug, make_player, truth):
    from rooms.tables.verify import hand_verification

    engine = games.REGISTRY[slug].engine
    alice, bob = await sync_to_async(make_player)(coins=50_000), await sync_to_async(make_player)()
    tier = await sync_to_async(game_tier)(slug)
    table = await sync_to_async(services.table_quick_start)(tier_id=tier.pk, user=alice)
    capture = Capture()
    await capture.add("watch", table.pk, bob)
    await capture.add(None, table.pk, alice)  # her seat index is known once she sits
    await sync_to_async(run_clock)()  # bots fill the table and the first hand starts
    seats = await sync_to_async(lambda: list(Seat.objects.filter(table=table).order_by("index")))()
    for seat in seats:
        if seat.user_id == alice.pk:
            capture.sockets[seat.index] = capture.sockets.pop(None)
            capture.frames[seat.index] = capture.frames.pop(None)
        else:
            await capture.add(seat.index, table.pk, await sync_to_async(lambda s=seat: s.user)())

    played = []
    for _ in range(HANDS_PER_GAME):
        played.append(await sync_to_async(start_and_play)(table.pk, alice))
        await capture.drain(table.pk)
    await capture.close()

    # Every hand the test saw is provably fair: its seed and its log reproduce it.
    for hand in played:
        check = await sync_to_async(hand_verification)(hand=hand)
        assert check.ok, (hand.pk, check.problems)

    public_notices: dict[int, set[str]] = {}
    for frame in capture.frames["watch"]:
        key = (table.pk, frame["seq"])
        assert key in truth, frame["seq"]
        state = truth[key]
        if frame["type"] == "state":
            public = cards_in(engine.view(state, None)) if state else set()
            assert cards_in(frame) <= public, ("spectator", frame["seq"], cards_in(frame) - public)
        else:  # result / cancelled: told to every viewer alike
            public_notices.setdefault(frame["seq"], set()).update(cards_in(frame))

    reveals = own_seen = 0
    for index in range(len(seats)):
        frames = capture.frames[index]
        seqs = sorted({f["seq"] for f in frames if f["type"] == "state"})
        assert seqs == list(range(seqs[0], seqs[-1] + 1)), (
            f"seat {index} missed a broadcast",
            set(range(seqs[0], seqs[-1] + 1)) - set(seqs),
            seqs[:5],
        )
        for frame in frames:
            state = truth[(table.pk, frame["seq"])]
            shown = cards_in(frame)
            if state is None:
                assert not shown
                continue
            own = seat_holdings(state)[index]
            public = cards_in(engine.view(state, None)) | public_notices.get(frame["seq"], set())
            private = PRIVATE_REVEALS.get(slug, lambda s, i: set())(state, index)
            leaked = shown - own - public - private
            assert not leaked, (slug, f"seat {index}", frame["type"], frame["seq"], sorted(leaked))
            # Who else may act is told as the engine's ``shown_actors``, never more exactly (a seat
            # that may claim a mahjong discard is a secret of its hand); the seat learns only its own part.
            head = frame.get("hand") if frame["type"] == "state" else None
            if head and head["status"] == Hand.Status.PLAYING:
                told = set(head["actors"]) - {index}
                assert told == set(engine.shown_actors(state)) - {index}, (
                    slug,
                    f"seat {index}",
                    frame["seq"],
                )
            own_seen += bool(shown & own)
            others = set().union(*(h for i, h in enumerate(seat_holdings(state)) if i != index))
            reveals += bool(shown & others)
    # The check saw something: seats saw their own cards, and the rules did reveal others' at times.
    assert own_seen > HANDS_PER_GAME
    assert reveals > 0


def test_a_later_occupant_of_a_seat_is_not_shown_the_last_hands_cards(make_player, settings):
    """Carol leaves between hands and bob takes her seat: the last hand's panel shows him only what anyone sees.

    The state's ``last_hand.view`` was the engine's view for the seat's index,
    whoever sits there now: bob saw the cards carol held in the hand before he
    sat down (炸金花: a folded hand the rules show nobody), although the seed,
    which would re-deal them, is kept from him for that very reason.
    """
    from rooms.tables.selectors import table_snapshot
    from rooms.tables.tests.helpers import play_until_over

    engine = games.REGISTRY["zhajinhua"].engine
    alice, carol, bob = (make_player(coins=50_000) for _ in range(3))
    tier = game_tier("zhajinhua")
    settings.TABLE_BOT_WAIT = 3600  # carol joins alice's table before the bots fill it
    table = services.table_quick_start(tier_id=tier.pk, user=alice)
    assert services.table_quick_start(tier_id=tier.pk, user=carol).pk == table.pk
    settings.TABLE_BOT_WAIT = 0
    for user in (alice, carol):
        services.table_presence(table_id=table.pk, user=user, connected=True)
    for user in (alice, carol):
        services.table_ready(table_id=table.pk, user=user)
    run_clock()
    hand = Hand.objects.get(table=table, status="playing")
    carols = Seat.objects.get(user=carol).index
    services.table_trustee(table_id=table.pk, user=alice, on=True)
    run_clock()  # alice and the bots play up to carol's turn, which waits for her
    hand.refresh_from_db()
    if hand.status == Hand.Status.PLAYING:
        assert engine.actors(hand.state) == [carols]
        services.table_act(table_id=table.pk, user=carol, action={"type": "fold"})
    hand = play_until_over(hand.pk)  # carol folded (or all the others did): nobody is shown her cards
    public = cards_in(engine.view(hand.state, None))
    secret = seat_holdings(hand.state)[carols] - public
    assert secret, "a folded hand is shown to nobody"

    services.table_leave(table_id=table.pk, user=carol)
    assert services.table_quick_start(tier_id=tier.pk, user=bob).pk == table.pk
    state = table_snapshot(table_id=table.pk, user=bob)
    assert state["you"]["seat"] == carols and state["hand"] is None
    assert state["last_hand"]["id"] == hand.pk and state["last_hand"]["seed"] is None
    assert not cards_in(state["last_hand"]["view"]) & secret
    assert cards_in(state["last_hand"]["view"]) <= public
    # Alice played it: her panel still shows her own cards.
    mine = table_snapshot(table_id=table.pk, user=alice)
    assert set(mine["last_hand"]["view"]["hand"]) == seat_holdings(hand.state)[mine["you"]["seat"]]
