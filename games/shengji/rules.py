"""升级 / 拖拉机 (Tractor) cards: trump order, following, tricks, 甩牌, points and levels.

Pure functions on cards written as in DESIGN.md ("As", "Th", "XJ" 小王, "DJ" 大王);
the two decks share the strings, so a hand is a list in which a card may appear
twice. ``Trump(level, suit)`` is a hand's trump: the level rank (级牌) and the
trump suit (主花), ``suit=None`` for 无主 (no trump suit). Each rule cites seed
004 in docs/rules/shengji.md.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb
from typing import NamedTuple

from games.base import gettext_noop

RANKS = "23456789TJQKA"
SUITS = "shcd"
SMALL_JOKER, BIG_JOKER = "XJ", "DJ"
TRUMP = "T"  # the "suit" every trump card follows as (004:24 吊主)
RED = "hd"
DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS) + (SMALL_JOKER, BIG_JOKER)
TOTAL_POINTS = 200  # 004:26: two decks' 5s, 10s and Ks


class Trump(NamedTuple):
    """The hand's level rank (级牌, "2".."A") and trump suit (主花; None = 无主)."""

    level: str
    suit: str | None


def points(cards: list[str]) -> int:
    """分牌 (004:26): a 5 counts 5, a 10 and a K count 10."""
    return sum(5 if c[0] == "5" else 10 if c[0] in "TK" else 0 for c in cards)


def suit_of(card: str, trump: Trump) -> str:
    """The suit ``card`` follows as: jokers, level cards and the trump suit are all trump (004:24)."""
    if card in (SMALL_JOKER, BIG_JOKER) or card[0] == trump.level or card[1] == trump.suit:
        return TRUMP
    return card[1]


def position(card: str, trump: Trump) -> int:
    """The card's place in its suit, low to high; adjacent places make a tractor (连对).

    Plain suits and the trump suit's plain cards: 0..11 (the level rank is left out, so with
    level 7 the 6 and the 8 are adjacent). Then the other suits' level cards (all equal, 12),
    the trump suit's level card (13), 小王, 大王. In 无主 there is no trump-suit level card.
    """
    if card == BIG_JOKER:
        return 15 if trump.suit else 14
    if card == SMALL_JOKER:
        return 14 if trump.suit else 13
    if card[0] == trump.level:
        return 13 if card[1] == trump.suit else 12
    index = RANKS.index(card[0])
    return index - 1 if index > RANKS.index(trump.level) else index


def strength(card: str, trump: Trump) -> int:
    """Order across the whole deck: any trump beats any plain card (then ``position``)."""
    return position(card, trump) + (100 if suit_of(card, trump) == TRUMP else 0)


def sort_hand(cards: list[str], trump: Trump) -> list[str]:
    """Sort a hand for display: each plain suit low to high, then the trumps grouped, low to high."""

    def key(card: str) -> tuple[bool, int, int, int]:
        suit = suit_of(card, trump)
        order = SUITS.index(suit) if suit in SUITS else len(SUITS)
        return (suit == TRUMP, order, strength(card, trump), SUITS.index(card[1]) if card[1] in SUITS else 4)

    return sorted(cards, key=key)


# -- shapes ------------------------------------------------------------------------------------


class Part(NamedTuple):
    """One part of a play: ``pairs`` = 0 for a single, 1 for a pair, k ≥ 2 for a tractor of k pairs."""

    pairs: int
    cards: tuple[str, ...]
    top: int  # the position of its highest card


