"""升级 engine: the deal, 报主, 反主, 盖底, 甩牌, 扣底 and the coins, as seed 004 rules them."""

import copy

import pytest

from games.base import IllegalAction, SeatSpec, SeededRng
from games.shengji.engine import ShengjiEngine

ENGINE = ShengjiEngine()
SEATS = [SeatSpec(player_id=i + 1, coins=1000) for i in range(4)]


def new(config=None, seed=b"shengji-test-seed-0001"):
    return ENGINE.new_hand({"base_stake": 10, **(config or {})}, SEATS, SeededRng(seed, "hand"))


def deal_all(state):
    while state["phase"] == "dealing":
        state = ENGINE.on_deadline(state)
    return state


def test_the_clock_deals_one_card_to_each_seat_in_turn():
    state = new()
    assert ENGINE.actors(state) == [] and ENGINE.deadline_seconds(state) == 1
    state = ENGINE.on_deadline(state)
    assert [len(h) for h in state["_hands"]] == [1, 1, 1, 1]  # 004:2
    state = deal_all(state)
    assert [len(h) for h in state["_hands"]] in (
        [25, 25, 25, 25],
        [33, 25, 25, 25],
        [25, 33, 25, 25],
        [25, 25, 33, 25],
        [25, 25, 25, 33],
    )


def _first_declaration(config=None):
    """Deal until some seat may declare; return the state and its first declaration."""
    for n in range(40):
        state = new(config, seed=f"shengji-declare-{n:06d}".encode())
        while state["phase"] == "dealing":
            for seat in range(4):
                options = ENGINE.out_of_turn_actions(state, seat)
                if options:
                    return state, seat, options[0]
            state = ENGINE.on_deadline(state)
    raise AssertionError("no deal offered a declaration")


def test_first_hand_the_first_to_declare_is_declarer():
    state, seat, action = _first_declaration()
    level_card, joker = action["cards"][0], action["cards"][-1]
    assert level_card[0] == "2" and joker == ("DJ" if level_card[1] in "hd" else "XJ")  # 004:4
    declared = ENGINE.apply(state, seat, action)
    assert declared["declarer"] == seat and declared["suit"] == level_card[1]
    assert ENGINE.actors(declared) == [] and declared["phase"] == "dealing"  # the deal goes on
    for other in range(4):
        assert ENGINE.out_of_turn_actions(declared, other) == []  # one 抢报 only
    with pytest.raises(IllegalAction, match="cannot declare"):
        ENGINE.apply(declared, seat, action)


def test_later_hands_only_the_declaring_side_declares():
    state, seat, _action = _first_declaration({"first_seat": 1})
    assert seat % 2 == 1  # 004:5-6


def test_no_declaration_the_bottoms_third_card_names_the_trump():
    state = deal_all(new({"first_seat": 0}))
    card = state["_bottom"][2] if state["phase"] != "bury" else None
    log = next(e for e in state["log"] if e["type"] == "bottom_card")
    card = log["card"]
    assert state["suit"] == (None if card in ("XJ", "DJ") else card[1])  # 004:7
    holder = [s for s in range(4) if card in state["_hands"][s] and s != state["burier"]]
    if holder and holder[0] % 2 == 1:
        assert state["declarer"] == holder[0]


def _at_overcall(state, seat, hand_cards):
    """Put ``hand_cards`` at the front of ``seat``'s hand (swapping with whoever held them)."""
    state = copy.deepcopy(state)
    for card in hand_cards:
        for other in range(4):
            if other != seat and card in state["_hands"][other]:
                spare = next(c for c in state["_hands"][seat] if c not in hand_cards)
                state["_hands"][other].remove(card)
                state["_hands"][other].append(spare)
                state["_hands"][seat].remove(spare)
                state["_hands"][seat].append(card)
                break
    return state


