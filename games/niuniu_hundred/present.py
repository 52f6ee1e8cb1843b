"""What the platform shows of 百人牛牛 beyond its rules: its words and its demo rooms.

A banker-family game has no seated hands, so it has no ``Presentation``; its
rounds are shown by its own page.
"""

from __future__ import annotations

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("百人牛牛", "Hundred-player Bull", "福禄寿禧")

# The demo rooms: bets from 10 coins; a bet holds 10× its amount in escrow (小牛牛, the most it
# can lose), so entering takes 10 minimum bets. 上庄 from bank_minimum coins, for at most
# bank_rounds rounds; 5% of each winner's profit is the house's fee (001:97).
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": 10,
        "minimum_rule": "fixed",
        "fixed_minimum": minimum,
        "rake_bps": 500,
        "options": {"bank_minimum": bank_minimum, "bank_rounds": 10, "min_bet": min_bet},
    }
    for code, name, name_en, minimum, bank_minimum, min_bet in (
        ("beginner", "初级场", "Beginner room", 1000, 2000, 10),
        ("advanced", "高级场", "Advanced room", 10000, 100000, 100),
    )
)
