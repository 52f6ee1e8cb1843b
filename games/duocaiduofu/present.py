"""What the platform shows of 多财多福 beyond its rules: its own words and its demo rooms."""

from __future__ import annotations

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("多财多福", "Fortune Lines", "童男", "童女", "元宝", "鞭炮", "灯笼")

# The demo rooms: 底分 from the base stake × 1, 2, 5, 10 (multiples of 20, so a 5% fee on any
# profit is a whole coin); enter with 10 of the smallest spins. The 5% fee is the platform's,
# taken from each play's profit (docs/rules/duocaiduofu.md).
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": base,
        "minimum_rule": "base_multiple",
        "minimum_multiplier": 10,
        "rake_bps": 500,
    }
    for code, name, name_en, base in (
        ("novice", "初级场", "Novice room", 20),
        ("middle", "中级场", "Intermediate room", 100),
        ("senior", "高级场", "Senior room", 500),
    )
)
