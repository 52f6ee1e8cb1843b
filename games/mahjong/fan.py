"""番 (fan): the patterns a winning hand scores, one table per variant, as data.

``fan(hand, melds, win_tile, context, variant)`` reads the hand every way it can
(``tiles.decompositions``; a wild plays whatever tile scores best) and returns the
best total with the named patterns a result panel lists. A pattern's ``excludes``
are the seed's 不计 (not counted with it). Seed lines: docs/rules/xuezhan.md and
docs/rules/tuidaohu.md.

``context`` keys (all optional, False when missing): ``self_drawn`` 自摸,
``kong_draw`` 杠上开花, ``kong_discard`` 杠上炮, ``robbed_kong`` 抢杠胡,
``last_tile`` 海底捞月, ``heavenly`` 天胡, ``earthly`` 地胡, ``wild`` (the 鬼牌 tile).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from games.mahjong.tiles import (
    DRAGONS,
    INDEX,
    WINDS,
    Meld,
    Reading,
    decompositions,
    is_honor,
    is_terminal,
)


@dataclass(frozen=True)
class Row:
    """One row of a fan table: its key, names, 番, and the rows it replaces (不计)."""

    key: str
    zh: str
    en: str
    fan: int
    excludes: tuple[str, ...] = ()
    per_root: bool = False  # 根: the fan counts once per root
    less_root: int = 0  # 龙七对's "同时减1根": its own four of a kind is not also a root
    hand: bool = True  # a pattern of the tiles (False: of how the hand was won)


@dataclass(frozen=True)
class Table:
    rows: tuple[Row, ...]
    cap: int | None
    orphans: bool  # 十三幺 is a winning shape

    def row(self, key: str) -> Row:
        return next(r for r in self.rows if r.key == key)


# 血战到底 as 001:680-701 lists it: the 翻倍 (doublings) are one 番 each, no cap (001:665).
XUEZHAN_001 = Table(
    rows=(
        Row("root", "根", "Root", 1, per_root=True, hand=False),
        Row("self_drawn", "自摸", "Self-drawn", 1, hand=False),
        Row("kong_draw", "杠上开花", "Win on a kong's replacement tile", 1, hand=False),
        Row("kong_discard", "杠上炮", "Win on a discard after a kong", 1, hand=False),
        Row("last_tile", "海底捞月", "Win on the last tile", 1, hand=False),
        Row("plain", "平胡", "Plain win", 0),
        Row("all_pungs", "对对胡", "All pungs", 1),
        Row("flush", "清一色", "Pure one suit", 2),
        Row("seven_pairs", "七对", "Seven pairs", 2),
        Row("terminal_sets", "全带幺", "Terminals in every set", 2),
        Row("single_wait", "金钩钓", "Golden hook", 2, ("all_pungs",)),
        Row("flush_pungs", "清对", "Pure all pungs", 3, ("flush", "all_pungs")),
        Row("root_pairs", "龙七对", "Dragon seven pairs", 3, ("seven_pairs",), less_root=1),
        Row("flush_pairs", "清七对", "Pure seven pairs", 4, ("flush", "seven_pairs")),
        Row(
            "flush_single_wait",
            "清金钩钓",
            "Pure golden hook",
            4,
            ("flush", "single_wait", "all_pungs", "flush_pungs"),
        ),
        Row("heavenly", "天胡", "Heavenly win", 5, hand=False),
        Row("earthly", "地胡", "Earthly win", 5, hand=False),
        Row(
            "flush_root_pairs",
            "青龙七对",
            "Pure dragon seven pairs",
            5,
            ("flush", "root_pairs", "seven_pairs", "flush_pairs"),
            less_root=1,
        ),
        Row("eighteen", "十八罗汉", "Eighteen arhats", 6, ("root", "single_wait", "all_pungs")),
        Row(
            "flush_eighteen",
            "清十八罗汉",
            "Pure eighteen arhats",
            8,
            ("eighteen", "flush", "root", "single_wait", "all_pungs", "flush_pungs", "flush_single_wait"),
        ),
    ),
    cap=None,
    orphans=False,
)

# 血战 as 003:13-26 lists it: 自摸 scores nothing itself, 3 番 at most (003:3, 003:11).
XUEZHAN_003 = Table(
    rows=(
        Row("self_drawn", "自摸", "Self-drawn", 0, hand=False),
        Row("plain", "平胡", "Plain win", 0),
        Row("all_pungs", "对对", "All pungs", 1),
        Row("root", "带根", "Root", 1, per_root=True, hand=False),
        Row("robbed_kong", "抢杠", "Robbing a kong", 1, hand=False),
        Row("kong_discard", "杠上炮", "Win on a discard after a kong", 1, hand=False),
        Row("kong_draw", "杠上花", "Win on a kong's replacement tile", 1, hand=False),
        Row("flush", "清一色", "Pure one suit", 2),
        Row("seven_pairs", "七对", "Seven pairs", 2),
        Row("terminal_sets", "带幺九", "Terminals in every set", 2),
        Row("flush_pungs", "清对", "Pure all pungs", 3, ("flush", "all_pungs")),
        Row("root_pairs", "龙七对", "Dragon seven pairs", 3, ("seven_pairs",)),
        Row("flush_pairs", "清七对", "Pure seven pairs", 3, ("flush", "seven_pairs")),
    ),
    cap=3,
    orphans=False,
)

# 广东推倒胡 as 001:303-326: cap 7 番; 鸡胡 may win only by 自摸 or 抢杠胡 (the engine's rule).
TUIDAOHU = Table(
    rows=(
        Row("plain", "鸡胡", "Chicken hand", 0),
        Row("all_pungs", "碰碰胡", "All pungs", 3),
        Row("half_flush", "混一色", "Half flush", 3),
        Row("flush", "清一色", "Pure one suit", 4),
        Row("seven_pairs", "七对", "Seven pairs", 4),
        Row("root_pairs", "豪华七对", "Luxury seven pairs", 5, ("seven_pairs",)),
        Row("mixed_orphans", "混幺九", "Terminals and honors", 5, ("all_pungs",)),
        Row("small_dragons", "小三元", "Little three dragons", 6),
        Row("small_winds", "小四喜", "Little four winds", 6),
        Row("all_honors", "字一色", "All honors", 6, ("all_pungs",)),
        Row("pure_orphans", "清幺九", "All terminals", 6, ("all_pungs", "mixed_orphans")),
        Row("thirteen_orphans", "十三幺", "Thirteen orphans", 7),
        Row("big_dragons", "大三元", "Big three dragons", 7),
        Row("big_winds", "大四喜", "Big four winds", 7, ("all_pungs",)),
        Row("robbed_kong", "抢杠胡", "Robbing a kong", 3, hand=False),
        Row("kong_draw", "杠上开花", "Win on a kong's replacement tile", 3, hand=False),
        Row("last_tile", "海底捞月", "Win on the last tile", 3, hand=False),
        Row("heavenly", "天胡", "Heavenly win", 6, hand=False),
        Row("earthly", "地胡", "Earthly win", 6, hand=False),
    ),
    cap=7,
    orphans=True,
)

TABLES = {"xuezhan_001": XUEZHAN_001, "xuezhan_003": XUEZHAN_003, "tuidaohu": TUIDAOHU}


@dataclass(frozen=True)
class FanResult:
    """The best reading's score: ``total`` 番 (after the cap) and each counted pattern ``(key, 番)``."""

    total: int
    patterns: tuple[tuple[str, int], ...]
    roots: int
    plain: bool  # no pattern of the tiles: 平胡 / 鸡胡
    uncapped: int

    def names(self, variant: str) -> list[str]:
        table = TABLES[variant]
        return [table.row(key).zh for key, _ in self.patterns]


