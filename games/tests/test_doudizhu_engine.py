"""斗地主 engine: the seeds' worked examples, springs, caps, limited liability, bidding flows, 托管."""

import json

import pytest

import games
from games.base import IllegalAction, SeededRng, apply_rake
from games.doudizhu.rules import sort_cards
from games.doudizhu.scoring import limited_liability, settle
from games.tests.ddz_helpers import config, seats
from games.tests.test_doudizhu_rules import cards

ENGINE = games.REGISTRY["doudizhu"].engine
PASS = {"type": "pass"}


def rng(label="t"):
    return SeededRng(b"engine-tests-seed-0001", label)


def act(state, action, seat=None):
    seat = state["turn"] if seat is None else seat
    return ENGINE.apply(state, seat, action)


def bid(points):
    return {"type": "bid", "points": points}


def play(text):
    return {"type": "play", "cards": cards(text)}


def landlord_state(variant, hands, *, coins=(100000, 100000, 100000), bid_points=3, **cfg):
    """Let the first bidder call ``bid_points`` (others pass), skip robbing/doubling, then set the hands.

    ``hands`` are rank strings relative to the landlord: [landlord, next farmer, last farmer].
    """
    state = ENGINE.new_hand(config(variant, first_seat=0, **cfg), seats(coins), rng())
    landlord = state["turn"]
    state = act(state, bid(bid_points))
    while state["phase"] != "playing":
        state = act(state, PASS)
    assert state["landlord"] == landlord
    state = dict(state)
    state["hands"] = [None, None, None]
    for offset, text in enumerate(hands):
        state["hands"][(landlord + offset) % 3] = sort_cards(cards(text))
    return state, landlord


def test_yifa_worked_example_from_002():
    """002 line 24: N=10, 底分 3, 倍数 2, landlord wins: +120 gross, 114 after the 5% rake; farmers -60."""
    state, ll = landlord_state("yifa", ["3 4444 A", "5 K", "6 Q"], room_factor=10, base_stake=1)
    state = act(state, play("3"))
    state = act(state, play("5"))  # the farmers play, so no spring
    state = act(state, PASS)
    state = act(state, play("4444"))  # one bomb: 倍数 2
    state = act(state, PASS)
    state = act(state, PASS)
    state = act(state, play("A"))
    outcome = ENGINE.outcome(state)
    assert outcome.details["winner"] == "landlord"
    assert outcome.details["multiple"] == 2 and outcome.details["bid"] == 3
    assert outcome.deltas[ll] == 120
    assert sorted(outcome.deltas) == [-60, -60, 120]
    net, rake = apply_rake(outcome.deltas, 500)
    assert net[ll] == 114 and rake == 6
    assert outcome.winners == [ll]


def test_yifa_shown_card_picks_the_first_bidder_and_is_visible():
    state = ENGINE.new_hand(config("yifa", first_seat=2), seats(), rng("shown"))
    shown = state["shown_card"]
    assert shown["card"] in state["hands"][shown["seat"]]
    assert state["turn"] == shown["seat"] == state["first_bidder"]
    for viewer in (0, 1, 2, None):
        assert ENGINE.view(state, viewer)["shown_card"] == shown


def test_classic_spring_doubles():
    state, ll = landlord_state("classic", ["KK A", "5", "6"])
    for action in (play("KK"), PASS, PASS, play("A")):
        state = act(state, action)
    outcome = ENGINE.outcome(state)
    assert outcome.details["spring"] == "spring"
    assert outcome.details["multiple"] == 2
    # 001 1.4.4: landlord +2 × 底分 10 × 叫分 3 × 倍数 2
    assert outcome.deltas[ll] == 120 and sorted(outcome.deltas) == [-60, -60, 120]
    assert ENGINE.view(state, None)["spring"] == "spring"


