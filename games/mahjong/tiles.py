"""Mahjong tiles in the notation of DESIGN.md, and the hand shapes every variant shares.

A tile is a string ``"1m".."9m"`` (万), ``"1p".."9p"`` (筒), ``"1s".."9s"`` (条) or
``"1z".."7z"`` (东 南 西 北 白 发 中). Inside, a tile is an index 0..33 and a hand a
list of 34 counts. Sets in the hand are pungs (刻子) and chows (顺子): both variants
here allow a chow formed by the player's own tiles, though neither lets a player
claim one (吃).

``wild`` is 推倒胡's 鬼牌: every copy of that tile stands for any tile, with 001:300's
first restriction (a wild never makes a fifth copy of a tile). The other two
restrictions (001:301-302) are about claiming and discarding: see the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SUITS = "mps"
HONOR = "z"
TILES: tuple[str, ...] = tuple(f"{n}{s}" for s in "mpsz" for n in range(1, 10 if s != "z" else 8))
INDEX = {t: i for i, t in enumerate(TILES)}
ORPHANS = tuple(
    INDEX[t] for t in ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z")
)
WINDS = tuple(range(27, 31))
DRAGONS = tuple(range(31, 34))
# 001:299: the wild is the flipped tile + 1 "in the order 1~9, 东南西北中发白" (中 = 7z, 白 = 5z).
_HONOR_ORDER = ("1z", "2z", "3z", "4z", "7z", "6z", "5z")


def parse(tiles: str | Iterable[str]) -> list[str]:
    """Return tiles from ``"123m 55z"`` shorthand or an iterable of tile strings; refuse unknown ones."""
    if isinstance(tiles, str):
        out: list[str] = []
        digits = ""
        for ch in tiles.replace(" ", ""):
            if ch.isdigit():
                digits += ch
            elif ch in "mpsz" and digits:
                out.extend(d + ch for d in digits)
                digits = ""
            else:
                raise ValueError(f"cannot read tiles {tiles!r}")
        if digits:
            raise ValueError(f"cannot read tiles {tiles!r}")
        tiles = out
    result = list(tiles)
    for t in result:
        if t not in INDEX:
            raise ValueError(f"{t!r} is not a tile")
    return result


def suit(tile: str) -> str:
    return tile[1]


def is_terminal(index: int) -> bool:
    return index < 27 and index % 9 in (0, 8)


def is_honor(index: int) -> bool:
    return index >= 27


def next_tile(tile: str) -> str:
    """Return the tile after ``tile`` in 001:299's order: the 鬼牌 when ``tile`` is flipped."""
    if suit(tile) == HONOR:
        return _HONOR_ORDER[(_HONOR_ORDER.index(tile) + 1) % 7]
    return f"{int(tile[0]) % 9 + 1}{suit(tile)}"


def wall(honors: bool) -> list[str]:
    """Return the 108 suited tiles (血战) or all 136 (推倒胡), four of each, in notation order."""
    return [t for t in TILES if honors or suit(t) != HONOR for _ in range(4)]


