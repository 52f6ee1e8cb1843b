"""百人牛牛 under the banker harness: whole shoes of random bets (games.testing.banker_playout)."""

import random

from games.niuniu_hundred.engine import AREAS, DEFAULT_OPTIONS, NiuniuHundredEngine
from games.testing import banker_playout


def test_random_shoes_keep_every_banker_engine_promise():
    engine = NiuniuHundredEngine()
    choices = random.Random(27)
    coups = 0
    for i in range(50):
        table = "tongbi" if i % 5 == 4 else "niuniu"
        config = {**DEFAULT_OPTIONS, "coups_per_shoe": 1 + i % 30, "multiplier_table": table}
        shoe, dealt = banker_playout(
            engine, config, f"niuniu-hundred-{i}", choices, bets_per_coup=6, strict=True
        )
        assert dealt == config["coups_per_shoe"] == len(shoe["history"])
        assert set(engine.roads(shoe)["areas"]) == set(AREAS)
        coups += dealt
    assert coups > 600
