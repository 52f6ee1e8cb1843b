"""What the platform shows of 楚汉德州 beyond its rules: its words and its demo rooms."""

from __future__ import annotations

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("楚汉德州", "楚汉", "Chu-Han")

# The demo rooms: bets from 10 (or 100) coins; a bet holds its stake in escrow (the most it can
# lose); 5 % of each winner's profit on a round is the house's fee, as on every banker table.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": 10,
        "minimum_rule": "fixed",
        "fixed_minimum": minimum,
        "rake_bps": 500,
        "options": {"min_bet": min_bet},
    }
    for code, name, name_en, minimum, min_bet in (
        ("beginner", "初级场", "Beginner room", 100, 10),
        ("advanced", "高级场", "Advanced room", 2000, 100),
    )
)
