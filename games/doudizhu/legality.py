"""斗地主 legality in one place: ``plays``, the one generator of the plays a set of cards makes.

``plays(cards, previous)`` lists every play that ``cards`` make and that may
follow ``previous`` (None: a lead), each as its kind, its rank and its cards.
Everything that decides a play asks it:

- a hand's legal plays are what it lists for the hand (``moves.legal_actions``);
- a submitted set is judged by running it on that set alone, for plays of the
  set's full size: the set is a legal play exactly when one comes out, read as
  ``best_reading`` says (``readings``, ``classify``, ``moves.check_play``);
- 提示 (hint) and 托管 rank what it lists for the hand (``assist``).

A set may read as more than one play: ``33334444`` is 四带两对 (four with two
pairs) and also 飞机带翅膀 (333444 with wings 3 and 4). A set that reads as a
bomb or the rocket reads as nothing else. docs/rules/doudizhu.md explains each
choice and cites the seeds.

Three small caches keep it quick without a second path: a hand's cards counted
by rank (``_grouped``; a hand comes back unchanged while its seat passes), the
reading of a submitted set on a table (``_judged``), and the Combos themselves
(``rules.combo``). Each remembers what the same code computed.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, compress

from games.doudizhu.rules import (
    KINDS,
    LEAD_ORDER,
    PRIORITY,
    RANK_2,
    RANK_A,
    RANK_DJ,
    RANK_OF,
    RANK_XJ,
    RANKS,
    SIZES,
    Combo,
    combo,
    parse,
    sort_cards,
)

# What a hand must hold to make a play of each kind, at the least: (most, ranks, least) is
# ``most`` cards of one rank and ``least`` cards on each of ``ranks`` ranks. A hand without
# that makes none, and is not searched for one.
_NEEDS = {
    "rocket": (1, 2, 1),
    "bomb": (4, 1, 4),
    "single": (1, 1, 1),
    "pair": (2, 1, 2),
    "trio": (3, 1, 3),
    "trio_single": (3, 2, 1),
    "trio_pair": (3, 2, 2),
    "straight": (1, 5, 1),
    "pair_straight": (2, 3, 2),
    "plane": (3, 2, 3),
    "four_two_pairs": (4, 2, 2),
    "four_two_singles": (4, 2, 1),
    "plane_pairs": (3, 2, 3),
    "plane_singles": (3, 2, 3),
}
_SET_WIDTH = {"single": 1, "pair": 2, "trio": 3, "bomb": 4}
# Kickers: one card (a single) or two of a rank (a pair) per unit.
_KICKER = {"trio_single": 1, "trio_pair": 2, "four_two_singles": 1, "four_two_pairs": 2}
_KICKER.update(plane_singles=1, plane_pairs=2)
# Chains: cards per rank and the fewest ranks (003:137-139). Chains never hold a 2 or a joker.
_CHAIN = {"straight": (1, 5), "pair_straight": (2, 3), "plane": (3, 2)}
_CHAIN_RANKS = range(RANK_A + 1)


Play = tuple[str, int, list[str]]  # (kind, rank, cards high to low)


def plays(
    cards, previous: Combo | None = None, size: int | None = None, *, every_reading=False
) -> list[Play]:
    """Return every play ``cards`` make that may follow ``previous`` (None: every lead).

    Each play is ``(kind, rank, cards)``: its cards are the lowest suits of each of its ranks
    (``cards`` lists each rank's lowest suits last, as a hand kept high to low does), high to
    low. ``size``: only plays of that many cards. The kinds come in ``LEAD_ORDER`` when leading;
    following, the table's kind, then every bomb that beats it, then the rocket. Within a kind
    the body rank goes upward, then the kickers.

    A set that reads several ways is listed once, under the reading it is played as: the first
    kind in ``KINDS``, then the higher body (following, they are all of the table's kind). With
    ``every_reading`` it comes once per reading.
    """
    groups, counts, held, profile = _grouped(tuple(cards))
    rocket = counts[RANK_XJ] + counts[RANK_DJ] == 2
    found: list[Play] = []
    rereadable = None  # where the plays of the kinds that may read one set twice start
    for kind, above, need, most, ranks, least, make in _answers(previous, size, profile[0], rocket):
        if profile[0] >= most and profile[ranks - 1] >= least:
            if rereadable is None and kind in _REREAD:
                rereadable = len(found)
            found += make(groups, counts, held, kind, above, need)
    if rereadable is not None and not every_reading and len(found) - rereadable > 1:
        found[rereadable:] = _one_reading_each(found[rereadable:])
    return found


@lru_cache(maxsize=64)
def _grouped(cards: tuple[str, ...]) -> tuple[list[list[str]], list[int], list[int], list[int]]:
    """The cards of each rank, how many, the ranks held (upward), and the counts held most first.

    Remembered for a few hands: a hand comes back, unchanged, while its seat passes.
    """
    groups: list[list[str]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], []]
    for card in cards:
        groups[RANK_OF[card]].append(card)
    counts = list(map(len, groups))
    return groups, counts, list(compress(RANKS, counts)), sorted(counts, reverse=True)


def _answers(previous: Combo | None, size: int | None, most: int, rocket: bool) -> tuple | list:
    """The kinds that may follow ``previous`` with ``size`` cards (None: any size).

    Each as ``(kind, above, size, most, ranks, least, maker)``: the rank to beat, the size it
    must have (None: any), what a hand needs to make one (``_NEEDS``) and its maker. Only the
    kinds a hand holding at most ``most`` cards of a rank, and both jokers or not (``rocket``),
    may make.
    """
    if previous is None:
        leads = _LEADS if size is None else _LEADS_OF_SIZE.get(size, {})
        return leads.get((most, rocket), ())
    kind = previous.kind
    answers = []
    if kind == "bomb":
        if most == 4:
            answers.append(("bomb", previous.rank, 4, *_ROWS["bomb"]))
    elif kind != "rocket":
        answers.append((kind, previous.rank, previous.size, *_ROWS[kind]))
        if most == 4:
            answers.append(_ANY_BOMB)
    if rocket and kind != "rocket":
        answers.append(_ROCKET)
    return answers if size is None else [answer for answer in answers if answer[2] == size]


# The kinds that may read one set twice (and only each other's sets): a plane of four trios is
# also three with wings, 33334444 is 四带两对 twice over and a plane with wings. They come last
# among the kinds that are no bombs, in ``LEAD_ORDER``.
_REREAD = frozenset(("plane", "four_two_pairs", "four_two_singles", "plane_pairs", "plane_singles"))


def _one_reading_each(found: list[Play]) -> list[Play]:
    """Keep each set once, under its first kind and, within that kind, its higher (later) body."""
    chosen: dict[tuple[str, ...], int] = {}
    for i, (kind, _rank, cards) in enumerate(found):
        key = tuple(cards)
        if key not in chosen or found[chosen[key]][0] == kind:
            chosen[key] = i
    return [play for i, play in enumerate(found) if chosen[tuple(play[2])] == i]


# Each maker lists the plays of one kind above rank ``above`` (of ``size`` cards, if not None),
# from the cards of each rank (``groups``), how many (``counts``) and the ranks held, upward.


def _sets(groups, counts, held, kind, above, size) -> list[Play]:
    """单牌 / 对牌 / 三张 / 炸弹: one, two, three or four cards of a rank."""
    width = _SET_WIDTH[kind]
    return [(kind, r, groups[r][-width:]) for r in held if r > above and counts[r] >= width]


def _rocket(groups, counts, held, kind, above, size) -> list[Play]:
    """火箭: both jokers."""
    if counts[RANK_XJ] and counts[RANK_DJ]:
        return [(kind, RANK_DJ, groups[RANK_DJ] + groups[RANK_XJ])]
    return []


def _trios_with(groups, counts, held, kind, above, size) -> list[Play]:
    """三带一 / 三带二: a trio and a single or a pair of another rank."""
    width = _KICKER[kind]
    found: list[Play] = []
    for t in held:
        if above < t <= RANK_2 and counts[t] >= 3:
            trio = groups[t][-3:]
            found += [
                (kind, t, groups[x][-width:] + trio if x > t else trio + groups[x][-width:])
                for x in held
                if x != t and counts[x] >= width
            ]
    return found


def _chains(groups, counts, held, kind, above, size) -> list[Play]:
    """单顺 / 双顺 / 三顺: ``width`` cards on each of consecutive ranks 3..A, shortest first."""
    width, fewest = _CHAIN[kind]
    longest = 12
    if size is not None:
        fewest = longest = size // width
    found: list[Play] = []
    links = 0  # how many ranks up to this one hold ``width`` cards, without a gap
    last = -2
    for top in held:
        if top > RANK_A:
            break
        if counts[top] >= width:
            links = links + 1 if top == last + 1 else 1
            last = top
            if links >= fewest and top > above:
                # The chains ending at ``top``, shortest first: the first links of the longest.
                run = [card for r in range(top, top - min(links, longest), -1) for card in groups[r][-width:]]
                found += [(kind, top, run[: n * width]) for n in range(fewest, min(links, longest) + 1)]
    return found


def _fours_with(groups, counts, held, kind, above, size) -> list[Play]:
    """四带二: four of a rank and two single or two pair kickers of other ranks (never the rocket)."""
    width = _KICKER[kind]
    found: list[Play] = []
    for q in held:
        if q <= above or counts[q] != 4:
            continue
        quad = groups[q][-4:]
        ranks = [x for x in held if x != q and counts[x] >= width]
        for i, low in enumerate(ranks):
            if counts[low] >= 2 * width:  # both kickers of one rank
                both = groups[low][-2 * width :]
                found.append((kind, q, quad + both if q > low else both + quad))
            for high in ranks[i + 1 :]:
                if low == RANK_XJ and high == RANK_DJ:
                    continue  # the rocket is never two kickers
                a, b = groups[high][-width:], groups[low][-width:]
                # The cards high to low: the quad goes above, between or below its kickers.
                cards = quad + a + b if q > high else a + quad + b if q > low else a + b + quad
                found.append((kind, q, cards))
    return found


def _planes_with(groups, counts, held, kind, above, size) -> list[Play]:
    """飞机带翅膀: consecutive trios and as many single or pair kickers, from any cards left (never the rocket)."""
    width = _KICKER[kind]
    per = 3 + width
    fewest, longest = (2, 20 // per) if size is None else (size // per, size // per)
    found: list[Play] = []
    links = 0
    for top in _CHAIN_RANKS:
        links = links + 1 if counts[top] >= 3 else 0
        if links < fewest or top <= above:
            continue
        for n in range(fewest, min(links, longest) + 1):
            body = list(range(top - n + 1, top + 1))
            left = counts.copy()
            for r in body:
                left[r] -= 3
            # Each rank as many times as it can give a kicker (n at most); every choice of n once.
            units = [x for x in held for _ in range(min(left[x] // width, n))]
            for wings in sorted(set(combinations(units, n))):
                if wings[-1] == RANK_DJ and RANK_XJ in wings:
                    continue  # the rocket is never two wings
                found.append((kind, top, _cut(groups, body * 3 + list(wings) * width)))
    return found


def _cut(groups: list[list[str]], ranks: list[int]) -> list[str]:
    """The lowest suits of ``ranks`` (one rank per card), high to low."""
    ranks = sorted(ranks, reverse=True)
    return [card for r in dict.fromkeys(ranks) for card in groups[r][-ranks.count(r) :]]


_MAKERS = {
    "rocket": _rocket,
    "bomb": _sets,
    "single": _sets,
    "pair": _sets,
    "trio": _sets,
    "trio_single": _trios_with,
    "trio_pair": _trios_with,
    "straight": _chains,
    "pair_straight": _chains,
    "plane": _chains,
    "four_two_pairs": _fours_with,
    "four_two_singles": _fours_with,
    "plane_pairs": _planes_with,
    "plane_singles": _planes_with,
}


_ROWS = {kind: (*_NEEDS[kind], _MAKERS[kind]) for kind in KINDS}


def _lead_answers(most: int, rocket: bool, size: int | None) -> tuple:
    """The kinds a hand holding at most ``most`` cards of a rank (and both jokers or not) may lead."""
    return tuple(
        (kind, -1, size, *_ROWS[kind])
        for kind in LEAD_ORDER
        if _NEEDS[kind][0] <= most and (kind != "rocket" or rocket) and (size is None or size in SIZES[kind])
    )


# Leads by what the hand holds: the most cards of a rank, and whether both jokers.
_HOLDINGS = [(most, rocket) for most in range(5) for rocket in (False, True)]
_LEADS = {held: _lead_answers(*held, None) for held in _HOLDINGS}
_LEADS_OF_SIZE = {size: {held: _lead_answers(*held, size) for held in _HOLDINGS} for size in range(1, 21)}
_ANY_BOMB = ("bomb", -1, 4, *_ROWS["bomb"])
_ROCKET = ("rocket", -1, 2, *_ROWS["rocket"])


# -- judging a set: the same generator, run on the set alone ----------------------------------------


def readings(cards) -> tuple[Combo, ...]:
    """Return every way ``cards`` read as a play, preferred first (empty: not a play).

    Preferred: the first kind in ``KINDS``, then the higher body. Raises ValueError on an unknown card.
    """
    parse(cards)  # refuse unknown cards with a clear message
    found = plays(cards, None, len(cards), every_reading=True)
    ranked = sorted({(PRIORITY[kind], -rank, kind, rank) for kind, rank, _cards in found})
    return tuple(combo(kind, rank, len(cards)) for _priority, _rank, kind, rank in ranked)


def classify(cards) -> Combo | None:
    """Return the preferred reading of ``cards``, or None if they are no legal play; ValueError on an unknown card."""
    parse(cards)
    return best_reading(cards, None)


def best_reading(cards, previous: Combo | None) -> Combo | None:
    """Return the reading ``cards`` are played as on ``previous`` (None: leading), or None: no legal play.

    ``plays`` run on the set alone, for plays of all its cards: it lists the set once, or not at
    all. ``cards`` must be known cards, each once.
    """
    return _judged(tuple(cards), previous)


@lru_cache(maxsize=8192)
def _judged(cards: tuple[str, ...], previous: Combo | None) -> Combo | None:
    """``best_reading``, remembered: the same few sets meet the same few tables again and again."""
    found = plays(cards, previous, len(cards))
    if not found:
        return None
    kind, rank, _cards = found[0]
    return combo(kind, rank, len(cards))


def cards_for(hand: list[str], play: list[int] | tuple[int, ...]) -> list[str]:
    """Pick the lowest suits of ``hand`` for the rank counts ``play``, high to low."""
    groups: list[list[str]] = [[] for _ in RANKS]
    for card in sort_cards(hand):
        groups[RANK_OF[card]].append(card)
    if any(len(groups[r]) < play[r] for r in RANKS):
        raise ValueError("the hand does not hold that play")
    return _cut(groups, [r for r in RANKS for _ in range(play[r])])