def test_classic_anti_spring_doubles():
    state, ll = landlord_state("classic", ["3 KK", "2", "6 7"])
    state = act(state, play("3"))
    state = act(state, play("2"))  # a farmer goes out while the landlord played one hand
    outcome = ENGINE.outcome(state)
    assert outcome.details["winner"] == "farmers"
    assert outcome.details["spring"] == "anti_spring"
    assert outcome.deltas[ll] == -120
    assert outcome.details["next_first_seat"] == (ll + 1) % 3
    assert outcome.details["hands"][ll] == ["Ks", "Kh"]


def test_no_spring_when_the_landlord_played_twice():
    state, ll = landlord_state("classic", ["3 K Q", "5 2", "6 7"])
    for action in (play("3"), play("5"), play("6"), play("K"), play("2")):
        state = act(state, action)
    assert ENGINE.outcome(state).details["spring"] is None


def test_classic_cap_30():
    """001 1.4.1: 叫分 × 倍数 stops at 30 (3 × 2^5 = 96 → 30)."""
    state, ll = landlord_state("classic", ["3333 4444 5555 6666 A", "7", "8"])
    for bomb in ("3333", "4444", "5555", "6666"):
        state = act(state, play(bomb))
        state = act(state, PASS)
        state = act(state, PASS)
    state = act(state, play("A"))
    outcome = ENGINE.outcome(state)
    assert outcome.details["bombs"] == 4 and outcome.details["multiple"] == 32
    assert outcome.deltas[ll] == 2 * 10 * 30
    assert sorted(outcome.deltas) == [-300, -300, 600]


def test_jiabei_caps_128_and_256():
    opts = {"farmer_cap": 128, "landlord_cap": 256, "cap_multiple": 30, "doubling_cap": 4}
    scores, multiples = settle(
        variant="jiabei",
        stake=10,
        bid=3,
        landlord=0,
        landlord_won=True,
        doublings=5,
        pair_robs=[0, 0, 0],
        global_robs=2,
        doubled=[False, True, False],
        options=opts,
    )
    # farmer 1: 3 × 2^(5+2+1) = 768 → 128; farmer 2: 3 × 2^7 = 384 → 128; landlord 256.
    assert multiples == [256, 128, 128]
    assert scores == [2560, -1280, -1280]
    scores, multiples = settle(
        variant="jiabei",
        stake=10,
        bid=1,
        landlord=0,
        landlord_won=False,
        doublings=0,
        pair_robs=[0, 0, 0],
        global_robs=1,
        doubled=[False, True, False],
        options=opts,
    )
    # 加倍 only affects the farmer who doubled (001 加倍斗地主 1.1.4).
    assert multiples == [6, 4, 2] and scores == [-60, 40, 20]


def test_jiabei_cap_in_a_played_hand():
    state, ll = landlord_state("jiabei", ["3333 4444 5555 6666 7777 A", "8", "9"], bid_points=3)
    for bomb in ("3333", "4444", "5555", "6666", "7777"):
        state = act(state, play(bomb))
        state = act(state, PASS)
        state = act(state, PASS)
    state = act(state, play("A"))
    details = ENGINE.outcome(state).details
    assert details["multiple"] == 64  # five bombs and spring
    assert details["multiples"][ll] == 256
    assert ENGINE.outcome(state).deltas[ll] == 2560


def test_yifa_doublings_capped_at_four():
    opts = {"farmer_cap": 128, "landlord_cap": 256, "cap_multiple": 30, "doubling_cap": 4}
    _scores, multiples = settle(
        variant="yifa",
        stake=10,
        bid=3,
        landlord=0,
        landlord_won=True,
        doublings=5,
        pair_robs=[0, 1, 0],
        global_robs=1,
        doubled=[False, False, False],
        options=opts,
    )
    assert multiples[1] == 3 * 16 and multiples[2] == 3 * 16


def test_limited_liability_rule_02_farmers_short():
    """001 1.4.2 02): a farmer who carried too little pays what he has; the landlord gets the farmers' sum."""
    assert limited_liability([200, -100, -100], [10000, 50, 10000], 0) == [150, -50, -100]


