"""保险楚汉德州 Insured Chu-Han Hold'em: the rules of its three betting streets (not yet a registered game).

``rules.py`` holds the pure rules: each street's exact chances over the unseen
cards, the odds less the tier's margin, when a street's betting is skipped, and
what a bet pays. The engine and the runtime's several betting windows per round
are still to come (docs/rules/chuhan_insured.md).
"""
