"""百家乐 Baccarat: the rules only (shoe, drawing tables, payouts, roads).

Not registered in ``games.REGISTRY`` yet: the banker-game runtime that takes
bets and settles them through the ledger does not exist. See
docs/rules/baccarat.md.
"""
