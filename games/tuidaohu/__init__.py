"""广东推倒胡 Guangdong "push down" mahjong (001): the mahjong core's 136-tile variant with the 鬼牌.

Not registered yet (its page is still to come): ``ENGINE`` plays whole hands.
"""

from games.mahjong.engine import MahjongEngine

DEFAULT_OPTIONS = {"turn_seconds": 15, "claim_seconds": 8}

ENGINE = MahjongEngine("tuidaohu", DEFAULT_OPTIONS)
