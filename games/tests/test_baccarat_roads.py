"""The derived roads (大眼仔路, 小路, 曱甴路) and 问路, from sequences whose roads are written out by hand.

Every expected road below was worked out on paper from the definition in
docs/rules/baccarat.md (and games/baccarat/roads.py's docstring), not by
running the code: for an entry at column c, row r of the big road, a new
column (r = 0) is red when columns c−1 and c−1−k are equally long; a later
row is blue when column c−k is exactly r long, red otherwise; k = 1, 2, 3.
"""

import pytest

from games.baccarat import roads
from games.baccarat.rules import Coup, big_road

WORDS = {"B": "banker", "P": "player", "T": "tie"}
R, U = "red", "blue"  # U for blUe: one letter each keeps the expected roads readable


def road(text: str) -> list[list[dict]]:
    """The big road of a string of results: B banker, P player, T tie (spaces are ignored)."""
    return big_road(WORDS[c] for c in text if c != " ")


def marks(text: str) -> dict[str, str]:
    """Each derived road's marks in order, as one string of R/U."""
    columns = road(text)
    short = {R: "R", U: "U"}
    return {
        name: "".join(short[m] for m in roads.derived_marks(roads.column_lengths(columns), offset))
        for name, offset in roads.DERIVED.items()
    }


def test_column_lengths_skip_ties_and_a_leading_tie_only_column():
    assert roads.column_lengths(road("")) == []
    assert roads.column_lengths(road("TT")) == []
    assert roads.column_lengths(road("T BB T P BBB")) == [2, 1, 3]


def test_a_big_road_of_columns_2_3_1_1_4_2():
    # Columns: BB | PPP | B | P | BBBB | PP.
    text = "BB PPP B P BBBB PP"
    assert roads.column_lengths(road(text)) == [2, 3, 1, 1, 4, 2]
    # 大眼仔 (k=1), from column 1 row 1:
    #   c1r1: c0 has 2 ≠ 1 → R;  c1r2: c0 has exactly 2 → U;  c2r0: 3 vs 2 → U;  c3r0: 1 vs 3 → U;
    #   c4r0: 1 vs 1 → R;  c4r1: c3 has exactly 1 → U;  c4r2: c3 has 1 ≠ 2 → R (直落);  c4r3: → R;
    #   c5r0: 4 vs 1 → U;  c5r1: c4 has 4 ≠ 1 → R.
    # 小路 (k=2), column 2 has no row 1, so from column 3 row 0:
    #   c3r0: 1 vs c0 2 → U;  c4r0: 1 vs c1 3 → U;  c4r1: c2 has exactly 1 → U;  c4r2: → R;  c4r3: → R;
    #   c5r0: 4 vs c2 1 → U;  c5r1: c3 has exactly 1 → U.
    # 曱甴 (k=3), column 3 has no row 1, so from column 4 row 0:
    #   c4r0: 1 vs c0 2 → U;  c4r1: c1 has 3 → R;  c4r2: → R;  c4r3: c1 has exactly 3 → U;
    #   c5r0: 4 vs c1 3 → U;  c5r1: c2 has exactly 1 → U.
    assert marks(text) == {"big_eye_boy": "RUUURURRUR", "small_road": "UUURRUU", "cockroach_pig": "URRUUU"}
    columns = road(text)
    assert roads.derived_roads(columns) == {
        "big_eye_boy": [[R], [U, U, U], [R], [U], [R, R], [U], [R]],
        "small_road": [[U, U, U], [R, R], [U, U]],
        "cockroach_pig": [[U], [R, R], [U, U, U]],
    }


def test_ping_pong_is_all_red():
    # B P B P ...: every column is 1 long, so every new column compares two equal lengths.
    assert marks("BPBPBPBP") == {"big_eye_boy": "RRRRRR", "small_road": "RRRRR", "cockroach_pig": "RRRR"}


def test_a_dragon_alone_gives_no_marks_and_its_break_starts_them_late():
    # One column of 8: nothing to compare with. Then P starts column 1: 大眼仔 needs column 2
    # (or row 1 of column 1), so still nothing; PP gives c1r1: c0 has 8 ≠ 1 → R.
    assert marks("BBBBBBBB") == {"big_eye_boy": "", "small_road": "", "cockroach_pig": ""}
    assert marks("BBBBBBBB P") == {"big_eye_boy": "", "small_road": "", "cockroach_pig": ""}
    assert marks("BBBBBBBB PP") == {"big_eye_boy": "R", "small_road": "", "cockroach_pig": ""}
    # ... then B: c2r0 compares c1 (2) with c0 (8) → U.
    assert marks("BBBBBBBB PP B") == {"big_eye_boy": "RU", "small_road": "", "cockroach_pig": ""}


