"""百人三公 under the banker harness: whole shoes of random bets (games.testing.banker_playout)."""

import random

from games.sangong.engine import AREAS, DEFAULT_OPTIONS, SangongEngine
from games.testing import banker_playout


def test_random_shoes_keep_every_banker_engine_promise():
    engine = SangongEngine()
    choices = random.Random(27)
    coups = 0
    for i in range(60):
        config = {**DEFAULT_OPTIONS, "coups_per_shoe": 1 + i % 30}
        shoe, dealt = banker_playout(engine, config, f"sangong-{i}", choices, bets_per_coup=6, strict=True)
        assert dealt == config["coups_per_shoe"] == len(shoe["history"])
        assert set(engine.roads(shoe)["areas"]) == set(AREAS)
        coups += dealt
    assert coups > 800
