"""What the platform shows of 百家乐 beyond its rules: the variants' names and its demo rooms.

A house-banked game has no seated hands, so it has no ``Presentation``; its
rounds are shown by its own page.
"""

from __future__ import annotations

from games.base import gettext_noop

# The game's own words, which no platform code outside its page may use (GameInfo.terms).
TERMS = ("百家乐", "Baccarat", "庄", "闲", "免佣", "Super6", "超级6")

# How the lobby names each variant (docs/rules/baccarat.md): the house's edge is the
# commission, or 免佣's half pay on a banker 6.
VARIANT_LABELS = {
    "commission": gettext_noop("Banker wins pay a commission of 5%"),
    "super6": gettext_noop("No commission; Super 6 and big/small bets"),
}

# The demo rooms (seeds 001, 003): one table per tier, bets from 10 coins (the engine's
# min_bet); enter with 20 minimum bets. No rake: the house's edge is the game's own
# (经典场's 5% commission on banker wins, 免佣场's half pay on a banker 6), so rake_bps is 0.
DEMO_TIERS = tuple(
    {
        "code": code,
        "name": name,
        "name_en": name_en,
        "base_stake": 10,
        "minimum_rule": "fixed",
        "fixed_minimum": 200,
        "rake_bps": 0,
        "options": {"variant": variant},
    }
    for code, name, name_en, variant in (
        ("classic", "经典场", "Classic room", "commission"),
        ("no-commission", "免佣场", "No-commission room", "super6"),
    )
)