def test_limited_liability_rule_03_landlord_short():
    """001 1.4.2 03): a landlord who carried 120 wins 120, shared by the farmers in proportion."""
    assert limited_liability([200, -100, -100], [120, 1000, 1000], 0) == [120, -60, -60]
    assert limited_liability([-300, 200, 100], [150, 1000, 1000], 0) == [-150, 100, 50]
    # rounding toward zero (舍去小数): 100 × 2/3 = 66.6 → 66, 100 × 1/3 → 33; the landlord pays 99.
    assert limited_liability([-300, 200, 100], [100, 1000, 1000], 0) == [-99, 66, 33]


def test_limited_liability_in_a_played_hand():
    state, ll = landlord_state("classic", ["KK A", "5", "6"], coins=(100, 100, 100))
    state = dict(state)
    coins = [100, 100, 100]
    coins[(ll + 1) % 3] = 25
    state["coins"] = coins
    for action in (play("KK"), PASS, PASS, play("A")):
        state = act(state, action)
    outcome = ENGINE.outcome(state)
    # normal: landlord +120, farmers -60 each; the 25-coin farmer pays 25, landlord takes 25 + 60 = 85.
    assert outcome.deltas[ll] == 85
    assert outcome.deltas[(ll + 1) % 3] == -25 and outcome.deltas[(ll + 2) % 3] == -60
    assert outcome.details["scores"][ll] == 120


def test_redeal_when_everyone_passes():
    first = ENGINE.new_hand(config("classic", first_seat=1), seats(), rng("redeal"))
    state = first
    for _ in range(3):
        state = act(state, PASS)
    assert state["phase"] == "bidding" and state["redeals"] == 1
    assert state["turn"] == 1 and state["bids"] == [None, None, None]
    assert state["hands"] != first["hands"]
    assert sum(len(h) for h in state["hands"]) == 51
    again = first
    for _ in range(3):
        again = act(again, PASS)
    assert again == state  # a redeal is replayable from the seed
    assert "_seed" not in json.dumps(ENGINE.view(state, 0))


def all_auto(state, limit=10_000):
    """Let 托管 act for every seat until the hand ends; return the end state and the actions taken."""
    steps = 0
    while state["phase"] != "finished":
        assert steps < limit, f"the hand did not end after {steps} automatic actions"
        state = ENGINE.on_deadline(state)
        steps += 1
    return state, steps


@pytest.mark.parametrize("variant", ["classic", "yifa", "jiabei"])
def test_all_tuoguan_hand_is_void_after_the_redeal_limit(variant):
    """Every seat under 托管 never bids: after 3 redeals the 4th all-pass deal ends the hand with no result."""
    state = ENGINE.new_hand(config(variant, first_seat=1), seats(), rng("all-auto"))
    end, steps = all_auto(state)
    assert steps == 4 * 3  # four deals, three passes each, then nothing more
    assert end["redeals"] == 3 and end["turn"] is None
    assert ENGINE.actors(end) == [] and ENGINE.deadline_seconds(end) is None
    outcome = ENGINE.outcome(end)
    assert outcome.deltas == [0, 0, 0] and outcome.winners == []
    assert outcome.details["winner"] == "void" and outcome.details["void"] is True
    assert outcome.details["next_first_seat"] == end["first_bidder"]
    assert apply_rake(outcome.deltas, 500) == ([0, 0, 0], 0)  # no fee on a void hand
    view = ENGINE.view(end, 0)
    assert view["phase"] == "finished" and view["result"]["winner"] == "void"
    assert view["result"]["deltas"] == [0, 0, 0]
    with pytest.raises(IllegalAction, match="The hand is over."):
        ENGINE.apply(end, 1, PASS)


def test_redeal_limit_is_a_tier_option():
    state = ENGINE.new_hand(config("classic", first_seat=0, redeal_limit=0), seats(), rng())
    for _ in range(3):
        state = act(state, PASS)
    assert state["phase"] == "finished" and state["redeals"] == 0
    state = ENGINE.new_hand(config("classic", first_seat=0, redeal_limit=5), seats(), rng())
    _end, steps = all_auto(state)
    assert steps == 6 * 3
    with pytest.raises(ValueError):
        ENGINE.new_hand(config("classic", all_pass="landlord"), seats(), rng())
    with pytest.raises(ValueError):
        ENGINE.new_hand(config("classic", redeal_limit=-1), seats(), rng())


