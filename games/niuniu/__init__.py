"""牛牛 Bull (抢庄, banker by bidding): the rules every 牛牛 game shares live in rules.py."""