def _sets_of(groups: Sequence[tuple[str, tuple[int, ...]]]) -> list[tuple[str, tuple[int, ...]]]:
    return [g for g in groups if g[0] != "pair"]


def _facts(
    shape: str, groups: list[tuple[str, tuple[int, ...]]], melds: Sequence[Meld], ctx: dict
) -> tuple[set[str], int]:
    """Return the pattern keys a concrete reading shows, and its roots (根)."""
    tiles = [t for _, ts in groups for t in ts]
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    suits = {t // 9 for t in tiles if t < 27}
    honors = any(is_honor(t) for t in tiles)
    facts = {
        k
        for k in (
            "self_drawn",
            "kong_draw",
            "kong_discard",
            "robbed_kong",
            "last_tile",
            "heavenly",
            "earthly",
        )
        if ctx.get(k)
    }
    roots = sum(1 for n in c if n == 4)
    flush = len(suits) == 1 and not honors
    if flush:
        facts.add("flush")
    if len(suits) == 1 and honors:
        facts.add("half_flush")
    if shape == "thirteen_orphans":
        facts.add("thirteen_orphans")
        return facts, roots
    if shape == "seven_pairs":
        facts.add("seven_pairs")
        if roots:
            facts.add("root_pairs")
            if flush:
                facts.add("flush_root_pairs")
        if flush:
            facts.add("flush_pairs")
        return facts, roots
    sets = _sets_of(groups)
    pungs = all(kind in ("pung", "kong") for kind, _ in sets)
    if pungs:
        facts.add("all_pungs")
        if flush:
            facts.add("flush_pungs")
    if all(any(is_terminal(t) for t in ts) for _, ts in groups):
        facts.add("terminal_sets")
    if len(melds) == 4:
        facts.add("single_wait")
        if flush:
            facts.add("flush_single_wait")
        if all(m.kind == "kong" for m in melds):
            facts.add("flush_eighteen" if flush else "eighteen")
    if all(is_terminal(t) or is_honor(t) for t in tiles):
        if not honors and pungs:
            facts.add("pure_orphans")
        elif honors and any(is_terminal(t) for t in tiles):
            facts.add("mixed_orphans")
    if all(is_honor(t) for t in tiles) and pungs:
        facts.add("all_honors")
    pung_tiles = {ts[0] for kind, ts in sets if kind in ("pung", "kong")}
    pair = next(ts[0] for kind, ts in groups if kind == "pair")
    for family, small, big in (
        (DRAGONS, "small_dragons", "big_dragons"),
        (WINDS, "small_winds", "big_winds"),
    ):
        held = sum(1 for t in family if t in pung_tiles)
        if held == len(family):
            facts.add(big)
        elif held == len(family) - 1 and pair in family:
            facts.add(small)
    return facts, roots


def _score(table: Table, facts: set[str], roots: int) -> FanResult:
    active = [r for r in table.rows if r.key in facts or (r.per_root and roots)]
    excluded = {x for r in active for x in r.excludes if r.key in facts}
    active = [r for r in active if r.key not in excluded]
    roots -= sum(r.less_root for r in active)
    patterns = []
    for r in active:
        if r.per_root:
            if roots > 0:
                patterns.append((r.key, r.fan * roots))
        else:
            patterns.append((r.key, r.fan))
    plain = not any(r.hand for r in active)
    if plain:
        patterns.insert(0, ("plain", 0))
    total = sum(f for _, f in patterns)
    capped = total if table.cap is None else min(total, table.cap)
    return FanResult(capped, tuple(patterns), max(roots, 0), plain, total)


def _concrete(
    reading: Reading, real: list[int], room: list[int], wilds: int
) -> list[list[tuple[str, tuple[int, ...]]]]:
    """Every concrete tile choice for the groups a wild plays alone (at most a few)."""
    if reading.shape == "thirteen_orphans":
        return [[]]
    if reading.shape == "seven_pairs":
        singles = [t for t in range(34) if real[t] % 2]
        base = [t for t in range(34) for _ in range(real[t] // 2)] + singles
        spare = (wilds - len(singles)) // 2
        options = []
        for extra in itertools.combinations_with_replacement(range(34), spare):
            pairs = base + list(extra)
            c = [0] * 34
            for t in pairs:
                c[t] += 2
            if max(c) <= 4:
                options.append([("pair", (t, t)) for t in pairs])
        return options
    fixed = [(g.kind, g.tiles) for g in reading.groups if not g.free]
    free = [g for g in reading.groups if g.free]
    if not free:
        return [fixed]
    options = []
    used = [0] * 34
    for _, ts in fixed:
        for t in ts:
            used[t] += 1
    for choice in itertools.product(range(34), repeat=len(free)):
        c = list(used)
        extra = []
        for g, t in zip(free, choice, strict=True):
            size = 2 if g.kind == "pair" else 3
            c[t] += size
            extra.append((g.kind, (t,) * size))
        if all(c[t] <= 4 - (4 - room[t] - real[t]) for t in range(34)):
            options.append(fixed + extra)
    return options


def fan(
    hand: Sequence[str], melds: Sequence[Meld], win_tile: str, context: dict | None, variant: str
) -> FanResult | None:
    """Score ``hand`` + ``win_tile`` with ``melds`` under ``variant``'s table; None if it is no win."""
    table = TABLES[variant]
    ctx = context or {}
    wild = ctx.get("wild")
    tiles = [*hand, win_tile]
    readings = decompositions(tiles, melds, wild, orphans=table.orphans)
    if not readings:
        return None
    real = [0] * 34
    wilds = 0
    for t in tiles:
        if t == wild:
            wilds += 1
        else:
            real[INDEX[t]] += 1
    room = [4 - n for n in real]
    meld_groups = []
    for m in melds:
        i = INDEX[m.tile]
        room[i] -= 4 if m.kind == "kong" else 3
        meld_groups.append((m.kind, (i,) * (4 if m.kind == "kong" else 3)))
    best: FanResult | None = None
    # 七对 first: 001:691 counts a hand that reads as both 七对 and 全带幺 as 七对.
    for reading in sorted(readings, key=lambda r: r.shape != "seven_pairs"):
        for groups in _concrete(reading, real, room, wilds):
            facts, roots = _facts(reading.shape, groups + meld_groups, melds, ctx)
            result = _score(table, facts, roots)
            if best is None or (result.total, result.uncapped) > (best.total, best.uncapped):
                best = result
    return best