@pytest.mark.parametrize("variant", ["classic", "yifa", "jiabei"])
def test_all_pass_first_bidder_rule_forces_a_landlord_and_the_hand_is_played_out(variant):
    """The other reading: after the last redeal the first bidder is landlord at 1 point; 托管 plays it out."""
    state = ENGINE.new_hand(config(variant, first_seat=2, all_pass="first_bidder"), seats(), rng("forced"))
    for _ in range(3 * 3):
        state = ENGINE.on_deadline(state)
    assert state["redeals"] == 3 and state["phase"] == "bidding"
    first = state["first_bidder"]
    for _ in range(3):
        state = ENGINE.on_deadline(state)
    assert state["bid"] == 1 and state["bids"][first] == 1 and state["phase"] != "bidding"
    while state["phase"] != "playing":  # yifa: the others may still rob; 托管 does not
        state = ENGINE.on_deadline(state)
    assert state["landlord"] == first and len(state["hands"][first]) == 20
    end, _steps = all_auto(state)
    outcome = ENGINE.outcome(end)
    assert outcome.details["landlord"] == first and outcome.details["bid"] == 1
    assert sum(outcome.deltas) == 0 and any(outcome.deltas)


def test_classic_bidding_three_ends_at_once_and_bids_must_rise():
    state = ENGINE.new_hand(config("classic", first_seat=0), seats(), rng())
    state = act(state, bid(1))
    with pytest.raises(IllegalAction, match="You must bid higher than 1, or pass."):
        act(state, bid(1))
    assert [a.get("points") for a in ENGINE.legal_actions(state, 1)] == [2, 3, None]
    state = act(state, bid(3))
    assert state["phase"] == "playing" and state["landlord"] == 1 and state["turn"] == 1
    assert len(state["hands"][1]) == 20
    assert ENGINE.view(state, 0)["bottom"] == state["bottom"]


def test_classic_highest_bid_wins_after_three_turns():
    state = ENGINE.new_hand(config("classic", first_seat=2), seats(), rng())
    for action in (bid(1), PASS, bid(2)):
        state = act(state, action)
    assert state["landlord"] == 1 and state["bid"] == 2


def test_jiabei_rob_and_double_flow():
    """001 加倍斗地主: rob from the caller's next seat, callers only, each rob ×2; farmers double for themselves."""
    state = ENGINE.new_hand(config("jiabei", first_seat=0), seats(), rng())
    for action in (bid(1), bid(2), PASS):  # seats 0, 1 call; seat 2 passes
        state = act(state, action)
    assert state["phase"] == "robbing" and state["turn"] == 0  # seat 2 never called, so may not rob
    state = act(state, {"type": "rob"})
    assert state["phase"] == "robbing" and state["turn"] == 1  # the caller may rob back
    state = act(state, {"type": "rob"})
    assert state["landlord"] == 1 and state["phase"] == "doubling"
    assert state["turn"] == 2
    state = act(state, {"type": "double"})
    assert state["turn"] == 0
    state = act(state, PASS)
    assert state["phase"] == "playing" and state["turn"] == 1
    view = ENGINE.view(state, 2)
    # 叫分 2 × robs 2^2: farmer 2 doubled (×2) → 16, farmer 0 → 8, landlord 24.
    assert view["multiples"] == [8, 24, 16]


def test_yifa_rob_doubles_only_between_robber_and_robbed():
    state = ENGINE.new_hand(config("yifa"), seats(), rng("yifa-rob"))
    first = state["turn"]
    robber = (first + 1) % 3
    state = act(state, bid(3))
    assert state["phase"] == "robbing" and state["turn"] == robber
    state = act(state, {"type": "rob"})
    state = act(state, PASS)  # the third player declines
    state = act(state, PASS)  # the caller declines to rob back
    assert state["landlord"] == robber
    # the caller had a chance to bid, the third seat did not: only he may 加倍.
    third = (first + 2) % 3
    assert state["phase"] == "doubling" and state["turn"] == third
    state = act(state, {"type": "double"})
    assert state["phase"] == "playing"
    multiples = ENGINE.view(state, None)["multiples"]
    assert multiples[first] == 3 * 2 and multiples[third] == 3 * 2 and multiples[robber] == 12