def counts(tiles: Iterable[str]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[INDEX[t]] += 1
    return c


@dataclass(frozen=True)
class Meld:
    """A claimed or declared set: ``kind`` is "pung" (碰) or "kong" (杠); ``concealed`` for 暗杠."""

    kind: str
    tile: str
    concealed: bool = False


@dataclass(frozen=True)
class Group:
    """One set or the pair of a reading; ``tiles`` are concrete (a wild stands as the tile it plays).

    ``tiles`` is empty for a set made only of wilds (``free``): the fan count chooses its tile.
    """

    kind: str  # "pair", "pung", "chow"
    tiles: tuple[int, ...]
    wilds: int = 0

    @property
    def free(self) -> bool:
        return not self.tiles


@dataclass(frozen=True)
class Reading:
    """One way to read a winning hand: its shape and groups (empty for 七对 and 十三幺)."""

    shape: str  # "standard", "seven_pairs", "thirteen_orphans"
    groups: tuple[Group, ...] = ()


def _split(hand: Sequence[str], wild: str | None) -> tuple[list[int], int]:
    c = counts(hand)
    if wild is None:
        return c, 0
    w = INDEX[wild]
    n, c[w] = c[w], 0
    return c, n


def _room(c: list[int], melds: Sequence[Meld]) -> list[int]:
    """How many wilds each tile may still take: 001:300, never a fifth copy."""
    room = [4 - n for n in c]
    for m in melds:
        room[INDEX[m.tile]] -= 4 if m.kind == "kong" else 3
    return room


def _standard(
    c: list[int], w: int, room: list[int], sets: int, pair: bool, found: list, acc: list, first: bool
):
    """Collect the set-and-pair readings of counts ``c`` with ``w`` wilds (all of them, or the first)."""
    i = next((k for k in range(34) if c[k]), -1)
    if i < 0:
        # Only wilds are left: they form sets of any tile, and the pair if it is missing.
        need = 3 * sets + (0 if pair else 2)
        if w == need:
            free = [Group("pung", (), 3)] * sets + ([] if pair else [Group("pair", (), 2)])
            found.append(Reading("standard", tuple(acc + free)))
        return
    if sets == 0 and pair:
        return
    options = []
    if not pair:
        for real in (2, 1):
            if c[i] >= real and w >= 2 - real and room[i] >= 2 - real:
                options.append(("pair", ((i, real),), 2 - real))
    if sets:
        for real in (3, 2, 1):
            if c[i] >= real and w >= 3 - real and room[i] >= 3 - real:
                options.append(("pung", ((i, real),), 3 - real))
        if i < 27:
            pos = i % 9
            for start in (i - 2, i - 1, i):
                if start < i - pos or start + 2 > i - pos + 8:
                    continue
                run = (start, start + 1, start + 2)
                # Tiles below ``i`` are all used up, so a wild plays each of them; above, a real one if held.
                take = tuple((t, 1) for t in run if t >= i and c[t])
                missing = [t for t in run if not (t >= i and c[t])]
                if len(missing) <= w and all(room[t] >= 1 for t in missing):
                    options.append(("chow", take, len(missing), run))
    for option in options:
        kind, take, used = option[0], option[1], option[2]
        for t, n in take:
            c[t] -= n
        filled = []
        if kind == "chow":
            filled = [t for t in option[3] if (t, 1) not in take]
            tiles = option[3]
        else:
            tiles = (i,) * (2 if kind == "pair" else 3)
            filled = [i] * used
        for t in filled:
            room[t] -= 1
        acc.append(Group(kind, tiles, used))
        _standard(c, w - used, room, sets - (kind != "pair"), pair or kind == "pair", found, acc, first)
        acc.pop()
        for t in filled:
            room[t] += 1
        for t, n in take:
            c[t] += n
        if first and found:
            return


def decompositions(
    hand: Sequence[str], melds: Sequence[Meld] = (), wild: str | None = None, *, orphans: bool = False
) -> list[Reading]:
    """Return every reading of ``hand`` (with ``melds`` laid down) as a winning hand; empty if none.

    Readings: four sets and a pair (melds count as sets), 七对 seven pairs (no melds;
    four of a kind counts as two pairs) and, when ``orphans``, 十三幺.
    """
    return _readings(list(hand), melds, wild, orphans, first=False)


def _sets_only(c: list[int]) -> bool:
    """Say whether counts ``c`` split into pungs and chows (greedy on the lowest tile is exact)."""
    c = list(c)
    for i in range(34):
        n = c[i]
        if n >= 3:
            n -= 3
        if n:
            if i >= 27 or i % 9 > 6 or c[i + 1] < n or c[i + 2] < n:
                return False
            c[i + 1] -= n
            c[i + 2] -= n
    return True


_POW5 = tuple(5**k for k in range(9))
_SUIT_SHAPES: dict[int, int] = {}  # a suit's nine counts in base 5 -> 1 (sets only) | 2 (sets and the pair)


def _suit_shape(key: int) -> int:
    """Return the shapes one suit's counts (``key``, base 5) can take: bit 1 sets only, bit 2 with the pair."""
    found = _SUIT_SHAPES.get(key)
    if found is None:
        c = [(key // _POW5[k]) % 5 for k in range(9)] + [0] * 25
        found = 1 if _sets_only(c) else 0
        for i in range(9):
            if c[i] >= 2:
                c[i] -= 2
                ok = _sets_only(c)
                c[i] += 2
                if ok:
                    found |= 2
                    break
        _SUIT_SHAPES[key] = found
    return found


def _keys(c: list[int]) -> list[int]:
    return [sum(c[9 * s + k] * _POW5[k] for k in range(9)) for s in range(3)]


def _keyed_win(keys: list[int], c: list[int]) -> bool:
    """Four sets and a pair from the suits' keys and the honor counts: a few look-ups per hand."""
    pairs = 0
    for n in c[27:]:
        if n == 2:
            pairs += 1
        elif n == 1 or n == 4:
            return False
    for key in keys:
        shape = _suit_shape(key)
        if shape & 1:
            continue
        if shape & 2:
            pairs += 1
        else:
            return False
    return pairs == 1


def _plain_win(c: list[int]) -> bool:
    """Sets and a pair without wilds, trying each pair: the fast path of ``is_win``."""
    for i in range(34):
        if c[i] >= 2:
            c[i] -= 2
            ok = _sets_only(c)
            c[i] += 2
            if ok:
                return True
    return False


def _lonely(c: list[int]) -> int:
    """Count the single tiles with no tile of their suit within two: each needs a wild to be used."""
    n = 0
    for i in range(34):
        if c[i] == 1:
            if i >= 27:
                n += 1
                continue
            pos = i % 9
            if not any(c[j] for j in range(i - min(pos, 2), i + min(8 - pos, 2) + 1) if j != i):
                n += 1
    return n


def _can(c: list[int], w: int, room: list[int], sets: int, pair: bool, i: int = 0) -> bool:
    """Say whether counts ``c`` and ``w`` wilds make ``sets`` sets (and the pair unless ``pair``)."""
    if w == 0:
        return _sets_only(c) if pair else _keyed_win(_keys(c), c)
    while i < 34 and not c[i]:
        i += 1
    if i == 34:
        return w == 3 * sets + (0 if pair else 2)
    n = c[i]
    if not pair:
        for real in (2, 1):
            if n >= real and w >= 2 - real and room[i] >= 2 - real:
                c[i] -= real
                ok = _can(c, w - 2 + real, room, sets, True, i)
                c[i] += real
                if ok:
                    return True
    if not sets:
        return False
    for real in (3, 2, 1):
        if n >= real and w >= 3 - real and room[i] >= 3 - real:
            c[i] -= real
            ok = _can(c, w - 3 + real, room, sets - 1, pair, i)
            c[i] += real
            if ok:
                return True
    if i < 27:
        low = i - i % 9
        for start in (i - 2, i - 1, i):
            if start < low or start + 2 > low + 8:
                continue
            run = (start, start + 1, start + 2)
            real = [t for t in run if t >= i and c[t]]
            missing = [t for t in run if t not in real]
            if len(missing) > w or any(room[t] < 1 for t in missing):
                continue
            for t in real:
                c[t] -= 1
            for t in missing:
                room[t] -= 1
            ok = _can(c, w - len(missing), room, sets - 1, pair, i)
            for t in real:
                c[t] += 1
            for t in missing:
                room[t] += 1
            if ok:
                return True
    return False


def _readings(
    hand: list[str], melds: Sequence[Meld], wild: str | None, orphans: bool, first: bool
) -> list[Reading]:
    c, w = _split(hand, wild)
    return _counted(c, w, melds, orphans, first)


def _counted(c: list[int], w: int, melds: Sequence[Meld], orphans: bool, first: bool) -> list[Reading]:
    """``_readings`` of counts ``c`` (wilds left out) and ``w`` wilds."""
    size = sum(c) + w
    sets = 4 - len(melds)
    if sets < 0 or size != 3 * sets + 2:
        return []
    if first and _lonely(c) <= w and _can(c, w, _room(c, melds), sets, False):
        return [Reading("standard")]
    found: list[Reading] = []
    if not first:
        _standard(c, w, _room(c, melds), sets, False, found, [], first)
    if not melds and size == 14:
        singles = sum(n % 2 for n in c)
        if singles <= w and (w - singles) % 2 == 0:
            found.append(Reading("seven_pairs"))
        if orphans and all(c[k] == 0 for k in range(34) if k not in ORPHANS):
            # Thirteen different orphans and one of them twice; wilds fill what is missing
            # (the size check above already makes the wilds exactly enough).
            extra = sum(c) - sum(1 for k in ORPHANS if c[k])
            if extra <= 1 and max(c) <= 2:
                found.append(Reading("thirteen_orphans"))
    return found


def is_win(
    hand: Sequence[str], melds: Sequence[Meld] = (), wild: str | None = None, *, orphans: bool = False
) -> bool:
    """Say whether ``hand`` (with ``melds`` laid down) is a complete, winning hand (胡牌 shape)."""
    return bool(_readings(list(hand), melds, wild, orphans, first=True))


def waits(
    hand: Sequence[str],
    melds: Sequence[Meld] = (),
    wild: str | None = None,
    *,
    orphans: bool = False,
    honors: bool = True,
) -> list[str]:
    """Return the tiles that complete ``hand`` (听牌: what it waits on), in notation order.

    A tile of which the player already holds four (hand and melds) cannot be drawn
    and is left out. With ``honors`` False (108 tiles) no honor is a candidate.
    """
    held = counts(hand)
    for m in melds:
        held[INDEX[m.tile]] += 4 if m.kind == "kong" else 3
    c, w = _split(list(hand), wild)
    if w == 0 and sum(c) == 3 * (4 - len(melds)) + 1:
        found = _plain_waits(c, not melds and sum(c) == 13, orphans)
        if wild is not None and held[INDEX[wild]] < 4 and _counted(c, 1, melds, orphans, True):
            found.append(INDEX[wild])  # drawing the wild itself
        return [TILES[i] for i in sorted(set(found)) if (honors or i < 27) and held[i] < 4]
    wild_index = INDEX[wild] if wild is not None else -1
    out = []
    for i, t in enumerate(TILES):
        if (not honors and i >= 27) or held[i] >= 4:
            continue
        if i == wild_index:
            if _counted(c, w + 1, melds, orphans, True):
                out.append(t)
            continue
        c[i] += 1
        if _counted(c, w, melds, orphans, True):
            out.append(t)
        c[i] -= 1
    return out


_SUIT_WAITS: dict[int, tuple[tuple[int, int], ...]] = {}


def _suit_waits(key: int) -> tuple[tuple[int, int], ...]:
    """For one suit's counts (``key``): each position a tile may be added at, with the suit's shape then."""
    found = _SUIT_WAITS.get(key)
    if found is None:
        found = tuple(
            (pos, shape)
            for pos in range(9)
            if (key // _POW5[pos]) % 5 < 4 and (shape := _suit_shape(key + _POW5[pos]))
        )
        _SUIT_WAITS[key] = found
    return found


def _plain_waits(c: list[int], closed: bool, orphans: bool) -> list[int]:
    """The waits of a hand without wilds, from each suit's waits looked up once.

    A suit's shape is 1 (sets only) or 2 (sets and the pair) or 0 (neither); a hand wins when
    every suit and the honors have a shape and exactly one holds the pair. ``closed``: no melds
    and 13 tiles, so 七对 (and with ``orphans`` 十三幺) may complete it.
    """
    keys = _keys(c)
    shapes = [_suit_shape(k) for k in keys]
    honor_bad = 0
    honor_pairs = 0
    for n in c[27:]:
        if n == 2:
            honor_pairs += 1
        elif n == 1 or n == 4:
            honor_bad += 1
    out = []
    if honor_bad <= 1:
        for s in range(3):
            others = [shapes[k] for k in range(3) if k != s]
            if honor_bad or not all(others):
                continue
            pairs = honor_pairs + others.count(2)
            out.extend(9 * s + pos for pos, shape in _suit_waits(keys[s]) if pairs + (shape == 2) == 1)
        if all(shapes):
            pairs = shapes.count(2)
            for i in range(27, 34):
                n = c[i]
                bad = honor_bad - (n == 1) + (n in (0, 3))  # the tile makes a single or a fourth
                if n < 4 and bad == 0 and pairs + honor_pairs - (n == 2) + (n == 1) == 1:
                    out.append(i)
    if closed:
        odd = [i for i in range(34) if c[i] % 2]
        if len(odd) == 1:
            out.append(odd[0])  # 七对 (a four of a kind counts as two pairs)
        if orphans and all(c[i] == 0 for i in range(34) if i not in ORPHANS):
            for i in ORPHANS:
                c[i] += 1
                if _counted(c, 0, (), True, True):
                    out.append(i)
                c[i] -= 1
    return out
