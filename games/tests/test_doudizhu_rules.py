"""斗地主 rules: every kind, every comparison, illegal shapes, and the seeds' own examples."""

import pytest

from games.doudizhu import legality, rules
from games.doudizhu.legality import best_reading, classify, readings
from games.doudizhu.rules import beats

SUITS = "shcd"


def cards(text: str) -> list[str]:
    """Build cards from rank letters ("33345" → 3s 3h 3c 4s 5s); X = 小王, D = 大王."""
    used: dict[str, int] = {}
    out = []
    for ch in text.replace(" ", "").replace("+", ""):
        if ch == "X":
            out.append("XJ")
            continue
        if ch == "D":
            out.append("DJ")
            continue
        n = used.get(ch, 0)
        used[ch] = n + 1
        out.append(ch + SUITS[n])
    return out


def kind(text: str) -> str | None:
    combo = classify(cards(text))
    return combo.kind if combo else None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("XD", "rocket"),
        ("7777", "bomb"),
        ("2222", "bomb"),
        ("5", "single"),
        ("D", "single"),
        ("44", "pair"),
        ("JJJ", "trio"),
        ("3336", "trio_single"),  # 003 line 136: 333+6
        ("44499", "trio_pair"),  # 003 line 136: 444+99
        ("KKK5", "trio_single"),  # 001 line 239
        ("KKK55", "trio_pair"),  # 001 line 241
        ("45678", "straight"),  # 003 line 137
        ("789TJQK", "straight"),
        ("TJQKA", "straight"),  # 001 line 243
        ("334455", "pair_straight"),  # 003 line 138
        ("778899TTJJ", "pair_straight"),
        ("QQKKAA", "pair_straight"),  # 001 line 245
        ("333444", "plane"),  # 003 line 139
        ("555666777888", "plane"),
        ("KKKAAA", "plane"),  # 001 line 247
        ("44455579", "plane_singles"),  # 003 line 141
        ("333444555 7799JJ", "plane_pairs"),  # 003 line 141
        ("3334445566", "plane_pairs"),  # 001 line 249
        ("33344456", "plane_singles"),  # 001 line 249
        ("333444555668899", "plane_pairs"),  # 001 line 249
        ("555538", "four_two_singles"),  # 003 line 143
        ("44445577", "four_two_pairs"),  # 003 line 143
        ("555534", "four_two_singles"),  # 001 line 251
        ("55553344", "four_two_pairs"),  # 001 line 251
        ("3333XD", None),  # the two jokers together are never kickers
        ("333444XD", None),
        ("33334444", "four_two_pairs"),  # decision: a quad may be two pairs of kickers
        ("333344", "four_two_singles"),  # decision: a pair may be the two single kickers
        ("33334445", "plane_singles"),  # decision: a kicker may share a body rank
        ("3333", "bomb"),  # never 333+3
        ("34", None),
        ("X2", None),
        ("3344", None),  # two pairs are no pair straight (3 pairs at least)
        ("4567", None),  # a straight needs five
        ("JQKA2", None),  # 2 never joins a chain
        ("QKA2X", None),
        ("KKAA22", None),
        ("AAA222", None),
        ("333555", None),  # trios must be consecutive
        ("3334445", None),  # wings must match the trios in number
        ("33344455", "plane_singles"),  # decision: the pair 55 serves as two single wings
        ("44445", None),
        ("4444556", None),
        ("444455667", None),
        ("33345", None),
        ("3334", "trio_single"),
        ("333444555666", "plane"),
    ],
)
def test_classify(text, expected):
    assert kind(text) == expected


def test_ranks_and_sizes():
    assert classify(cards("45678")) == rules.Combo("straight", rules.RANK_OF["8s"], 5, 5)
    assert classify(cards("XD")).rank == rules.RANK_DJ
    assert classify(cards("44499")).rank == rules.RANK_OF["4s"]
    assert classify(cards("44455579")).rank == rules.RANK_OF["5s"]


def test_parse_refuses_unknown_cards():
    with pytest.raises(ValueError, match="is not a card"):
        rules.parse(["1x"])


def test_single_order_3_to_big_joker():
    """003 line 145: 大王 > 小王 > 2 > A > ... > 3, suits never matter."""
    order = ["3s", "4d", "5c", "6h", "7s", "8s", "9s", "Ts", "Jd", "Qs", "Kc", "Ah", "2d", "XJ", "DJ"]
    for low, high in zip(order, order[1:], strict=False):
        assert beats(classify([high]), classify([low]))
        assert not beats(classify([low]), classify([high]))
    assert not beats(classify(["5s"]), classify(["5d"]))


