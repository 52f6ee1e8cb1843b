"""What the platform shows of 开心摇摇乐 beyond its rules: its words and its demo rooms.

A banker-family game has no seated hands, so it has no ``Presentation``; its
rounds are shown by its own page.
"""

from __future__ import annotations

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("开心摇摇乐", "摇摇乐", "Happy Dice", "骰盅")

# The demo rooms: bets from 10 coins (every chip a multiple of 10, so 1赔1.5 and 1赔2.3 pay whole
# coins); a bet holds its amount in escrow. No service fee: the house's edge is in the odds the
# seed sets (001:402-410), as for 百家乐, so the edge each area shows is the edge a player meets.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": 10,
        "minimum_rule": "fixed",
        "fixed_minimum": minimum,
        "rake_bps": 0,
        "options": {"min_bet": min_bet, "chips": chips},
    }
    for code, name, name_en, minimum, min_bet, chips in (
        ("beginner", "初级场", "Beginner room", 200, 10, [10, 50, 100, 500, 1000]),
        ("advanced", "高级场", "Advanced room", 5000, 100, [100, 500, 1000, 5000, 10000]),
    )
)
