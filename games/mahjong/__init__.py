"""The mahjong core shared by 血战到底 (xuezhan) and 广东推倒胡 (tuidaohu): tiles, shapes, 番, payments.

Not a game of its own: nothing here registers. docs/rules/xuezhan.md and
docs/rules/tuidaohu.md give each rule with its seed line.
"""
