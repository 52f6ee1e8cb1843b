"""Time 7-card evaluation: ``python -m games.texas.benchmark`` (compares with treys if installed).

treys is not a project dependency; install it in a scratch location and put
that on PYTHONPATH to compare.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from games.texas.rules import RANKS, SUITS, best_hand, hand_rank


def per_call_microseconds(func: Callable, data: Sequence, repeat: int = 3) -> float:
    """Return the best of ``repeat`` runs, in microseconds per call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in data:
            func(item)
        best = min(best, (time.perf_counter() - start) / len(data) * 1e6)
    return best


def main(hands: int = 20000, seed: int = 1) -> None:
    deck = [r + s for r in RANKS for s in SUITS]
    rng = random.Random(seed)
    sevens = [rng.sample(deck, 7) for _ in range(hands)]
    ours = per_call_microseconds(hand_rank, sevens)
    print(f"hand_rank: {ours:.2f} us per 7-card hand")
    print(f"best_hand: {per_call_microseconds(best_hand, sevens):.2f} us per 7-card hand")
    try:
        from treys import Card, Evaluator
    except ImportError:
        print("treys is not installed: no comparison")
        return
    evaluator = Evaluator()
    theirs_data = [[Card.new(c) for c in h] for h in sevens]
    theirs = per_call_microseconds(lambda h: evaluator.evaluate(h[:2], h[2:]), theirs_data)
    print(
        f"treys Evaluator.evaluate: {theirs:.2f} us per 7-card hand; hand_rank is {theirs / ours:.1f}x faster"
    )


if __name__ == "__main__":
    main()
