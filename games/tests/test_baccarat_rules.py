"""百家乐 Baccarat rules: drawing tables, payouts of both variants, the shoe, the roads."""

from collections import Counter

import pytest

from games.baccarat.rules import (
    Coup,
    Shoe,
    banker_draws,
    bead_plate,
    big_road,
    big_small_open,
    card_value,
    deal_coup,
    hand_total,
    new_shoe,
    payout,
)
from games.base import SeededRng

SEED = b"baccarat-test-seed-0001"

# One card of each point value (suits do not matter in baccarat).
CARD_OF_VALUE = {0: "Kd", 1: "Ac", 2: "2c", 3: "3d", 4: "4s", 5: "5h", 6: "6c", 7: "7d", 8: "8s", 9: "9h"}


def two_cards(total: int) -> tuple[str, str]:
    """Return two cards of different ranks that make ``total``."""
    if total == 0:
        return ("Ts", "Qh")
    return ("Th", CARD_OF_VALUE[total])


def deal(player: tuple[str, str], banker: tuple[str, str], *rest: str) -> Coup:
    """Deal a coup from a stacked shoe: P, B, P, B, then ``rest``."""
    return deal_coup([player[0], banker[0], player[1], banker[1], *rest])


def test_card_values_and_totals():
    assert [card_value(r + "s") for r in "A23456789TJQK"] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0]
    assert hand_total(["9s", "8h"]) == 7
    assert hand_total(["Ks", "Th", "Qd"]) == 0
    for total in range(10):
        cards = two_cards(total)
        assert hand_total(cards) == total and cards[0][0] != cards[1][0]


@pytest.mark.parametrize("player_total", range(10))
@pytest.mark.parametrize("banker_total", range(10))
def test_two_card_totals_naturals_and_stands(player_total, banker_total):
    """Every two-card start: naturals stop the coup; the player draws on 0-5 only."""
    extra = ["5s", "5d"]
    coup = deal(two_cards(player_total), two_cards(banker_total), *extra)
    if player_total >= 8 or banker_total >= 8:
        assert coup.cards_dealt == 4
        return
    player_drew = player_total <= 5
    assert len(coup.player) == (3 if player_drew else 2)
    if not player_drew:
        # The player stood on 6 or 7: the banker draws on 0-5 (001:53).
        assert len(coup.banker) == (3 if banker_total <= 5 else 2)
        if banker_total <= 5:
            assert coup.banker[2] == "5s"


# -- the drawing tables, cell by cell ------------------------------------------
#
# Written out as the seeds print them, independently of rules.banker_draws.
# Player (闲) table, 001:6-28 and 003:251-260: two-card total -> what happens.
PLAYER_TABLE = {
    0: "draws",
    1: "draws",
    2: "draws",
    3: "draws",
    4: "draws",
    5: "draws",
    6: "stands",
    7: "stands",
    8: "natural",
    9: "natural",
}

# Banker (庄) table, 001:30-53 and 003:251-260. Each row is the banker's two-card
# total; the first letter is the cell "the player stood" (001:53), then one
# letter per value 0..9 of the player's third card. D = draws, S = stands.
BANKER_TABLE = {
    0: "D DDDDDDDDDD",
    1: "D DDDDDDDDDD",
    2: "D DDDDDDDDDD",
    3: "D DDDDDDDDSD",  # stands only on an 8
    4: "D SSDDDDDDSS",  # stands on 0 1 8 9
    5: "D SSSSDDDDSS",  # stands on 0 1 2 3 8 9
    6: "S SSSSSSDDSS",  # draws only on 6 or 7
    7: "S SSSSSSSSSS",
}


def banker_cells():
    for total, row in BANKER_TABLE.items():
        stood, thirds = row.split()
        yield pytest.param(
            total,
            None,
            stood == "D",
            id=f"banker_{total}_player_stood_{'draws' if stood == 'D' else 'stands'}",
        )
        for value, letter in enumerate(thirds):
            verdict = "draws" if letter == "D" else "stands"
            yield pytest.param(
                total, value, letter == "D", id=f"banker_{total}_player_third_{value}_{verdict}"
            )


@pytest.mark.parametrize(
    ("player_total", "rule"), [pytest.param(t, r, id=f"player_{t}_{r}") for t, r in PLAYER_TABLE.items()]
)
def test_player_table_cell(player_total, rule):
    """The player draws on 0-5, stands on 6-7; 8 or 9 is a natural and ends the coup."""
    for banker_total in range(8):  # the player's rule does not depend on the banker's cards
        coup = deal(two_cards(player_total), two_cards(banker_total), "5s", "5d")
        if rule == "natural":
            assert (coup.player, coup.banker) == (
                list(two_cards(player_total)),
                list(two_cards(banker_total)),
            )
        elif rule == "draws":
            assert coup.player == [*two_cards(player_total), "5s"]
        else:
            assert coup.player == list(two_cards(player_total))
    # A natural on either side stops the other side from drawing too (001:50-52, 003:240).
    for natural in (8, 9):
        coup = deal(two_cards(player_total), two_cards(natural), "5s", "5d")
        assert coup.cards_dealt == 4


