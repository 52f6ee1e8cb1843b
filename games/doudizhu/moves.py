"""斗地主 move generation: every play a hand may make, computed from rank counts.

A play is a rank-count vector (see ``rules``). Here each play is also packed
into one integer, its *key*, whose order is the order plays are listed in:

    key = ((bomb_order * 16 + body_rank) * 16 + kind_priority) * CODE_SPAN + code

where ``code`` is the play's counts read as a base-5 number with the highest
rank as the most significant digit. Sorting keys therefore sorts plays by
(non-bombs, bombs, rocket), then body rank, then kind, then lowest kickers —
one integer comparison instead of a tuple key — and the code alone identifies
the set of ranks, so a set reachable several ways is listed once.

A play that reads several ways is listed under the first kind that reads it
(in ``rules.KINDS`` order, bombs last) and, within that kind, its lowest body
rank: the generators below run kind by kind and rank upward and keep the first
key seen for each code.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from games.doudizhu.rules import KINDS, N_RANKS, RANK_2, RANK_DJ, RANK_OF, RANK_XJ, Combo

CODE_SPAN = 5**N_RANKS
_POW = [5**r for r in range(N_RANKS + 1)]
_PRIORITY = {kind: i for i, kind in enumerate(KINDS)}
_LAST_CHAIN_RANK = 11  # A: 2 and the jokers never join a chain
_CHAIN_WIDTH = {"straight": 1, "pair_straight": 2, "plane": 3}
_SHORTEST = {1: 5, 2: 3, 3: 2}
# How many links a chain kind has, from the play's size.
_LINKS_PER_CARD = {"straight": 1, "pair_straight": 2, "plane": 3, "plane_singles": 4, "plane_pairs": 5}


def _heads(order: int, kind: str) -> list[int]:
    """The key of an empty play of ``kind`` at each body rank (add the code to get a key)."""
    prio = _PRIORITY[kind]
    return [((order * 16 + rank) * 16 + prio) * CODE_SPAN for rank in range(N_RANKS)]


_HEAD = {kind: _heads(0, kind) for kind in KINDS}
_BOMB_HEAD = _heads(1, "bomb")
_ROCKET_CODE = _POW[RANK_XJ] + _POW[RANK_DJ]
_ROCKET_KEY = _heads(2, "rocket")[RANK_DJ] + _ROCKET_CODE


def _chain_code(start: int, end: int, width: int) -> int:
    """The code of ``width`` cards on each rank from ``start`` to ``end`` (a geometric sum in base 5)."""
    return width * (_POW[end + 1] - _POW[start]) // 4


_UNIT_KEYS = {
    kind: [head + width * _POW[r] for r, head in enumerate(heads)]
    for kind, width, heads in (
        ("single", 1, _HEAD["single"]),
        ("pair", 2, _HEAD["pair"]),
        ("trio", 3, _HEAD["trio"]),
        ("bomb", 4, _BOMB_HEAD),
    )
}
_UNIT_WIDTH = {"single": 1, "pair": 2, "trio": 3}
_KICKER_CODES = {width: [width * p for p in _POW] for width in (1, 2)}
# The kicker units a rank gives a plane's wings, as a tuple: by width, rank and their number (0..4).
_KICKER_UNITS = {
    width: [tuple((code,) * k for k in range(5)) for code in codes] for width, codes in _KICKER_CODES.items()
}


# -- generators: each appends the keys of one kind's plays above ``above`` to ``out``, rank upward ----


def _trio_with(c, width: int, kind: str, above: int, out: list) -> None:
    """三带一 / 三带二: a trio and one kicker of ``width`` cards of another rank."""
    head = _HEAD[kind]
    kick = _KICKER_CODES[width]
    kickers = [x for x in range(N_RANKS) if c[x] >= width]
    for t in range(above + 1, RANK_2 + 1):
        if c[t] >= 3:
            base = head[t] + 3 * _POW[t]
            out += [base + kick[x] for x in kickers if x != t]


def _chains(c, width: int, kind: str, above: int, links: int | None, out: list) -> None:
    """顺子 / 连对 / 飞机: ``width`` cards on each of consecutive ranks 3..A."""
    head = _HEAD[kind]
    low, high = (links, links) if links else (_SHORTEST[width], 12)
    run = 0
    for r in range(_LAST_CHAIN_RANK + 1):
        if c[r] < width:
            run = 0
            continue
        run += 1
        if r <= above or run < low:
            continue
        for n in range(low, min(run, high) + 1):
            out.append(head[r] + _chain_code(r - n + 1, r, width))


def _four_with(c, width: int, kind: str, above: int, out: list) -> None:
    """四带二: four of a rank and two kickers of ``width`` cards (never the quad's own rank)."""
    head = _HEAD[kind]
    kick = _KICKER_CODES[width]
    for q in range(above + 1, RANK_2 + 1):
        if c[q] < 4:
            continue
        base = head[q] + 4 * _POW[q]
        ranks = [r for r in range(N_RANKS) if r != q and c[r] >= width]
        for i, a in enumerate(ranks):
            if c[a] >= 2 * width:  # both kickers of one rank
                out.append(base + 2 * kick[a])
            for b in ranks[i + 1 :]:
                if width == 1 and b == RANK_DJ and a == RANK_XJ:
                    continue  # the two jokers together are the rocket, never kickers
                out.append(base + kick[a] + kick[b])


def _plane_with(c, width: int, kind: str, above: int, links: int | None, out: list) -> None:
    """飞机带翅膀: consecutive trios and as many kickers of ``width`` cards, from what is left."""
    head = _HEAD[kind]
    per_rank = _KICKER_UNITS[width]
    low, high = (links, links) if links else (2, 20 // (3 + width))
    run = 0
    for r in range(_LAST_CHAIN_RANK + 1):
        if c[r] < 3:
            run = 0
            continue
        run += 1
        if r <= above or run < low:
            continue
        for n in range(low, min(run, high) + 1):
            start = r - n + 1
            left = list(c)
            for i in range(start, r + 1):
                left[i] -= 3
            # Each kicker unit as its code, a rank giving as many units as it holds; a multiset of
            # ranks comes out of ``combinations`` more than once, and is kept once (the order
            # within one body does not matter: callers sort the keys). The units come from
            # tables and two wings are added in a set comprehension: a ``range`` per rank and
            # ``sum`` per pair cost three times as much.
            units: list[int] = []
            for x in range(N_RANKS):
                if left[x] >= width:
                    units += per_rank[x][left[x] // width]
            base = head[r] + _chain_code(start, r, 3)
            if n == 2:
                wings = {a + b for a, b in combinations(units, 2)}
            else:
                wings = set(map(sum, combinations(units, n)))
            if width == 1 and left[RANK_XJ] and left[RANK_DJ]:
                # The two jokers together are the rocket, never wings. A wings code is a
                # base-5 number (at most 4 of a rank), so 大王 is in it when it reaches
                # 5**RANK_DJ, and 小王 when its digit RANK_XJ is not 0.
                out += [base + w for w in wings if w < _POW[RANK_DJ] or not w // _POW[RANK_XJ] % 5]
            else:
                out += [base + w for w in wings]


def _bombs_and_rocket(c, above: int, out: list) -> None:
    if 4 in c:
        bombs = _UNIT_KEYS["bomb"]
        out += [bombs[r] for r in range(above + 1, RANK_2 + 1) if c[r] == 4]
    if c[RANK_XJ] and c[RANK_DJ]:
        out.append(_ROCKET_KEY)


def _first_reading(keys: list[int]) -> list[int]:
    """Keep the first key of each play (its code), dropping later readings of the same cards."""
    seen = set()
    out = []
    for key in keys:
        code = key % CODE_SPAN
        if code not in seen:
            seen.add(code)
            out.append(key)
    return out


def _leads(c) -> list[int]:
    """Every lead, kind by kind in ``KINDS`` order (bombs and the rocket last), first readings only."""
    most = max(c)
    singles = _UNIT_KEYS["single"]
    out = [singles[r] for r in range(N_RANKS) if c[r]]
    if most == 1:
        _chains(c, 1, "straight", -1, None, out)
    elif most == 2:
        pairs = _UNIT_KEYS["pair"]
        out += [pairs[r] for r in range(RANK_2 + 1) if c[r] >= 2]
        _chains(c, 1, "straight", -1, None, out)
        _chains(c, 2, "pair_straight", -1, None, out)
    elif most >= 3:
        pairs, trios = _UNIT_KEYS["pair"], _UNIT_KEYS["trio"]
        out += [pairs[r] for r in range(RANK_2 + 1) if c[r] >= 2]
        out += [trios[r] for r in range(RANK_2 + 1) if c[r] >= 3]
        _trio_with(c, 1, "trio_single", -1, out)
        _trio_with(c, 2, "trio_pair", -1, out)
        _chains(c, 1, "straight", -1, None, out)
        _chains(c, 2, "pair_straight", -1, None, out)
        # Only these kinds can read the same cards twice (a plane of four trios is also three
        # with wings, 33334444 is four with pairs and a plane with wings, twice over ...).
        plain = len(out)
        _chains(c, 3, "plane", -1, None, out)
        if most == 4:
            _four_with(c, 2, "four_two_pairs", -1, out)
            _four_with(c, 1, "four_two_singles", -1, out)
        _plane_with(c, 2, "plane_pairs", -1, None, out)
        _plane_with(c, 1, "plane_singles", -1, None, out)
        if len(out) > plain:
            out[plain:] = _first_reading(out[plain:])
    _bombs_and_rocket(c, -1, out)
    return out


def _follows(c, previous: Combo) -> list[int]:
    """The plays of ``previous``'s kind and size that beat it, then every bomb and the rocket."""
    kind, above = previous.kind, previous.rank
    width = _UNIT_WIDTH.get(kind)
    if width:
        units = _UNIT_KEYS[kind]
        out = [units[r] for r in range(above + 1, N_RANKS) if c[r] >= width]
    else:
        out = []
        if kind in ("trio_single", "trio_pair"):
            _trio_with(c, 1 if kind == "trio_single" else 2, kind, above, out)
        elif kind in _CHAIN_WIDTH:
            width = _CHAIN_WIDTH[kind]
            _chains(c, width, kind, above, previous.size // width, out)
        elif kind in ("four_two_singles", "four_two_pairs"):
            _four_with(c, 1 if kind == "four_two_singles" else 2, kind, above, out)
            out = sorted(_first_reading(out))
        elif kind in ("plane_singles", "plane_pairs"):
            width = 1 if kind == "plane_singles" else 2
            _plane_with(c, width, kind, above, previous.size // (3 + width), out)
            out = sorted(_first_reading(out))
        else:
            raise ValueError(f"unknown kind {kind!r}")
    _bombs_and_rocket(c, -1, out)
    return out


@lru_cache(maxsize=32768)
def play_keys(counts: tuple[int, ...], previous: Combo | None) -> tuple[int, ...]:
    """Return the sorted keys of every distinct play from ``counts`` that may follow ``previous``.

    Follows of one kind come out sorted already (rank upward, then kickers upward), bombs and
    the rocket after them; leads mix kinds and are sorted.
    """
    if previous is None:
        out = _leads(counts)
        out.sort()
        return tuple(out)
    if previous.kind == "rocket":
        return ()
    if previous.kind == "bomb":
        out = []
        _bombs_and_rocket(counts, previous.rank, out)
        return tuple(out)
    return tuple(_follows(counts, previous))


# -- from keys to plays and cards -----------------------------------------------------------------

_DECODED: dict[int, tuple[tuple[tuple[int, int], ...], tuple[int, ...], Combo]] = {}
_DECODED_LIMIT = 1 << 16  # decoded keys remembered (the memo is cleared when full)


def decode(key: int) -> tuple[tuple[tuple[int, int], ...], tuple[int, ...], Combo]:
    """Return (rank parts high to low, rank counts, Combo) of a play key."""
    found = _DECODED.get(key)
    if found is not None:
        return found
    head, code = divmod(key, CODE_SPAN)
    kind = KINDS[head % 16]
    rank = head // 16 % 16
    counts = []
    for _r in range(N_RANKS):
        code, digit = divmod(code, 5)
        counts.append(digit)
    size = sum(counts)
    per = _LINKS_PER_CARD.get(kind)
    combo = Combo(kind, rank, size, size // per if per else 1)
    parts = tuple((r, counts[r]) for r in range(N_RANKS - 1, -1, -1) if counts[r])
    if len(_DECODED) >= _DECODED_LIMIT:
        _DECODED.clear()
    found = _DECODED[key] = (parts, tuple(counts), combo)
    return found


@lru_cache(maxsize=16384)
def plays_from(counts: tuple[int, ...], previous: Combo | None) -> tuple[tuple[tuple[int, ...], Combo], ...]:
    """Return every distinct play (rank counts, Combo) from a hand that may follow ``previous``.

    With ``previous`` None these are all leads. Plays are distinct by ranks;
    a set reachable several ways is listed once under its first reading.
    Sorted so that the gentlest play comes first: non-bombs by body rank, then
    bombs, then the rocket.
    """
    out = []
    for key in play_keys(counts, previous):
        _parts, play, combo = decode(key)
        out.append((play, combo))
    return tuple(out)


# A hand in a state is kept high to low, so the cards of one rank sit together and end at
# ``ends[rank]`` (the number of cards of that rank or higher): the lowest k suits of rank r are
# ``hand[ends[r] - k : ends[r]]``. A hand's *shape* is its rank letters in that order (every
# card name is two letters, the first naming its rank), and everything below is derived from
# the shape alone; a follow's layout is remembered for recent hands (a hand stays as it is
# while its seat passes). A lead is listed in one walk up the hand's ranks, without counting
# it first (``_walk_leads``), unless it holds a quad or a plane.
RANK_LETTERS = "3456789TJQKA2XD"
assert all(card[0] == RANK_LETTERS[rank] and len(card) == 2 for card, rank in RANK_OF.items())
_TRIO_WITH = {"trio_single": 1, "trio_pair": 2}

# Shared, read-only actions (see ``Engine.legal_actions`` in games/base.py): pass, and the plays
# of one rank's cards as listed (one card, or the lowest suits of a rank, high to low), looked up
# by their cards instead of built afresh at every listing. Nothing may change them.
PASS_ACTION = {"type": "pass"}
_SAME_RANK = {rank: [card for card in sorted(RANK_OF) if RANK_OF[card] == rank] for rank in range(N_RANKS)}
_SINGLE = {card: {"type": "play", "cards": [card]} for card in RANK_OF}
_PAIR = {a: {b: {"type": "play", "cards": [a, b]} for b in _SAME_RANK[RANK_OF[a]] if b != a} for a in RANK_OF}
_TRIO = {
    a: {
        b: {c: {"type": "play", "cards": [a, b, c]} for c in _SAME_RANK[RANK_OF[a]] if c not in (a, b)}
        for b in _SAME_RANK[RANK_OF[a]]
        if b != a
    }
    for a in RANK_OF
}
_TRIO_KICKERS: dict[tuple[str, str, str], tuple[dict, dict]] = {}


def _trio_kickers(t0: str, t1: str, t2: str) -> tuple[dict, dict]:
    """The trio ``t0 t1 t2`` with each kicker, shared: (by the kicker card, by a pair's two cards).

    A kicker ranking below the trio goes after its cards, one above before them (cards high to
    low). Built for a trio when it is first met: 52 trios as hands kept high to low list them,
    each with 51 single and 144 pair kickers (a pair in either suit order), about 10k actions
    once all are met.
    """
    found = _TRIO_KICKERS.get((t0, t1, t2))
    if found is None:
        t = RANK_OF[t0]
        singles = {}
        pairs: dict[str, dict] = {}
        for k in RANK_OF:
            x = RANK_OF[k]
            if x != t:
                singles[k] = {"type": "play", "cards": [k, t0, t1, t2] if x > t else [t0, t1, t2, k]}
                if x < RANK_XJ:
                    for low in _SAME_RANK[x]:
                        if low != k:
                            cards = [k, low, t0, t1, t2] if x > t else [t0, t1, t2, k, low]
                            pairs.setdefault(k, {})[low] = {"type": "play", "cards": cards}
        found = _TRIO_KICKERS[(t0, t1, t2)] = (singles, pairs)
    return found


def _trio_follows(hand: list[str], c, ends: tuple[int, ...], width: int, above: int) -> list[dict]:
    """三带一 / 三带二 above ``above``: trio rank upward, then kicker rank upward (as ``_trio_with``)."""
    actions = []
    kickers = None  # found at the first trio: most hands answering a trio hold none above it
    for t in _RANKS_ABOVE[above + 1][: RANK_2 - above]:
        if c[t] >= 3:
            if kickers is None:
                kickers = [x for x in _RANKS if c[x] >= width]
            et = ends[t]
            singles, pairs = _trio_kickers(hand[et - 3], hand[et - 2], hand[et - 1])
            for x in kickers:
                if x != t:
                    ex = ends[x]
                    if width == 1:
                        actions.append(singles[hand[ex - 1]])
                    else:
                        actions.append(pairs[hand[ex - 2]][hand[ex - 1]])
    return actions


def _chain_follows(
    hand: list[str], c, ends: tuple[int, ...], width: int, links: int, above: int
) -> list[dict]:
    """Chains of ``links`` ranks of ``width`` cards ending above ``above``, rank upward (as ``_chains``)."""
    actions = []
    run: list[str] = []
    size = width * links
    for r in range(_LAST_CHAIN_RANK + 1):
        if c[r] < width:
            run = []
            continue
        e = ends[r]
        run = hand[e - width : e] + run
        if r > above and len(run) >= size:
            actions.append({"type": "play", "cards": run[:size]})
    return actions


_LAYOUTS: dict[str, tuple] = {}
# Rank letter -> rank, as a bytes translation: a shape's letters become its ranks in one C call
# ("@", never a card's letter, becomes 255: the end mark of ``_walk_leads``).
_RANK_BYTES = bytes.maketrans(RANK_LETTERS.encode() + b"@", bytes(range(N_RANKS)) + b"\xff")
# Ranks as tuples, so the hot loops below iterate a constant instead of building a range each time.
_RANKS = tuple(range(N_RANKS))
_RANKS_ABOVE = tuple(tuple(range(r + 1, N_RANKS)) for r in range(-1, N_RANKS))  # index: rank + 1
# _SPAN[low][high]: the ranks low..high upward (empty when high < low); low may be N_RANKS.
_SPAN = tuple(tuple(tuple(range(low, high + 1)) for high in range(N_RANKS)) for low in range(N_RANKS + 1))
_ROCKET_RANKS = bytes((RANK_DJ, RANK_XJ))  # a hand's first two ranks when it holds both jokers
_PLAIN_RANKS = tuple(range(RANK_2 + 1))  # 3..2, the ranks that make bombs
_CHAIN_RANKS = tuple(range(_LAST_CHAIN_RANK + 1))  # 3..A


def layout(hand: list[str]) -> tuple:
    """Return the (remembered) layout of a hand kept high to low.

    That is ``(counts, ends, quads, rocket)``: the rank counts, where each held rank ends (see
    above; a rank not held has 0 there, and nothing reads it), the ends of the ranks 3..2 held
    four times (the bombs, rank upward) and whether both jokers are held.
    """
    shape = "".join(hand)[::2]
    found = _LAYOUTS.get(shape)
    if found is None:
        found = _new_layout(shape)
    return found


# Only recent shapes are remembered: a hand's shape comes back while its seat passes, within
# a few steps, and a shape is seldom met again in another hand. A large memo (thousands of
# shapes) was slower on the wall than counting again: its lookups missed the CPU caches and
# its long-lived tuples made the garbage collector's full passes ever longer. When full, the
# oldest shape makes room for each new one, so the memo's objects stay level in number: a
# memo cleared only when full grew by three objects per new shape until then, and that growth
# alone set off most of the collector's passes (see bench/README.md, ninth pass).
_LAYOUT_LIMIT = 64
# Follows remember layouts by the hand's cards joined, not by its shape: the hand a follow
# meets again is the very same hand (its seat passed), so the shape, a slice of the joined
# cards, is cut only when a hand is counted (two hands of one shape seldom meet).
_HAND_LAYOUTS: dict[str, tuple] = {}


def _count(shape: str) -> tuple[bytes, list[int], list[int]]:
    """One pass over a shape's ranks (high to low): the ranks as bytes, their counts and ends."""
    ranks = shape.encode().translate(_RANK_BYTES)
    counts = [0] * N_RANKS
    ends = [0] * N_RANKS
    i = 0
    for rank in ranks:
        i += 1
        counts[rank] += 1
        ends[rank] = i
    return ranks, counts, ends


def _new_layout(shape: str, cards: str | None = None) -> tuple:
    """Count the layout of ``shape`` and remember it (under the hand's ``cards`` joined, if given)."""
    _ranks, counts, ends = _count(shape)
    quads = ()
    # ``in`` on bytes is one memchr; on the list it compares each count as an object.
    if 4 in bytes(counts):
        quads = tuple([ends[r] for r in _PLAIN_RANKS if counts[r] == 4])
    memo = _LAYOUTS if cards is None else _HAND_LAYOUTS
    if len(memo) >= _LAYOUT_LIMIT:
        del memo[next(iter(memo))]  # the oldest: a dict keeps insertion order
    found = memo[shape if cards is None else cards] = (
        counts,
        ends,
        quads,
        counts[RANK_XJ] + counts[RANK_DJ] == 2,
    )
    return found


def hand_counts(hand: list[str]) -> tuple[int, ...]:
    """Return the rank counts of a hand."""
    return tuple(map("".join(hand)[::2].count, RANK_LETTERS))


def legal_plays(hand: list[str], previous: Combo | None) -> list[dict]:
    """Return the play actions of a hand kept high to low: each play's lowest suits, high to low.

    The order is ``play_keys``'s.
    """
    if previous is None:
        return leads(hand)
    return follow_plays(hand, previous.kind, previous.rank, previous.size, previous.chain)


def follow_plays(hand: list[str], kind: str, rank: int, size: int, chain: int) -> list[dict]:
    """``legal_plays`` after a play of ``kind``, ``rank``, ``size`` and ``chain`` (the table's Combo).

    Singles, pairs, trios, trios with kickers and chains to beat (nearly every follow) are cut
    from the hand directly, then every bomb and the rocket; the rest go through play keys.
    """
    return follows(hand, {"kind": kind, "rank": rank, "size": size, "chain": chain}, False)


def follows(hand: list[str], last: dict, with_pass: bool = True) -> list[dict]:
    """Every answer of a hand kept high to low to ``last`` (the table's last play), pass last.

    The plays are ``play_keys``'s, in its order, each cut as its lowest suits.
    """
    cards = "".join(hand)
    counts, ends, quads, rocket = _HAND_LAYOUTS.get(cards) or _new_layout(cards[::2], cards)
    kind = last["kind"]
    # The hot paths (three follows in four answer a single, one in seven a pair): plain
    # loops, cheaper than a comprehension for the two or three plays they usually find.
    # Only the ranks between the table's and the hand's highest (its first card) can
    # answer; half of all follows hold nothing above the table and list pass alone.
    if kind == "single":
        actions = []
        for r in _SPAN[last["rank"] + 1][RANK_OF[hand[0]] if hand else 0]:
            if counts[r]:
                actions.append(_SINGLE[hand[ends[r] - 1]])
    elif kind == "pair" or kind == "trio":
        width = 2 if kind == "pair" else 3
        actions = []
        for r in _SPAN[last["rank"] + 1][RANK_OF[hand[0]] if hand else 0]:
            if counts[r] >= width:
                e = ends[r]
                if width == 2:
                    actions.append(_PAIR[hand[e - 2]][hand[e - 1]])
                else:
                    actions.append(_TRIO[hand[e - 3]][hand[e - 2]][hand[e - 1]])
    elif kind in _TRIO_WITH:
        actions = _trio_follows(hand, counts, ends, _TRIO_WITH[kind], last["rank"])
    elif kind in _CHAIN_WIDTH:
        width = _CHAIN_WIDTH[kind]
        actions = _chain_follows(hand, counts, ends, width, last["size"] // width, last["rank"])
    else:
        actions = _keyed_follows(hand, counts, ends, last)
        if with_pass:
            actions.append(PASS_ACTION)
        return actions
    if quads:
        for e in quads:
            actions.append({"type": "play", "cards": hand[e - 4 : e]})
    if rocket:
        actions.append({"type": "play", "cards": hand[0:2]})  # 大王 and 小王 head the hand
    if with_pass:
        actions.append(PASS_ACTION)
    return actions


def _keyed_follows(hand: list[str], counts: list[int], ends: list[int], last: dict) -> list[dict]:
    """Answers to a bomb, the rocket, 四带二 or a plane with wings, through their play keys."""
    keys = play_keys(tuple(counts), Combo(last["kind"], last["rank"], last["size"], last["chain"]))
    return [{"type": "play", "cards": _cut(hand, ends, key % CODE_SPAN)} for key in keys]


# A play's code read five ranks at a time: (rank, count) of each rank it holds, high ranks
# first, for every value of one base-5 chunk seen so far (at most 3 × 3,125 small tuples,
# far fewer in practice). Cheaper than reading the 15 digits one by one, and unlike a memo
# of whole keys (thousands) it stays small enough for the CPU caches.
_CHUNK = 5**5
_CHUNK_PARTS: tuple[dict[int, tuple[tuple[int, int], ...]], ...] = ({}, {}, {})


def _chunk_parts(position: int, value: int) -> tuple[tuple[int, int], ...]:
    parts = []
    r = 5 * position
    rest = value
    while rest:
        rest, k = divmod(rest, 5)
        if k:
            parts.append((r, k))
        r += 1
    found = _CHUNK_PARTS[position][value] = tuple(parts[::-1])
    return found


_CHUNK2 = _CHUNK * _CHUNK


def _chunk_cards(hand: list[str], ends: tuple[int, ...], position: int, value: int) -> tuple[str, ...]:
    """The cards of chunk ``position`` of a play's code (its value ``value``) cut from ``hand``, high to low."""
    cards: list[str] = []
    for r, k in _CHUNK_PARTS[position].get(value) or _chunk_parts(position, value):
        e = ends[r]
        cards += hand[e - k : e]
    return tuple(cards)


def _cut(hand: list[str], ends: tuple[int, ...], code: int) -> list[str]:
    """The cards of play ``code`` (rank counts in base 5) cut from ``hand``, high to low."""
    cards: list[str] = []
    high, rest = divmod(code, _CHUNK * _CHUNK)
    middle, low = divmod(rest, _CHUNK)
    if high:
        for r, k in _CHUNK_PARTS[2].get(high) or _chunk_parts(2, high):
            e = ends[r]
            cards += hand[e - k : e]
    if middle:
        for r, k in _CHUNK_PARTS[1].get(middle) or _chunk_parts(1, middle):
            e = ends[r]
            cards += hand[e - k : e]
    if low:
        for r, k in _CHUNK_PARTS[0].get(low) or _chunk_parts(0, low):
            e = ends[r]
            cards += hand[e - k : e]
    return cards


_SINGLE_KEYS, _PAIR_KEYS, _TRIO_KEYS, _BOMB_KEYS = (_UNIT_KEYS[k] for k in ("single", "pair", "trio", "bomb"))
_TRIO_SINGLE_BASE = [_HEAD["trio_single"][t] + 3 * _POW[t] for t in range(N_RANKS)]
_TRIO_PAIR_BASE = [_HEAD["trio_pair"][t] + 3 * _POW[t] for t in range(N_RANKS)]


_CHAIN_MASK = (1 << (_LAST_CHAIN_RANK + 1)) - 1  # ranks 3..A
_CHAIN_KEYS: dict[tuple[int, int], tuple[int, ...]] = {}


def _chain_keys(width: int, mask: int) -> tuple[int, ...]:
    """The lead keys of every chain of ``width`` over the ranks in ``mask`` (ranks 3..A), remembered."""
    found = _CHAIN_KEYS.get((width, mask))
    if found is None:
        counts = [width if mask >> r & 1 else 0 for r in range(N_RANKS)]
        out: list[int] = []
        _chains(counts, width, _CHAIN_KIND[width], -1, None, out)
        found = _CHAIN_KEYS[(width, mask)] = tuple(out)  # at most 3 × 4096 entries
    return found


_CHAIN_KIND = {width: kind for kind, width in _CHAIN_WIDTH.items()}


def _ordered_leads(
    hand: list[str], c: list[int], ends: list[int], held: list[int], quads, rocket: bool, rare: dict | None
) -> list[dict]:
    """Every lead of a hand as actions, in ``play_keys(counts, None)`` order, as they are cut.

    Listing order is rank by rank upward (a play's body rank) and, at a rank, by kind: single,
    pair, trio, trios with a single then with a pair (kickers upward), the straights and pair
    straights ending there (shortest first), then the kinds that may read one set twice
    (planes, 四带二, planes with wings), given in ``rare`` by body rank, already listed in key
    order; bombs upward and the rocket come last. A chain's cards are highest rank first, so
    the chains ending at a rank are prefixes of the longest one.
    """
    actions: list[dict] = []
    add = actions.append
    run1 = run2 = 0  # how many ranks up to this one hold a single / a pair, without a gap
    last = -2
    for r in held:
        if r == last + 1:
            run1 += 1
        else:
            run1 = 1
            run2 = 0
        last = r
        e = ends[r]
        low = hand[e - 1]
        add(_SINGLE[low])
        n = c[r]
        if n >= 2:
            add(_PAIR[hand[e - 2]][low])
            if n >= 3:
                _trio_leads(hand, c, ends, held, r, actions)
            run2 += 1
        else:
            run2 = 0
        if run1 >= 5 and r <= _LAST_CHAIN_RANK:
            # The run's lowest suits, highest rank first: the previous rank's run grows by one.
            if run1 == 5:
                singles = [hand[ends[k] - 1] for k in range(r, r - 5, -1)]
            else:
                singles.insert(0, low)
            for links in range(5, run1 + 1):
                add({"type": "play", "cards": singles[:links]})
        if run2 >= 3 and r <= _LAST_CHAIN_RANK:
            run = []
            for k in range(r, r - run2, -1):
                run += hand[ends[k] - 2 : ends[k]]
            for size in range(6, 2 * run2 + 1, 2):
                add({"type": "play", "cards": run[:size]})
        if rare and r in rare:
            actions += rare[r]
    for e in quads:
        add({"type": "play", "cards": hand[e - 4 : e]})
    if rocket:
        add({"type": "play", "cards": hand[0:2]})  # 大王 and 小王 head the hand
    return actions


def _trio_leads(hand: list[str], c, ends: tuple[int, ...], present, t: int, actions: list) -> None:
    """Add the trio of rank ``t``, then with each single, then with each pair, kickers upward.

    A kicker below the trio goes after its cards, one above before them (cards high to low).
    """
    et = ends[t]
    t0, t1, t2 = hand[et - 3 : et]
    singles, pairs = _trio_kickers(t0, t1, t2)
    actions.append(_TRIO[t0][t1][t2])
    actions += [singles[hand[ends[x] - 1]] for x in present if x != t]
    actions += [pairs[hand[ends[x] - 2]][hand[ends[x] - 1]] for x in present if x != t and c[x] >= 2]


def _four_leads(hand: list[str], c, ends: tuple[int, ...], q: int) -> list[dict]:
    """四带两对 then 四带二 on the quad of rank ``q``, in key order (as ``_four_with`` and a sort).

    Kickers ``(high, low)`` come high rank upward, then low rank upward, then both of the high
    rank; each play's cards are high to low. Without a plane the only set that reads twice is
    two quads as 四带两对, listed under the lower quad, so the higher one skips it.
    """
    eq = ends[q]
    quad = hand[eq - 4 : eq]
    actions = []
    add = actions.append
    for width in (2, 1):
        ranks = [r for r in _RANKS if r != q and c[r] >= width]
        # Each kicker rank's lowest ``width`` cards, cut once; the quad joined to the high
        # kicker once per high kicker: a play is then one join, not two slices and two joins.
        pieces = [hand[ends[r] - width : ends[r]] for r in ranks]
        for i, high in enumerate(ranks):
            eh = ends[high]
            top = pieces[i]
            if q > high:
                head = quad + top
                for piece in pieces[:i]:
                    add({"type": "play", "cards": head + piece})
            else:
                head = top + quad
                for j in range(i):
                    low = ranks[j]
                    if q > low:
                        add({"type": "play", "cards": head + pieces[j]})
                    elif not (low == RANK_XJ and high == RANK_DJ and width == 1):
                        # (the two jokers together are the rocket, never kickers)
                        add({"type": "play", "cards": top + pieces[j] + quad})
            if c[high] >= 2 * width and (width == 1 or high > q):
                both = hand[eh - 2 * width : eh]
                add({"type": "play", "cards": quad + both if q > high else both + quad})
    return actions


def _walk_leads(hand: list[str], ranks: bytes) -> list[dict] | None:
    """``_ordered_leads`` for a hand holding no quad and no plane (97% of leads), in one walk.

    ``ranks`` are the hand's card ranks (high to low, as the hand), then one byte 255 that
    ends the runs of equal ranks without a bounds test. The walk goes from the
    hand's last card (its lowest) up, one rank's cards at a time, so the hand is never
    counted first. ``lows`` gathers each rank's lowest suit and ``twos`` the two lowest suits
    of each rank held twice or more (lowest first), rank upward: a chain ending at a rank is
    the end of one of them, read backwards (highest rank first). A trio's kickers may rank
    above it, so they are spliced in after the walk, right after the trio. Returns None at a
    quad or a plane, whose sets may read two ways (``leads`` lists those hands).
    """
    actions: list[dict] = []
    add = actions.append
    lows: list[str] = []
    twos: list[str] = []
    trios = None  # per trio: (where its kickers go, its pair's index in twos, its cards)
    run1 = run2 = 0  # how many ranks up to this one hold a single / a pair, without a gap
    last = last_trio = -2
    i = len(ranks) - 2  # ``ranks`` ends with a mark no rank equals, read at i = -1
    while i >= 0:
        r = ranks[i]
        low = hand[i]
        i -= 1
        if r == last + 1:
            run1 += 1
        else:
            run1 = 1
            run2 = 0
        last = r
        add(_SINGLE[low])
        lows.append(low)
        if ranks[i] == r:
            second = hand[i]
            i -= 1
            add(_PAIR[second][low])
            if ranks[i] == r:
                top = hand[i]
                i -= 1
                if ranks[i] == r or (r == last_trio + 1 and r <= _LAST_CHAIN_RANK):
                    return None  # a quad, or two trios in a row (a plane)
                last_trio = r
                add(_TRIO[top][second][low])
                if trios is None:
                    trios = []
                trios.append((len(actions), len(twos), top, second, low))
            twos.append(low)
            twos.append(second)
            run2 += 1
        else:
            run2 = 0
        if (run1 >= 5 or run2 >= 3) and r <= _LAST_CHAIN_RANK:
            if run1 >= 5:
                for links in range(5, run1 + 1):
                    add({"type": "play", "cards": lows[-1 : -links - 1 : -1]})
            if run2 >= 3:
                for size in range(6, 2 * run2 + 1, 2):
                    add({"type": "play", "cards": twos[-1 : -size - 1 : -1]})
    if ranks[1] == RANK_XJ:  # 小王 second: 大王 heads the hand (a slice would be a new object)
        add({"type": "play", "cards": hand[0:2]})
    if trios:
        # The trio with each single, then with each pair, kickers rank upward; a kicker below
        # the trio goes after its cards, one above before them (cards high to low). The last
        # trio first, so the places of the earlier ones do not move.
        # One comprehension each for the singles and the pairs, skipping the trio's own rank
        # (its lowest card, its pair's place in ``twos``), instead of two around it: a
        # comprehension and a slice are each a new object.
        for at, pi, t0, t1, t2 in reversed(trios):
            singles, pairs = _trio_kickers(t0, t1, t2)
            kicked = [singles[k] for k in lows if k != t2]
            kicked += [pairs[twos[j + 1]][twos[j]] for j in range(0, len(twos), 2) if j != pi]
            actions[at:at] = kicked
    return actions


def leads(hand: list[str]) -> list[dict]:
    """Every lead of a hand as actions, in ``play_keys(counts, None)`` order (see ``_leads``).

    Without a quad or a plane (97% of leads) no set reads two ways and ``_walk_leads`` lists
    everything in one walk up the hand. Otherwise the hand is counted: the planes, 四带二 and
    planes with wings go through their keys first (first reading of each set kept, as in
    ``_leads``) and are handed to ``_ordered_leads`` by body rank. (The counted path lists any
    hand; the walk only saves counting the ones it can list.)
    """
    # No memo: a lead's hand is never listed twice (its seat played last, so its hand
    # changed, and it is about to play again).
    shape = "".join(hand)[::2]
    found = _walk_leads(hand, (shape + "@").encode().translate(_RANK_BYTES))
    if found is not None:
        return found
    ranks, c, ends = _count(shape)
    held = sorted(set(ranks))
    rocket = ranks[:2] == _ROCKET_RANKS
    packed = bytes(c)  # a memchr per test below, instead of comparing each count as an object
    if 4 in packed:
        quads = [ends[q] for q in _PLAIN_RANKS if c[q] == 4]
    elif 3 in packed:
        quads = ()
    else:
        return _ordered_leads(hand, c, ends, held, (), rocket, None)
    m3 = 0
    for r in held:
        if c[r] >= 3 and r <= _LAST_CHAIN_RANK:
            m3 |= 1 << r
    planes = m3 & (m3 >> 1)
    if not planes:
        if not quads:
            return _ordered_leads(hand, c, ends, held, quads, rocket, None)
        # Quads but no plane: 四带二 are cut straight from the hand too.
        return _ordered_leads(
            hand,
            c,
            ends,
            held,
            quads,
            rocket,
            {q: _four_leads(hand, c, ends, q) for q in _PLAIN_RANKS if c[q] == 4},
        )
    quad = bool(quads)
    keys: list[int] = []
    if planes:
        keys += _chain_keys(3, m3)
    if quad:
        _four_with(c, 2, "four_two_pairs", -1, keys)
        _four_with(c, 1, "four_two_singles", -1, keys)
    if planes:
        _plane_with(c, 2, "plane_pairs", -1, None, keys)
        _plane_with(c, 1, "plane_singles", -1, None, keys)
    rare: dict[int, list[dict]] = {}
    # ``_cut`` written out: a plane's ~60 plays share a few values of each five-rank chunk of
    # their codes (the body, the wings), so each value's cards are cut once per hand.
    # Sorted keys come body rank by body rank, and neighbours mostly share their body's chunks,
    # so the rank's list and the chunks' cards are looked up again only when they change.
    cut_high: dict[int, tuple[str, ...]] = {0: ()}
    cut_middle: dict[int, tuple[str, ...]] = {0: ()}
    cut_low: dict[int, tuple[str, ...]] = {0: ()}
    last_head = last_high = last_middle = -1
    found: list[dict] = []
    top = mid = ()
    for key in sorted(_first_reading(keys)):
        head, code = divmod(key, CODE_SPAN)
        if head != last_head:
            last_head = head
            rank = head // 16 % 16
            found = rare.get(rank)
            if found is None:
                found = rare[rank] = []
        high, rest = divmod(code, _CHUNK2)
        if high != last_high:
            last_high = high
            top = cut_high.get(high)
            if top is None:
                top = cut_high[high] = _chunk_cards(hand, ends, 2, high)
        middle, low = divmod(rest, _CHUNK)
        if middle != last_middle:
            last_middle = middle
            mid = cut_middle.get(middle)
            if mid is None:
                mid = cut_middle[middle] = _chunk_cards(hand, ends, 1, middle)
        bottom = cut_low.get(low)
        if bottom is None:
            bottom = cut_low[low] = _chunk_cards(hand, ends, 0, low)
        found.append({"type": "play", "cards": [*top, *mid, *bottom]})
    return _ordered_leads(hand, c, ends, held, quads, rocket, rare)