def test_overcall_order_big_jokers_over_small_over_level_pair():
    state = deal_all(new({"first_seat": 0}))
    d = state["declarer"]
    state = ENGINE.apply(state, d, ENGINE.hint(state, d))  # the declarer buries first (004:13)
    one, two = (d + 1) % 4, (d + 2) % 4
    # The 反主 window as a 报主 in spades with one 2 and the 小王 leaves it.
    state.update(
        phase="overcall",
        declaration={"seat": d, "cards": ["2s", "XJ"], "suit": "s", "rank": 1},
        suit="s",
        level="2",
        overcalls=[],
        queue=[one, two, (d + 3) % 4],
        turn=one,
    )
    state = _at_overcall(state, one, ["2h", "2h", "DJ"])
    state = _at_overcall(state, two, ["XJ", "XJ"])
    pair = {"type": "overcall", "cards": ["2h", "2h", "DJ"]}
    assert pair in ENGINE.legal_actions(state, one)
    state = ENGINE.apply(state, one, pair)
    assert state["suit"] == "h" and state["declarer"] == d  # 004:13 炒底: the declarer stays
    assert state["phase"] == "bury" and state["burier"] == one  # the overcaller takes up the bottom
    assert len(state["_hands"][one]) == 33
    state = ENGINE.apply(state, one, ENGINE.hint(state, one))
    # Now only a pair of jokers overcalls (004:14): the 小王 pair makes 无主.
    assert state["turn"] == two
    assert ENGINE.legal_actions(state, two)[0] == {"type": "overcall", "cards": ["XJ", "XJ"]}
    assert {"type": "overcall", "cards": ["2h", "2h", "DJ"]} not in ENGINE.legal_actions(state, two)
    state = ENGINE.apply(state, two, {"type": "overcall", "cards": ["XJ", "XJ"]})
    assert state["suit"] is None and state["burier"] == two


