"""斗地主 提示 (hint) and 托管 (auto-play): the cheapest sensible play, from the plays the engine lists."""

from __future__ import annotations

import random

import pytest

import games
from games.doudizhu import rules
from games.tests.test_doudizhu_engine import PASS, act, landlord_state, play
from games.tests.test_doudizhu_rules import cards

ENGINE = games.REGISTRY["doudizhu"].engine


def hinted(state, seat) -> list[str]:
    """The 提示 sequence as rank texts, e.g. ["K", "2", "8"]."""
    out = []
    for action in ENGINE.hints(state, seat):
        text = "".join(
            rules.RANK_CHARS[rules.RANK_OF[c]] if c[1] != "J" else c[0] for c in action.get("cards", [])
        )
        out.append(text or "pass")
    return out


def following(table: str, hand: str):
    """A state in which the first farmer holds ``hand`` and must answer the landlord's ``table``."""
    state, ll = landlord_state("classic", [table + " 3", hand, "4"])
    state = act(state, play(table))
    return state, (ll + 1) % 3


def test_hint_keeps_trios_and_the_rocket_whole_when_a_smaller_play_beats():
    """The issue: 提示 broke a trio and followed with 大王 as a single while a K beat the 7."""
    state, seat = following("7", "888 K 2 X D")
    assert hinted(state, seat) == ["K", "2", "8", "DX", "X", "D"]
    assert ENGINE.hint(state, seat) == {"type": "play", "cards": ["Ks"]}


def test_hint_splits_a_pair_before_it_bombs_and_bombs_only_when_nothing_else_beats():
    state, seat = following("7", "99 3333")
    assert hinted(state, seat) == ["9", "3333"]
    state, seat = following("A", "5555 3")
    assert hinted(state, seat)[0] == "5555"


def test_hint_goes_out_first_even_with_a_bomb():
    state, seat = following("4", "5555")
    assert hinted(state, seat) == ["5555", "5"]


def test_hint_follows_with_the_lowest_body_and_the_lowest_kicker_that_keep_groups_whole():
    state, seat = following("3334", "555 666 7 88 KK")
    # 555+7 keeps every group whole; 666+7 next; then kickers that split a pair or a trio.
    assert hinted(state, seat)[:2] == ["7555", "7666"]


def test_hint_when_leading_sheds_the_lowest_card_with_the_longest_play():
    state, ll = landlord_state("classic", ["3 4 5 6 7 999 K", "5", "6"])
    assert hinted(state, ll)[0] == "76543"  # the straight from the 3, before the 3 alone
    state, ll = landlord_state("classic", ["3 888 K", "5", "6"])
    assert hinted(state, ll)[0] == "8883"
    state, ll = landlord_state("classic", ["3333 5 6", "5", "6"])
    assert hinted(state, ll)[0] == "653333"  # the whole hand: 四带二 goes out


def test_hints_are_legal_distinct_and_start_with_the_hint():
    rng = random.Random("ddz-hints-cycle")
    state, ll = landlord_state("classic", ["33 444 5 6 7 8 9 JJJJ Q K A 2 X D", "5 8 Q A", "6 9 K 2"])
    for _ in range(6):
        listed = ENGINE.legal_actions(state, state["turn"])
        found = ENGINE.hints(state, state["turn"])
        assert found[0] == ENGINE.hint(state, state["turn"])
        assert all(action in listed for action in found)
        assert len({tuple(a.get("cards", ())) for a in found}) == len(found)
        state = ENGINE.apply(state, state["turn"], rng.choice(listed))


def test_hints_when_nothing_beats_or_not_his_turn():
    state, seat = following("2", "K Q")
    assert ENGINE.hints(state, seat) == [PASS] and ENGINE.hint(state, seat) == PASS
    assert ENGINE.hints(state, (seat + 1) % 3) == [] and ENGINE.hint(state, (seat + 1) % 3) is None


@pytest.mark.parametrize("variant", ["classic", "yifa", "jiabei"])
def test_tuoguan_passes_before_play(variant):
    from games.tests.ddz_helpers import config, seats
    from games.tests.test_doudizhu_engine import rng

    state = ENGINE.new_hand(config(variant, first_seat=0), seats(), rng())
    while state["phase"] != "playing":
        assert ENGINE.auto_action(state, state["turn"]) == PASS
        state = ENGINE.apply(
            state, state["turn"], {"type": "bid", "points": 3} if state["phase"] == "bidding" else PASS
        )


def test_tuoguan_beats_the_landlord_and_lets_a_partners_play_stand():
    state, ll = landlord_state("classic", ["5 9", "7 8 Q", "6 K"])
    state = act(state, play("5"))
    first, second = (ll + 1) % 3, (ll + 2) % 3
    assert ENGINE.auto_action(state, first) == {"type": "play", "cards": ["7s"]}
    state = act(state, play("8"))  # the first farmer plays
    assert ENGINE.auto_action(state, second) == PASS  # his partner's 8 stands
    state = act(state, PASS)
    assert ENGINE.auto_action(state, ll) == {"type": "play", "cards": ["9s"]}


def test_tuoguan_goes_out_over_a_partner():
    state, ll = landlord_state("classic", ["5 9", "7 8 Q", "K"])
    state = act(state, play("5"))
    state = act(state, play("8"))
    assert ENGINE.auto_action(state, (ll + 2) % 3) == {"type": "play", "cards": ["Ks"]}


def test_tuoguan_plays_a_whole_hand_out_with_the_big_cards_it_holds():
    """The issue: 16 turns of 不出 and the hand ended with 大王 and two 2s held."""
    state, ll = landlord_state("classic", ["3 4 5 8 9 J", "6 7 2 2 D Q", "T K A"])
    while ENGINE.outcome(state) is None:
        state = ENGINE.on_deadline(state)
    farmer = (ll + 1) % 3
    assert not {"DJ", "2s", "2h"} & set(state["hands"][farmer])
    assert (
        sum(
            1
            for entry in state["history"]
            if entry.get("seat") == farmer and entry["action"]["type"] == "play"
        )
        >= 2
    )
    assert cards("D")[0] not in ENGINE.outcome(state).details["hands"][farmer]
