"""What the platform shows of 保险楚汉德州 beyond its rules: its words and its demo rooms."""

from __future__ import annotations

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("保险楚汉德州", "Insured Chu-Han")

# The demo rooms: the house's margin on every street's odds (margin_bps) is the tier's.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": 10,
        "minimum_rule": "fixed",
        "fixed_minimum": minimum,
        "rake_bps": 500,
        "options": {"min_bet": min_bet, "margin_bps": 500},
    }
    for code, name, name_en, minimum, min_bet in (
        ("beginner", "初级场", "Beginner room", 100, 10),
        ("advanced", "高级场", "Advanced room", 2000, 100),
    )
)