def test_a_failed_throw_plays_the_smallest_part_and_costs_half_the_base():
    state = deal_all(new({"first_seat": 0}))
    while state["phase"] != "play":
        seat = ENGINE.actors(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    state = copy.deepcopy(state)
    leader = state["turn"]
    state.update(level="2", suit="s")
    state["_hands"][leader][:3] = ["Ah", "Qh", "3c"]
    nxt = (leader + 1) % 4
    state["_hands"][nxt][:1] = ["Kh"]
    state = ENGINE.apply(state, leader, {"type": "play", "cards": ["Ah", "Qh"]})
    assert state["trick"][0]["cards"] == ["Qh"] and state["trick"][0]["failed_throw"] == ["Ah", "Qh"]
    assert state["penalties"] == [{"seat": leader, "amount": 5}]


def test_a_lead_must_be_of_one_suit():
    state = deal_all(new({"first_seat": 0}))
    while state["phase"] != "play":
        seat = ENGINE.actors(state)[0]
        state = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    leader = state["turn"]
    hand = state["_hands"][leader]
    trump = ENGINE.trump(state)
    from games.shengji import rules

    mixed = next([a, b] for a in hand for b in hand if rules.suit_of(a, trump) != rules.suit_of(b, trump))
    with pytest.raises(IllegalAction, match="one suit"):
        ENGINE.apply(state, leader, {"type": "play", "cards": mixed})


def test_a_whole_hand_settles_with_the_level_table_and_limited_liability():
    seats = [SeatSpec(player_id=i + 1, coins=c) for i, c in enumerate((5, 1000, 1000, 1000))]
    state = ENGINE.new_hand(
        {"base_stake": 10, "first_seat": 0}, seats, SeededRng(b"shengji-test-seed-0002", "hand")
    )
    while ENGINE.outcome(state) is None:
        actors = ENGINE.actors(state)
        if not actors:
            state = ENGINE.on_deadline(state)
        else:
            state = ENGINE.apply(state, actors[0], ENGINE.hint(state, actors[0]))
    outcome = ENGINE.outcome(state)
    assert sum(outcome.deltas) == 0
    assert all(abs(d) <= s.coins for d, s in zip(outcome.deltas, seats, strict=True))
    details = outcome.details
    assert details["face_points"] + details["bottom_points"] <= 200
    if details["levels_gained"]:
        losers = [s for s in range(4) if s not in outcome.winners]
        assert all(outcome.deltas[s] < 0 for s in losers if seats[s].coins)
    assert details["next_declarer"] in (2, 1)  # 004:32-33 from declarer 0 (or its overcaller's side)


def test_first_hand_overcall_makes_the_overcaller_declarer_before_the_bottom_is_taken():
    state, seat, action = _first_declaration()
    state = ENGINE.apply(
        state,
        seat,
        {"type": "declare", "cards": action["cards"][-2:]} if len(action["cards"]) == 3 else action,
    )
    state = deal_all(state)
    assert state["phase"] in ("overcall", "bury")
    if state["phase"] == "bury":
        assert state["burier"] == seat  # nobody held an overcall: the declarer takes up the bottom
        return
    other = state["turn"]
    assert other != seat and len(state["_hands"][seat]) == 25  # 004:12: before the bottom is taken
    overcall = ENGINE.legal_actions(state, other)[0]
    state = ENGINE.apply(state, other, overcall)
    assert state["declarer"] == other  # 反主反打
    while state["phase"] == "overcall":
        state = ENGINE.apply(state, state["turn"], {"type": "pass"})
    assert state["phase"] == "bury" and state["burier"] == state["declarer"]


def _play_out(state):
    """The hand to its end, every seat playing the 提示 and the clock dealing."""
    while ENGINE.outcome(state) is None:
        actors = ENGINE.actors(state)
        state = (
            ENGINE.apply(state, actors[0], ENGINE.hint(state, actors[0]))
            if actors
            else ENGINE.on_deadline(state)
        )
    return ENGINE.outcome(state)


def test_levels_and_the_next_declarer_carry_to_the_next_hand_of_the_match():
    outcome = _play_out(new({"levels": ["3", "4"]}))
    details = outcome.details
    carry = details["carry"]  # 004:1, 004:30: the match goes on from the levels reached
    assert carry == {
        "pot": 0,
        "players": [1, 2, 3, 4],
        "levels": details["levels_after"],
        "declarer": details["next_declarer"],
        "min_players": 4,
    }
    assert details["match_over"] is False  # nobody passes A from 3 and 4
    following = new({"carry": carry}, seed=b"shengji-test-seed-0003")  # the tier's levels are ignored
    assert following["levels"] == carry["levels"] and following["first_hand"] is False
    assert following["declarer"] == following["start"] == carry["declarer"]  # 轮庄 004:32-33
    assert following["level"] == carry["levels"][carry["declarer"] % 2]
    nxt = _play_out(following).details
    assert nxt["carry"]["levels"] == nxt["levels_after"] and nxt["carry"]["declarer"] == nxt["next_declarer"]


def test_a_side_passing_A_ends_the_match_and_nothing_carries():
    for n in range(20):  # a hand where some side rises (换庄 raises nobody)
        details = _play_out(new({"levels": ["A", "A"]}, seed=b"shengji-ace-seed-%04d" % n)).details
        if details["levels_gained"]:
            break
    assert details["levels_gained"] > 0
    assert details["match_over"] is True and details["carry"] is None  # the next hand starts a new match
    assert details["levels_after"].count("A") == 1  # 004:30: the risen side went past A to 2 and on
    fresh = new({"levels": ["2", "2"]})
    assert fresh["first_hand"] is True and fresh["levels"] == ["2", "2"]  # 抢报 again


@pytest.mark.parametrize(
    "carry",
    [
        {"pot": 0, "players": [1, 2, 4, 3], "levels": ["3", "4"], "declarer": 0},  # seats changed
        {"pot": 0, "players": [1, 2, 3], "levels": ["3", "4"], "declarer": 0},
        {"pot": 0, "players": [1, 2, 3, 4], "levels": ["3", "1"], "declarer": 0},
        {"pot": 0, "players": [1, 2, 3, 4], "levels": ["3", "4"], "declarer": 4},
        {"pot": 0, "players": [1, 2, 3, 4], "levels": "34", "declarer": 1},
        "levels",
    ],
)
def test_a_malformed_carried_match_is_refused(carry):
    with pytest.raises(ValueError):
        new({"carry": carry})