@pytest.mark.parametrize(("banker_total", "third_value", "draws"), list(banker_cells()))
def test_banker_table_cell(banker_total, third_value, draws):
    """One cell of the banker's table: the banker's two-card total against the player's third card."""
    if third_value is None:
        for player_total in (6, 7):  # the player stood
            coup = deal(two_cards(player_total), two_cards(banker_total), "9c", "2d")
            assert len(coup.player) == 2
            assert coup.banker == [*two_cards(banker_total), *(["9c"] if draws else [])]
        assert banker_draws(banker_total, None) is draws
        return
    # A 0-valued third card may be any of T J Q K.
    thirds = [CARD_OF_VALUE[third_value], *(["Ts", "Jh", "Qc"] if third_value == 0 else [])]
    for third in thirds:
        for player_total in range(6):  # the player drew
            coup = deal(two_cards(player_total), two_cards(banker_total), third, "9c")
            assert coup.player == [*two_cards(player_total), third]
            assert coup.banker == [*two_cards(banker_total), *(["9c"] if draws else [])]
        assert banker_draws(banker_total, third) is draws


@pytest.mark.parametrize("natural", [8, 9])
@pytest.mark.parametrize("player_total", range(10))
def test_banker_natural_rows_stop_the_coup(natural, player_total):
    """Banker rows 8 and 9 (天生赢家 / 例牌, 001:49-52, 003:259-260): nobody draws."""
    coup = deal(two_cards(player_total), two_cards(natural), "5s", "5d")
    assert coup.cards_dealt == 4 and coup.banker_total == natural


def test_ten_valued_third_card_counts_as_zero():
    for third in ("Ts", "Js", "Qs", "Ks"):
        assert len(deal(two_cards(0), two_cards(4), third, "2c").banker) == 2
        assert len(deal(two_cards(0), two_cards(3), third, "2c").banker) == 3


def test_deal_order_totals_winner_and_pairs():
    coup = deal_coup(["7s", "2h", "7d", "2c", "3s", "Kc"])
    assert coup.player == ["7s", "7d", "3s"]
    assert coup.banker == ["2h", "2c", "Kc"]
    assert (coup.player_total, coup.banker_total) == (7, 4)
    assert coup.winner == "player"
    assert coup.player_pair and coup.banker_pair
    assert coup.to_dict()["cards_dealt"] == 6
    tie = deal_coup(["8s", "9h", "Kd", "Th"])  # natural 8 vs natural 9
    assert tie.winner == "banker" and tie.cards_dealt == 4
    assert deal_coup(["4s", "Jh", "3d", "7c"]).winner == "tie"  # 7 vs 7, both stand
    # Ten-valued cards of different ranks are no pair.
    assert not deal_coup(["Ks", "Qh", "Qd", "Jc", "5s", "5d"]).player_pair


def test_deal_consumes_only_what_it_needs_from_an_iterator():
    cards = iter(["8s", "2h", "Ad", "3c", "5s", "6s"])
    coup = deal_coup(cards)
    assert coup.cards_dealt == 4
    assert list(cards) == ["5s", "6s"]


def test_deal_refuses_a_short_shoe_and_bad_cards():
    with pytest.raises(ValueError, match="not enough cards"):
        deal_coup(["2s", "2h", "3d"])
    with pytest.raises(ValueError, match="not enough cards"):
        deal_coup(["2s", "2h", "3d", "Kc"])  # player 5 must draw
    with pytest.raises(ValueError, match="is not a card"):
        deal_coup(["2s", "2h", "1d", "Kc"])
    with pytest.raises(ValueError, match="2 or 3 cards"):
        Coup(player=["2s"], banker=["3s", "4s"])


# -- payouts -------------------------------------------------------------------

BANKER_WINS_7 = deal_coup(["2s", "7h", "4d", "Kc"])  # player 6 stands, banker 7
BANKER_WINS_6 = deal_coup(["2s", "6h", "3d", "Kc", "Ks"])  # player 5 draws K: 5, banker 6 stands
PLAYER_WINS = deal_coup(["4s", "2h", "4d", "Kc", "Qs", "Th"])  # 8 natural vs 2
TIE = deal_coup(["4s", "Jh", "3d", "7c"])  # 7 - 7
PAIRS_SIX_CARDS = deal_coup(["5s", "2h", "5d", "2c", "2s", "Kc"])  # player 0 draws 2, banker 4 draws K


