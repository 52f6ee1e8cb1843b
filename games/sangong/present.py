"""What the platform shows of 百人三公 beyond its rules: its words and its demo rooms.

A banker-family game has no seated hands, so it has no ``Presentation``; its
rounds are shown by its own page.
"""

from __future__ import annotations

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("百人三公", "三公", "San Gong", "爆玖")  # 东南西北 are every mahjong tile's winds too

# The demo rooms: bets from 10 coins; a bet holds 5× its amount in escrow (the most it can lose),
# so entering takes 50 minimum bets. 上庄 from bank_minimum coins, for at most bank_rounds rounds;
# 5% of each winner's profit is the house's fee (001:132).
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
        ("beginner", "初级场", "Beginner room", 500, 1000, 10),
        ("advanced", "高级场", "Advanced room", 5000, 50000, 100),
    )
)