def test_auto_actions_pass_when_bidding_and_play_the_hint_when_playing():
    state = ENGINE.new_hand(config("classic", first_seat=0), seats(), rng())
    assert ENGINE.auto_action(state, 0) == PASS
    assert ENGINE.deadline_seconds(state) == 20
    after = ENGINE.on_deadline(state)
    assert after["bids"][0] == 0 and after["turn"] == 1
    state, ll = landlord_state("classic", ["3 5 KK", "4 Q", "6 7"])
    assert ENGINE.deadline_seconds(state) == 30
    state = ENGINE.on_deadline(state)
    assert state["last_play"]["cards"] == ["3s"]
    state = ENGINE.on_deadline(state)  # following the landlord: 托管 beats with the 提示
    assert state["trick"][(ll + 1) % 3] == {"cards": ["4s"], "kind": "single"}
    state = ENGINE.on_deadline(state)  # following his partner: 托管 lets the 4 stand
    assert state["trick"][(ll + 2) % 3] == "pass"
    assert ENGINE.deadline_seconds({**state, "options": {**state["options"], "turn_seconds": 15}}) == 15


def test_hint_beats_with_the_smallest_play():
    state, ll = landlord_state("classic", ["55 KK 9", "66 AA 3333", "77 8"])
    assert ENGINE.hint(state, ll) == {"type": "play", "cards": ["5s", "5h"]}
    state = act(state, play("KK"))
    assert sorted(ENGINE.hint(state, (ll + 1) % 3)["cards"]) == sorted(cards("AA"))
    state = act(state, play("AA"))
    assert ENGINE.hint(state, (ll + 2) % 3) == PASS
    assert ENGINE.hint(state, ll) is None  # not his turn


def test_illegal_messages_are_readable():
    state, ll = landlord_state("classic", ["33 5 K", "55 2", "66"])
    with pytest.raises(IllegalAction, match="It is not your turn."):
        ENGINE.apply(state, (ll + 1) % 3, play("55"))
    with pytest.raises(IllegalAction, match="You do not hold Kh."):
        act(state, {"type": "play", "cards": ["Kh"]})  # cards("K") is Ks
    with pytest.raises(IllegalAction, match="You lead this round, so you must play."):
        act(state, PASS)
    with pytest.raises(IllegalAction, match="3-5 is not a legal play."):
        act(state, {"type": "play", "cards": ["3s", "5s"]})
    with pytest.raises(IllegalAction, match="You chose the same card twice."):
        act(state, {"type": "play", "cards": ["3s", "3s"]})
    with pytest.raises(IllegalAction, match="1x is not a card."):
        act(state, {"type": "play", "cards": ["1x"]})
    with pytest.raises(IllegalAction, match="Bid 1, 2 or 3 points, or pass."):
        ENGINE.apply(ENGINE.new_hand(config("classic", first_seat=0), seats(), rng()), 0, {"type": "rob"})


@pytest.mark.parametrize("points", [2.0, True, "2", None, [2]])
def test_a_bid_must_be_a_whole_number_of_points(points):
    state = ENGINE.new_hand(config("classic", first_seat=0), seats(), rng())
    with pytest.raises(IllegalAction, match="A bid is 1, 2 or 3 points."):
        ENGINE.apply(state, 0, {"type": "bid", "points": points})


@pytest.mark.parametrize(
    "action",
    [{"type": "pass", "seat": 2}, {"type": "bid", "points": 2, "seat": 1}, {"type": "bid"}, {"type": "fold"}],
)
def test_an_action_with_missing_extra_or_unknown_keys_is_refused(action):
    state = ENGINE.new_hand(config("classic", first_seat=0), seats(), rng())
    with pytest.raises(IllegalAction, match="That is not an action in this game."):
        ENGINE.apply(state, 0, action)