def test_coup_fixtures():
    assert (BANKER_WINS_7.winner, BANKER_WINS_7.banker_total, BANKER_WINS_7.cards_dealt) == ("banker", 7, 4)
    assert (BANKER_WINS_6.winner, BANKER_WINS_6.banker_total, BANKER_WINS_6.cards_dealt) == ("banker", 6, 5)
    assert (PLAYER_WINS.winner, PLAYER_WINS.cards_dealt) == ("player", 4)
    assert TIE.winner == "tie"
    assert PAIRS_SIX_CARDS.player_pair and PAIRS_SIX_CARDS.banker_pair
    assert PAIRS_SIX_CARDS.cards_dealt == 6


def test_commission_variant():
    v = "commission"
    assert payout("banker", 100, BANKER_WINS_7, v) == 95
    assert payout("banker", 100, BANKER_WINS_6, v) == 95  # no 6-point rule here
    # The commission is rounded down, never up (003:244 扣除5%傭金; DESIGN.md "Notation"):
    # below 20 coins it is 0.05–0.95 of a coin, so nothing; the bet once won 0 of 1 and 18 of 19.
    assert payout("banker", 1, BANKER_WINS_7, v) == 1
    assert payout("banker", 19, BANKER_WINS_7, v) == 19
    assert payout("banker", 20, BANKER_WINS_7, v) == 19
    assert payout("banker", 39, BANKER_WINS_7, v) == 38  # commission 1.95 → 1
    assert payout("banker", 40, BANKER_WINS_7, v) == 38
    assert payout("banker", 100, PLAYER_WINS, v) == -100
    assert payout("player", 7, PLAYER_WINS, v) == 7
    assert payout("player", 7, BANKER_WINS_7, v) == -7
    assert payout("tie", 10, TIE, v) == 80
    assert payout("tie", 10, PLAYER_WINS, v) == -10


def test_super6_variant():
    v = "super6"
    assert payout("banker", 100, BANKER_WINS_7, v) == 100  # no commission
    assert payout("banker", 100, BANKER_WINS_6, v) == 50
    assert payout("banker", 7, BANKER_WINS_6, v) == 3  # 3.5 rounds down
    assert payout("banker", 1, BANKER_WINS_6, v) == 0
    assert payout("banker", 7, PLAYER_WINS, v) == -7
    assert payout("player", 9, PLAYER_WINS, v) == 9
    assert payout("player", 9, BANKER_WINS_6, v) == -9
    assert payout("tie", 3, TIE, v) == 24
    assert payout("tie", 3, BANKER_WINS_6, v) == -3
    assert payout("super6", 5, BANKER_WINS_6, v) == 60
    assert payout("super6", 5, BANKER_WINS_7, v) == -5
    assert payout("super6", 5, PLAYER_WINS, v) == -5
    # A 6-6 tie is no banker win.
    six_tie = deal_coup(["3s", "2h", "3d", "4c"])
    assert six_tie.winner == "tie" and six_tie.banker_total == 6
    assert payout("super6", 5, six_tie, v) == -5


@pytest.mark.parametrize("variant", ["commission", "super6"])
def test_tie_returns_banker_and_player_bets(variant):
    assert payout("banker", 40, TIE, variant) == 0
    assert payout("player", 40, TIE, variant) == 0
    assert payout("banker_pair", 40, TIE, variant) == -40


@pytest.mark.parametrize("variant", ["commission", "super6"])
def test_pairs_pay_eleven_to_one(variant):
    assert payout("banker_pair", 3, PAIRS_SIX_CARDS, variant) == 33
    assert payout("player_pair", 3, PAIRS_SIX_CARDS, variant) == 33
    assert payout("banker_pair", 3, BANKER_WINS_7, variant) == -3
    assert payout("player_pair", 3, BANKER_WINS_7, variant) == -3


def test_big_and_small_by_cards_dealt():
    v = "super6"
    assert payout("small", 10, PLAYER_WINS, v) == 15  # 4 cards
    assert payout("small", 3, TIE, v) == 4  # 4.5 rounds down
    assert payout("small", 1, TIE, v) == 1  # 1.5 rounds down
    assert payout("small", 3, BANKER_WINS_6, v) == -3  # 5 cards
    assert payout("big", 10, BANKER_WINS_6, v) == 5  # 5 cards
    assert payout("big", 7, PAIRS_SIX_CARDS, v) == 3  # 6 cards, 3.5
    assert payout("big", 1, PAIRS_SIX_CARDS, v) == 0
    assert payout("big", 10, PLAYER_WINS, v) == -10


def test_big_small_close_on_the_thirtieth_coup():
    assert big_small_open(1) and big_small_open(29)
    assert not big_small_open(30) and not big_small_open(75)
    with pytest.raises(ValueError, match="counts from 1"):
        big_small_open(0)
    with pytest.raises(ValueError, match="counts from 1"):
        big_small_open(True)