@pytest.mark.parametrize(
    ("play", "previous", "expected"),
    [
        ("XD", "2222", True),  # rocket beats every bomb
        ("XD", "3", True),
        ("2222", "XD", False),
        ("3333", "XD", False),
        ("4444", "3333", True),  # bombs compare by value
        ("3333", "4444", False),
        ("3333", "AA", True),  # a bomb beats every non-bomb
        ("3333", "34567", True),
        ("555534", "3333", False),  # 四带二 is not a bomb (003 line 142)
        ("AAAA34", "333345", True),
        ("44455566", "7777KKJJ", False),  # different kinds of the same size
        ("8888TTQQ", "7777KKJJ", True),
        ("888Q", "7779", True),  # 001 line 255: 777+9 < 888+Q
        ("777Q", "8889", False),
        ("56789", "34567", True),  # 001 line 256
        ("34567", "56789", False),
        ("456789", "34567", False),  # same kind, different size
        ("445566", "334455", True),
        ("44455566", "33344478", True),
        ("44455566", "333444", False),
        ("4445", "333", False),
        ("55", "44", True),
        ("44", "55", False),
        ("X", "2", True),
        ("D", "X", True),
        ("22", "AA", True),
        ("AAA22", "KKKQQ", True),
        ("3334445566", "3334447788", False),  # kickers never count
        ("6666", "5555", True),
    ],
)
def test_beats(play, previous, expected):
    assert beats(classify(cards(play)), classify(cards(previous))) is expected


def test_a_set_with_two_readings_beats_with_either():
    """33334444 leads as 四带两对; it may also follow a lower 8-card plane with wings."""
    assert classify(cards("33334444")).kind == "four_two_pairs"
    lower_plane = classify(cards("9TJ"[0] * 3 + "T" * 3 + "56"))
    # 999TTT+56 is a plane with wings of rank T; 333444+34 is lower and cannot beat it.
    assert best_reading(cards("33334444"), lower_plane) is None
    plane_8 = classify(cards("33344456"))
    reading = best_reading(cards("44445555"), plane_8)
    assert reading.kind == "plane_singles" and reading.rank == rules.RANK_OF["5s"]
    kinds = {r.kind for r in readings(cards("33334444"))}
    assert kinds == {"four_two_pairs", "plane_singles"}


def test_bomb_reads_only_as_bomb():
    assert readings(cards("5555")) == (rules.Combo("bomb", rules.RANK_OF["5s"], 4),)


def test_best_reading_when_leading_is_the_preferred_one():
    assert best_reading(cards("333444555666"), None).kind == "plane"
    assert best_reading(cards("34"), None) is None


def test_sort_cards_high_to_low():
    assert rules.sort_cards(["3s", "DJ", "2c", "XJ", "As", "Ah"]) == ["DJ", "XJ", "2c", "As", "Ah", "3s"]


def test_plays_lists_every_follow():
    hand = rules.sort_cards(cards("334455667788XD2"))
    previous = classify(cards("34567"))
    found = legality.plays(hand, previous)
    # only 45678 tops 7 (longer straights differ in size, 2 never joins); then the rocket.
    assert [(kind, rank) for kind, rank, _cards in found] == [
        ("straight", rules.RANK_OF["8s"]),
        ("rocket", rules.RANK_DJ),
    ]
    assert found[0][2] == ["8h", "7h", "6h", "5h", "4h"]  # the lowest suits, high to low
    assert found[1][2] == ["DJ", "XJ"]


def test_plays_leads_include_wings_and_bombs_but_never_the_rocket_as_kickers():
    hand = rules.sort_cards(cards("3334445555XD"))
    leads = {tuple(sorted(play)): kind for kind, _rank, play in legality.plays(hand, None)}
    assert leads[tuple(sorted(cards("5555")))] == "bomb"
    assert leads[("DJ", "XJ")] == "rocket"
    assert "plane_pairs" in leads.values()  # 333444 + 55 + 55
    assert all(not {"XJ", "DJ"} <= set(play) or kind == "rocket" for play, kind in leads.items())
    assert len(leads) == len(legality.plays(hand, None))  # each set once


def test_a_set_is_judged_by_the_generator_run_on_it_alone():
    """best_reading is plays() on the set itself: a set is a play exactly when it lists itself."""
    for text in ("33334444", "3334445566", "34567", "XD", "3344", "4567", "AAA222"):
        hand = rules.sort_cards(cards(text))
        whole = [(kind, rank) for kind, rank, play in legality.plays(hand, None) if len(play) == len(hand)]
        reading = best_reading(hand, None)
        assert whole == ([] if reading is None else [(reading.kind, reading.rank)]), text


def test_cards_for_picks_held_cards():
    hand = rules.sort_cards(cards("33345"))
    # lowest suits first (s > h > c > d), listed high to low
    assert legality.cards_for(hand, tuple(rules.parse(cards("33")))) == ["3h", "3c"]
    with pytest.raises(ValueError, match="does not hold"):
        legality.cards_for(hand, tuple(rules.parse(cards("66"))))
