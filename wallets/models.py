"""Coin accounts and the double-entry ledger."""