@pytest.mark.parametrize("stake", [0, -5, 1.5, 2.0, True, "10", None])
def test_bad_stakes_are_refused(stake):
    with pytest.raises(ValueError, match="positive whole number"):
        payout("banker", stake, BANKER_WINS_7, "commission")


def test_bad_area_variant_and_coup_are_refused():
    with pytest.raises(ValueError, match="'big' is not a betting area of the commission variant"):
        payout("big", 10, BANKER_WINS_7, "commission")
    with pytest.raises(ValueError, match="'super6' is not a betting area of the commission"):
        payout("super6", 10, BANKER_WINS_6, "commission")
    with pytest.raises(ValueError, match="'dragon' is not a betting area"):
        payout("dragon", 10, BANKER_WINS_7, "super6")
    with pytest.raises(ValueError, match="unknown baccarat variant 'ez'"):
        payout("banker", 10, BANKER_WINS_7, "ez")
    with pytest.raises(ValueError, match="expected a dealt Coup"):
        payout("banker", 10, {"winner": "banker"}, "super6")


# -- the shoe ------------------------------------------------------------------


def test_shoe_has_eight_decks_and_a_cut_card_near_the_end():
    shoe = new_shoe(SeededRng(SEED, "shoe"))
    assert len(shoe.cards) == 416
    ranks = Counter(card[0] for card in shoe.cards)
    assert set(ranks) == set("23456789TJQKA") and set(ranks.values()) == {32}
    assert set(Counter(shoe.cards).values()) == {8}
    assert 416 - 16 <= shoe.cut_position <= 416 - 14
    assert shoe.cards[:8] != tuple(sorted(shoe.cards)[:8])


def test_shoe_is_deterministic_from_its_seed():
    first = new_shoe(SeededRng(SEED, "shoe"))
    assert new_shoe(SeededRng(SEED, "shoe")) == first
    assert new_shoe(SeededRng(SEED, "shoe/2")).cards != first.cards
    assert Shoe.from_dict(first.to_dict()) == first
    assert new_shoe(SeededRng(SEED, "one"), decks=1).cards.__len__() == 52


def test_cut_positions_cover_the_documented_range():
    positions = {new_shoe(SeededRng(SEED, f"cut/{i}"), decks=1).cut_position for i in range(40)}
    assert positions == {52 - 16, 52 - 15, 52 - 14}


def test_a_whole_shoe_deals_until_the_cut_card():
    shoe = new_shoe(SeededRng(SEED, "play"))
    position, coups = 0, []
    while not shoe.finished(position):
        coup = deal_coup(shoe.cards[position:])
        position += coup.cards_dealt
        coups.append(coup)
    assert shoe.cut_position <= position <= shoe.cut_position + 5
    assert 60 <= len(coups) <= 90
    assert sum(len(c.player) + len(c.banker) for c in coups) == position


def test_bad_deck_counts_are_refused():
    with pytest.raises(ValueError, match="positive whole number"):
        new_shoe(SeededRng(SEED), decks=0)


# -- roads ---------------------------------------------------------------------


def test_bead_plate_fills_columns_of_six_in_order():
    winners = ["banker", "player", "tie", "banker", "banker", "player", "tie", "player"]
    assert bead_plate(winners) == [winners[:6], winners[6:]]
    assert bead_plate([]) == []
    assert bead_plate([TIE, PLAYER_WINS]) == [["tie", "player"]]
    with pytest.raises(ValueError, match="not a coup result"):
        bead_plate(["banker", "draw"])


def cells(road):
    return [[(c["winner"], c["ties"]) for c in column] for column in road]


def test_big_road_columns_and_ties_on_the_previous_cell():
    road = big_road(["banker", "banker", "tie", "tie", "player", "banker", "tie", "banker"])
    assert cells(road) == [
        [("banker", 0), ("banker", 2)],
        [("player", 0)],
        [("banker", 1), ("banker", 0)],
    ]


def test_big_road_ties_at_shoe_start():
    assert cells(big_road(["tie", "tie"])) == [[(None, 2)]]
    assert cells(big_road(["tie", "player", "player", "tie"])) == [[("player", 1), ("player", 1)]]


def test_big_road_long_streak_stays_one_column():
    road = big_road(["player"] * 11 + ["banker"])
    assert [len(column) for column in road] == [11, 1]


def test_big_road_marks_pairs_from_coups():
    road = big_road([PAIRS_SIX_CARDS, BANKER_WINS_7])
    assert road == [
        [
            {"winner": "banker", "ties": 0, "player_pair": True, "banker_pair": True},
            {"winner": "banker", "ties": 0, "player_pair": False, "banker_pair": False},
        ]
    ]