def test_the_first_marks_start_where_the_convention_says():
    # 大眼仔 starts at column 1 row 1 ("BPP": c1r1, c0 has 1 → U) ...
    assert marks("BPP")["big_eye_boy"] == "U"
    # ... or at column 2 row 0 when column 1 has one cell ("BPB": 1 vs 1 → R).
    assert marks("BP")["big_eye_boy"] == ""
    assert marks("BPB")["big_eye_boy"] == "R"
    # 小路 at column 2 row 1 ("BPBB": c0 has 1 → U), or column 3 row 0.
    assert marks("BPB")["small_road"] == ""
    assert marks("BPBB")["small_road"] == "U"
    assert marks("BPBP")["small_road"] == "R"
    # 曱甴路 at column 3 row 1, or column 4 row 0.
    assert marks("BPBP")["cockroach_pig"] == ""
    assert marks("BPBPP")["cockroach_pig"] == "U"
    assert marks("BPBPB")["cockroach_pig"] == "R"


def test_ties_change_no_derived_road():
    assert marks("T BB T PPP TT B P BBBB T PP") == marks("BB PPP B P BBBB PP")


def test_ask_roads_previews_the_next_mark_for_banker_and_player():
    # BB | PPP | B | P | BBBB | PP (the road above). Next banker: a new column 6;
    #   大眼仔 c6r0: c5 (2) vs c4 (4) → U;  小路: c5 (2) vs c3 (1) → U;  曱甴: c5 (2) vs c2 (1) → U.
    # Next player: c5r2;  大眼仔: c4 has 4 ≠ 2 → R;  小路: c3 has 1 ≠ 2 → R (直落);  曱甴: c2 has 1 ≠ 2 → R.
    columns = road("BB PPP B P BBBB PP")
    assert roads.ask_roads(columns) == {
        "banker": {"big_eye_boy": U, "small_road": U, "cockroach_pig": U},
        "player": {"big_eye_boy": R, "small_road": R, "cockroach_pig": R},
    }
    # The preview is what the road gets once that result is dealt.
    for winner, letter in (("banker", "B"), ("player", "P")):
        after = roads.derived_roads(road("BB PPP B P BBBB PP" + letter))
        assert {name: column[-1][-1] for name, column in after.items()} == roads.ask_roads(columns)[winner]


def test_ask_roads_says_none_where_a_road_has_not_started():
    assert roads.ask_roads(road("")) == {
        "banker": {"big_eye_boy": None, "small_road": None, "cockroach_pig": None},
        "player": {"big_eye_boy": None, "small_road": None, "cockroach_pig": None},
    }
    # "BP": next B is c2r0 → 大眼仔 1 vs 1 → R, the others not yet; next P is c1r1 → c0 has 1 → U.
    assert roads.ask_roads(road("BP")) == {
        "banker": {"big_eye_boy": R, "small_road": None, "cockroach_pig": None},
        "player": {"big_eye_boy": U, "small_road": None, "cockroach_pig": None},
    }
    # Only ties so far: the next result starts the road.
    assert roads.ask_roads(road("TT"))["banker"] == {
        "big_eye_boy": None,
        "small_road": None,
        "cockroach_pig": None,
    }


def test_roads_of_takes_coups_and_gives_every_road():
    coups = [
        Coup(player=["9s", "Ks"], banker=["7h", "Kd"]),  # player
        Coup(player=["7s", "Kc"], banker=["9h", "Qd"]),  # banker
        Coup(player=["7c", "Kh"], banker=["9d", "Qs"]),  # banker
    ]
    result = roads.roads_of(coups)
    assert set(result) == {"big_road", "big_eye_boy", "small_road", "cockroach_pig", "ask"}
    assert [[cell["winner"] for cell in column] for column in result["big_road"]] == [
        ["player"],
        ["banker", "banker"],
    ]
    assert result["big_eye_boy"] == [[U]]  # c1r1: c0 has exactly 1
    assert result["small_road"] == [] and result["cockroach_pig"] == []


@pytest.mark.parametrize("bad", [0, 4, -1, True])
def test_a_bad_offset_is_refused(bad):
    with pytest.raises(ValueError, match="columns back"):
        roads.derived_marks([1, 2], bad)


def test_a_bad_winner_is_refused():
    with pytest.raises(ValueError, match="banker or player"):
        roads.next_marks([], "tie")