def _pairs_by_position(cards: list[str], trump: Trump) -> dict[int, list[str]]:
    """The identical pairs in ``cards``, keyed by position (two off-suit level pairs share one)."""
    found: dict[int, list[str]] = {}
    for card, n in Counter(cards).items():
        for _ in range(n // 2):
            found.setdefault(position(card, trump), []).append(card)
    return found


def tractors(cards: list[str], trump: Trump, length: int) -> list[Part]:
    """Every tractor of exactly ``length`` pairs in ``cards`` (all of one suit), high ones first."""
    by_pos = _pairs_by_position(cards, trump)
    found = []
    for top in sorted(by_pos, reverse=True):
        runs: list[list[str]] = [[]]
        for pos in range(top, top - length, -1):
            if pos not in by_pos:
                runs = []
                break
            runs = [run + [card] for run in runs for card in by_pos[pos]]
        for run in runs:
            found.append(Part(length, tuple(c for card in run for c in (card, card)), top))
    return found


def shape(cards: list[str], trump: Trump) -> str | None:
    """Name a lead: "single", "pair", "tractor", "throw" (甩牌), or None when not of one suit."""
    if not cards or len({suit_of(c, trump) for c in cards}) != 1:
        return None
    if len(cards) == 1:
        return "single"
    if len(cards) == 2 and cards[0] == cards[1]:
        return "pair"
    if len(cards) % 2 == 0 and tractors(cards, trump, len(cards) // 2):
        return "tractor"
    return "throw"


def parts(cards: list[str], trump: Trump) -> list[Part]:
    """Split one suit's cards into tractors (longest first), then pairs, then singles."""
    left = Counter(cards)
    found: list[Part] = []
    for length in range(len(cards) // 2, 1, -1):
        while True:
            runs = tractors(list(left.elements()), trump, length)
            if not runs:
                break
            found.append(runs[0])
            left.subtract(runs[0].cards)
    for card in sorted(left.elements(), key=lambda c: -position(c, trump)):
        if left[card] >= 2:
            found.append(Part(1, (card, card), position(card, trump)))
            left[card] -= 2
    found += [Part(0, (c,), position(c, trump)) for c in left.elements()]
    return found


def _match(cards: Counter, needs: list[int], trump: Trump) -> int | None:
    """Arrange ``cards`` into parts of ``needs`` pairs each (largest first); return the best top of the first."""
    if not needs:
        return -1
    need, rest = needs[0], needs[1:]
    options: list[Part]
    pool = list(cards.elements())
    if need >= 2:
        options = tractors(pool, trump, need)
    elif need == 1:
        options = [Part(1, (c, c), position(c, trump)) for c, n in cards.items() if n >= 2]
    else:
        options = [Part(0, (c,), position(c, trump)) for c in cards]
    for part in sorted(options, key=lambda p: -p.top):
        left = cards.copy()
        left.subtract(part.cards)
        if _match(+left, rest, trump) is not None:
            return part.top
    return None


def match_shape(play: list[str], led: list[str], trump: Trump) -> int | None:
    """If ``play`` is of one suit and has the lead's parts, the top of its main part, else None."""
    if len(play) != len(led) or shape(play, trump) is None:
        return None
    needs = sorted((p.pairs for p in parts(led, trump)), reverse=True)
    return _match(Counter(play), needs, trump)


# -- following (004 五) ------------------------------------------------------------------------


def follow_refusal(hand: list[str], led: list[str], play: list[str], trump: Trump) -> str | None:
    """Why ``play`` may not follow ``led`` from ``hand`` (004:19-24), or None when it may.

    The count always equals the lead's; the led suit is followed as far as the hand holds it;
    a pair is followed by a pair of that suit if held; a tractor by a tractor of that length
    if held, else by as many pairs as held (up to the tractor's); a throw only by the suit.
    """
    n = len(play)
    if n != len(led):
        return gettext_noop("Play as many cards as were led.")
    if Counter(play) - Counter(hand):
        return gettext_noop("You do not hold those cards.")
    suit = suit_of(led[0], trump)
    held = [c for c in hand if suit_of(c, trump) == suit]
    followed = [c for c in play if suit_of(c, trump) == suit]
    if len(followed) < min(n, len(held)):
        return gettext_noop("You must follow the suit that was led.")
    if len(held) < n:
        return None
    kind = shape(led, trump)
    if kind == "pair" and _pairs_by_position(held, trump) and play[0] != play[1]:
        return gettext_noop("You must follow a pair with a pair of that suit.")
    if kind == "tractor":
        length = n // 2
        if tractors(held, trump, length):
            if not tractors(play, trump, length):
                return gettext_noop("You must follow a tractor with a tractor of that suit.")
            return None
        held_pairs = sum(len(v) for v in _pairs_by_position(held, trump).values())
        played_pairs = sum(len(v) for v in _pairs_by_position(play, trump).values())
        if played_pairs < min(length, held_pairs):
            return gettext_noop("You must follow a tractor with as many pairs of that suit as you hold.")
    return None


def legal_follow(hand: list[str], led: list[str], play: list[str], trump: Trump) -> bool:
    """Whether ``play`` is a legal follow to ``led`` from ``hand`` (see ``follow_refusal``)."""
    return follow_refusal(hand, led, play, trump) is None


def legal_follows(hand: list[str], led: list[str], trump: Trump, limit: int = 300) -> list[list[str]] | None:
    """Every legal follow (each set once, sorted), or None when there are more than ``limit`` to list."""
    n = len(led)
    suit = suit_of(led[0], trump)
    held = sorted(c for c in hand if suit_of(c, trump) == suit)
    others = sorted(c for c in hand if suit_of(c, trump) != suit)
    if len(held) >= n:
        pool, fixed, k = held, [], n
    else:
        pool, fixed, k = others, held, n - len(held)
    if _comb(len(pool), k) > limit * 4:
        return None
    found = {tuple(sorted(fixed + list(c))) for c in combinations(pool, k)}
    plays = [list(p) for p in sorted(found) if follow_refusal(hand, led, list(p), trump) is None]
    return plays if len(plays) <= limit else None


def _comb(n: int, k: int) -> int:
    return comb(n, k) if 0 <= k <= n else 0


# -- tricks ------------------------------------------------------------------------------------


def play_key(play: list[str], led: list[str], trump: Trump) -> tuple[int, int] | None:
    """How a play ranks in a trick led by ``led``: (trumped, top), or None when it cannot win."""
    top = match_shape(play, led, trump)
    if top is None:
        return None
    suit, led_suit = suit_of(play[0], trump), suit_of(led[0], trump)
    if suit == led_suit:
        return (0, top)
    return (1, top) if suit == TRUMP else None


def trick_winner(plays: list[list[str]], trump: Trump) -> int:
    """The index in ``plays`` (play order) of the play that takes the trick.

    The lead wins unless a later play of the same shape ranks higher: of the led suit and
    higher, or of trumps over a plain lead (two single trumps never beat a pair; only a
    trump tractor of the same length beats a tractor). Equal plays: the first one wins.
    """
    led = plays[0]
    best, best_key = 0, play_key(led, led, trump)
    assert best_key is not None, "a lead must be of one suit"
    for i, play in enumerate(plays[1:], 1):
        key = play_key(play, led, trump)
        if key is not None and key > best_key:
            best, best_key = i, key
    return best


def throw_check(throw: list[str], other_hands: list[list[str]], trump: Trump) -> list[str] | None:
    """甩牌 (004:23): None when no other hand beats a part of the throw, else the part that is played.

    A part fails when another hand holds, in that suit, a higher part of the same shape. The
    smallest failing part is forced out as the lead (and the thrower pays the penalty).
    """
    suit = suit_of(throw[0], trump)
    failed: list[Part] = []
    for part in parts(throw, trump):
        for hand in other_hands:
            same = [c for c in hand if suit_of(c, trump) == suit]
            if part.pairs >= 2:
                rivals = [p.top for p in tractors(same, trump, part.pairs)]
            elif part.pairs == 1:
                rivals = list(_pairs_by_position(same, trump))
            else:
                rivals = [position(c, trump) for c in same]
            if any(top > part.top for top in rivals):
                failed.append(part)
                break
    if not failed:
        return None
    smallest = min(failed, key=lambda p: (p.top, p.pairs))
    return list(smallest.cards)


# -- points and levels (004 六-九) -------------------------------------------------------------


def bottom_multiplier(last_lead: list[str], trump: Trump) -> int:
    """扣底 (004:28): ×2 for a single, ×4 for a pair, ×4×pairs for a tractor; a throw by its biggest part."""
    biggest = max(p.pairs for p in parts(last_lead, trump))
    if biggest == 0:
        return 2
    return 4 if biggest == 1 else 4 * biggest


def defender_points(
    taken: int, bottom: list[str], last_lead: list[str], defenders_took_last: bool, trump: Trump
) -> int:
    """总分 (004:26-28): the points the defenders took, plus the 底牌's points × 扣底 multiple when
    they took the last trick."""
    if not defenders_took_last:
        return taken
    return taken + points(bottom) * bottom_multiplier(last_lead, trump)


# 004:30, from the defenders' total: (lowest total, side that rises, levels). 换庄 rises 0.
LEVEL_TABLE = (
    (320, "defenders", 6),
    (280, "defenders", 5),
    (240, "defenders", 4),
    (200, "defenders", 3),
    (160, "defenders", 2),
    (120, "defenders", 1),
    (80, "defenders", 0),
    (40, "declarers", 1),
    (5, "declarers", 2),
    (0, "declarers", 3),
)


def level_change(total: int) -> tuple[str, int]:
    """升级 (004:30): which side plays as declarers next and how many levels it rises.

    0 大光: declarers +3; 5–35 小光: +2; 40–75: +1; 80–115: 换庄 (the defenders take over,
    no level); 120 and more: the defenders take over and rise 1, 160: 2 … 320 封顶: 6.
    """
    for lowest, side, levels in LEVEL_TABLE:
        if total >= lowest:
            return side, levels
    raise ValueError("a total is never negative")


def raise_level(level: str, steps: int) -> str:
    """A side's level after rising ``steps``: past A it starts again at 2 (004:30)."""
    return RANKS[(RANKS.index(level) + steps) % len(RANKS)]


def next_declarer(declarer: int, side: str) -> int:
    """轮庄 (004:32-33): the declarer's partner if the declarers rose, else the declarer's next seat."""
    return (declarer + 2) % 4 if side == "declarers" else (declarer + 1) % 4