def test_follow_must_beat():
    state, ll = landlord_state("classic", ["55 33 K", "44 2", "66 7"])
    state = act(state, play("55"))
    state = act(state, PASS)
    with pytest.raises(IllegalAction, match="Your 6 does not beat 5-5."):
        act(state, {"type": "play", "cards": ["6s"]})
    state = act(state, play("66"))
    with pytest.raises(IllegalAction, match="Your 3-3 does not beat 6-6."):
        act(state, play("33"))


def test_two_passes_give_the_lead_back():
    state, ll = landlord_state("classic", ["3 K Q", "4", "5"])
    state = act(state, play("K"))
    state = act(state, PASS)
    state = act(state, PASS)
    assert state["turn"] == ll and state["last_play"] is None
    view = ENGINE.view(state, ll)
    assert view["can_pass"] is False and view["can_play"] is True and view["last_play"] is None
    state = act(state, play("3"))
    assert ENGINE.view(state, None)["trick"][ll] == {"cards": ["3s"], "kind": "single"}


def test_views_hide_hands_and_bottom():
    state = ENGINE.new_hand(config("classic", first_seat=0), seats(), rng())
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["bottom"] is None
    mine = ENGINE.view(state, 0)
    assert mine["hand"] == state["hands"][0] and mine["counts"] == [17, 17, 17]
    assert mine["choices"] == [bid(1), bid(2), bid(3), PASS]
    assert ENGINE.view(state, 1)["choices"] == []
    for viewer in (0, 1, 2, None):
        view = ENGINE.view(state, viewer)
        for other in range(3):
            if other != viewer:
                assert not set(state["hands"][other]) & set(json.dumps(view).replace('"', " ").split())


def test_finished_view_reveals_every_hand():
    state, ll = landlord_state("classic", ["KK A", "5 6", "7"])
    for action in (play("KK"), PASS, PASS, play("A")):
        state = act(state, action)
    view = ENGINE.view(state, None)
    assert view["phase"] == "finished" and view["turn"] is None
    assert view["result"]["winner"] == "landlord"
    assert sorted(view["result"]["hands"][(ll + 1) % 3]) == sorted(cards("56"))
    assert ENGINE.actors(state) == [] and ENGINE.deadline_seconds(state) is None
    with pytest.raises(IllegalAction, match="The hand is over."):
        act(state, PASS, seat=0)


def test_apply_accepts_any_suit_choice():
    state, ll = landlord_state("classic", ["33 K", "4", "5"])
    held = [c for c in state["hands"][ll] if c.startswith("3")]
    state = ENGINE.apply(state, ll, {"type": "play", "cards": list(reversed(held))})
    assert state["last_play"]["kind"] == "pair"


def test_registry_entry():
    info = games.REGISTRY["doudizhu"]
    assert info.family == "seated" and info.min_seats == info.max_seats == 3
    assert info.default_options["variant"] == "classic"


def test_a_rocket_played_doubles_but_a_held_bomb_and_a_four_with_two_do_not():
    """003:150: bombs and rockets count when played, not held; 003:142: 四带二 is not a bomb."""
    state, ll = landlord_state("classic", ["3 XD 6666 4 K", "5 8", "7777 9"])
    state = act(state, play("3"))
    state = act(state, play("5"))  # a farmer plays, so no spring
    state = act(state, PASS)
    state = act(state, play("XD"))  # the rocket: ×2
    state = act(state, PASS)
    state = act(state, PASS)
    state = act(state, play("6666 4 K"))  # 四带二: not a bomb; the landlord goes out
    outcome = ENGINE.outcome(state)
    assert outcome.details["bombs"] == 1 and outcome.details["multiple"] == 2
    assert outcome.details["spring"] is None
    assert outcome.details["hands"][(ll + 2) % 3] == sort_cards(cards("7777 9"))  # held, never counted
    # 001 1.4.4: landlord +2 × 底分 10 × 叫分 3 × 倍数 2
    assert outcome.deltas[ll] == 120 and sorted(outcome.deltas) == [-60, -60, 120]
