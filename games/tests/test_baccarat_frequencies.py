"""百家乐 coups from freshly shuffled 8-deck shoes win as often as the known 8-deck figures say."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.baccarat_coups import EXPECTED, Tally, count_coups, seeded  # noqa: E402

# About 11 s of CPU here (≈ 45,000 coups/s on a quiet core); bench/baccarat_coups.py deals 1,000,000.
COUPS = 500_000


def test_banker_player_tie_frequencies_match_the_eight_deck_figures():
    """Within 4 standard errors of banker 0.4586, player 0.4462, tie 0.0952 (fixed seeds: same verdict every run)."""
    tally = count_coups(COUPS, seeded("ci-baccarat-frequencies"))
    assert tally.coups == COUPS
    assert 5_500 < tally.shoes < 7_000  # 70-90 coups a shoe: every shoe was dealt to its cut card
    for winner in EXPECTED:
        assert abs(tally.z_score(winner)) < 4, (
            f"{winner}: {tally.frequency(winner):.5f} (z {tally.z_score(winner):+.2f})"
        )


def test_the_z_score_flags_a_skewed_count():
    skewed = Tally(counts={"banker": 47_000, "player": 43_500, "tie": 9_500})
    assert skewed.z_score("banker") > 4 and skewed.z_score("player") < -1
    fair = Tally(counts={"banker": 45_860, "player": 44_620, "tie": 9_520})
    assert all(abs(fair.z_score(w)) < 1e-9 for w in EXPECTED)
