"""多财多福 Fortune Lines: three reels, five lines, a pay table, and the 童男/童女 double-up.

Pure functions only (docs/rules/duocaiduofu.md gives every rule with its seed
line). The seed (001, 多财多福规则) describes the flow and the double-up but
leaves out the reels and the pay table: they are this module's, and the
return to player is computed *exactly* by :func:`spin_distribution`, which
enumerates every combination of reel stops.

A spin costs the 底分 (base stake) the player picked with "+"/"−"; every line
whose three symbols are alike pays the 底分 × that symbol's multiple, and a
spin's win is the sum of its lines (seed 001 line 273: 底分 × 组合倍数).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

from games.base import IllegalAction, SeededRng, gettext_noop

# The symbols, highest first: 福 fortune, 财 wealth, 元宝 gold ingot, 铜钱 copper coin, 灯笼 lantern,
# 鞭炮 firecrackers.
SYMBOLS = ("fu", "cai", "ingot", "coin", "lantern", "firecracker")

# What three alike on one line pay, as a multiple of the spin's 底分.
PAYS = {"fu": 100, "cai": 25, "ingot": 12, "coin": 5, "lantern": 3, "firecracker": 2}

# One strip of 20 stops (福 ×1, 财 ×2, 元宝 ×2, 铜钱 ×4, 灯笼 ×4, 鞭炮 ×7). The three reels carry it
# turned by different amounts so they look different; turning a strip only renames its stops, so
# every reel has the same stop distribution either way.
_STRIP = (
    "firecracker", "lantern", "coin", "ingot", "cai", "fu", "firecracker", "lantern", "coin", "ingot",
    "cai", "firecracker", "lantern", "coin", "firecracker", "lantern", "coin", "firecracker",
    "firecracker", "firecracker",
)  # fmt: skip
REELS = tuple(_STRIP[turn:] + _STRIP[:turn] for turn in (0, 7, 13))
ROWS = 3

# The five lines, as the row (0 top, 1 middle, 2 bottom) read on each reel.
LINES = ((1, 1, 1), (0, 0, 0), (2, 2, 2), (0, 1, 2), (2, 1, 0))

# 童男 boy, 童女 girl: the two cards of the double-up (seed line 275).
PICKS = ("boy", "girl")
# 点击前，可选择是否加倍，加倍的倍数分别为“2倍”、“3倍”、“5倍” (seed line 275): ×1 is "no extra".
GAMBLE_MULTIPLES = (1, 2, 3, 5)
GAMBLE_MAX_WINS = 8  # seed line 278
GAMBLE_SECONDS = 15  # seed line 277: 15秒不操作 … 自动收分
# The multiple of 底分 every stake must be: 5% of any profit is then a whole coin (docs).
STAKE_UNIT = 20

CLIENT_SEED_MAX = 64
_CLIENT_SEED_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


# --- the line game ----------------------------------------------------------


def window(stops: tuple[int, ...] | list[int]) -> list[list[str]]:
    """Return the visible symbols: ``window(stops)[reel][row]``, row 0 at the top.

    Stop ``s`` of a reel shows its strip's symbols ``s``, ``s+1`` and ``s+2`` (wrapping round).
    """
    if len(stops) != len(REELS):
        raise ValueError(f"expected {len(REELS)} stops")
    shown = []
    for strip, stop in zip(REELS, stops, strict=True):
        if not isinstance(stop, int) or not 0 <= stop < len(strip):
            raise ValueError(f"stop {stop!r} is off the reel")
        shown.append([strip[(stop + row) % len(strip)] for row in range(ROWS)])
    return shown


def line_wins(stops: tuple[int, ...] | list[int]) -> list[dict]:
    """Return each paying line: ``{"line": index, "symbol", "multiple"}``, in line order."""
    shown = window(stops)
    wins = []
    for index, rows in enumerate(LINES):
        first, *rest = (shown[reel][row] for reel, row in enumerate(rows))
        if all(symbol == first for symbol in rest):
            wins.append({"line": index, "symbol": first, "multiple": PAYS[first]})
    return wins


def spin_multiple(stops: tuple[int, ...] | list[int]) -> int:
    """Return the spin's win as a multiple of its 底分: the sum of its paying lines (0: no win)."""
    return sum(win["multiple"] for win in line_wins(stops))


def spin_distribution() -> dict[int, int]:
    """Return multiple → number of stop combinations, over every combination of every reel's stops."""
    return dict(_distribution())


@cache
def _distribution() -> dict[int, int]:
    counts: dict[int, int] = {}
    for stops in product(*(range(len(strip)) for strip in REELS)):
        multiple = spin_multiple(stops)
        counts[multiple] = counts.get(multiple, 0) + 1
    return counts


def net_return(multiple: int | Fraction, rake_bps: int) -> Fraction:
    """Return what a play paying ``multiple`` × stake gives back per staked coin after the fee.

    The house's service fee is ``rake_bps`` of the play's profit (win − stake) when there is one;
    with stakes in whole :data:`STAKE_UNIT` the fee is exact (docs/rules/duocaiduofu.md).
    """
    multiple = Fraction(multiple)
    if multiple <= 1:
        return multiple
    return multiple - (multiple - 1) * Fraction(rake_bps, 10000)


def spin_return(rake_bps: int = 0) -> Fraction:
    """Return the exact return to player of one spin: sum over stop combinations, after the fee."""
    counts = spin_distribution()
    total = sum(counts.values())
    return sum((net_return(m, rake_bps) * n for m, n in counts.items()), Fraction(0)) / total


def gamble_return(rake_bps: int = 0) -> Fraction:
    """Return the exact return of one double-up: ½ × (2 − the fee on the doubled stake's profit)."""
    return Fraction(1, len(PICKS)) * net_return(2, rake_bps)


def hit_rate() -> Fraction:
    """Return the probability that a spin wins something."""
    counts = spin_distribution()
    return Fraction(sum(n for m, n in counts.items() if m), sum(counts.values()))


# --- provably fair draws ----------------------------------------------------


def check_client_seed(client_seed: object) -> str:
    """Return the client seed if it is 1–64 letters, digits, '_' or '-', else refuse it."""
    if (
        not isinstance(client_seed, str)
        or not 1 <= len(client_seed) <= CLIENT_SEED_MAX
        or not set(client_seed) <= _CLIENT_SEED_CHARS
    ):
        raise IllegalAction(gettext_noop("A client seed is 1 to 64 letters, digits, '_' or '-'."))
    return client_seed


def draw(server_seed: bytes, client_seed: str, nonce: int, kind: str) -> SeededRng:
    """Return the stream of one play: HMAC-SHA256 keyed by the server seed, labelled
    ``"<client seed>:<nonce>:<kind>"`` (``kind`` "spin" or "gamble")."""
    check_client_seed(client_seed)
    if not isinstance(nonce, int) or nonce < 0:
        raise ValueError("nonce must be a non-negative integer")
    return SeededRng(server_seed, f"{client_seed}:{nonce}:{kind}")


def spin_stops(server_seed: bytes, client_seed: str, nonce: int) -> list[int]:
    """Return the reel stops of play ``nonce``: one ``randbelow(len(reel))`` per reel, left to right."""
    rng = draw(server_seed, client_seed, nonce, "spin")
    return [rng.randbelow(len(strip)) for strip in REELS]


def gamble_card(server_seed: bytes, client_seed: str, nonce: int) -> str:
    """Return the card the double-up of play ``nonce`` turns: 童男 ("boy") or 童女 ("girl")."""
    return PICKS[draw(server_seed, client_seed, nonce, "gamble").randbelow(len(PICKS))]


# --- stakes, the double-up and 自动 ------------------------------------------


def stake_choices(base_stake: int, steps: list[int] | tuple[int, ...]) -> list[int]:
    """Return the 底分 the "+"/"−" buttons step through: the room's base stake × each step."""
    return [base_stake * step for step in steps]


def check_stake(stake: object, choices: list[int]) -> int:
    """Return ``stake`` if it is one of the room's 底分, else refuse it."""
    if isinstance(stake, bool) or not isinstance(stake, int) or stake not in choices:
        raise IllegalAction(gettext_noop("Choose a base stake of this room."))
    return stake


def gamble_stake(base: int, multiple: object) -> int:
    """Return a double-up's stake: the win it starts from × the chosen multiple (seed line 275)."""
    if isinstance(multiple, bool) or multiple not in GAMBLE_MULTIPLES:
        raise IllegalAction(gettext_noop("Double by 1, 2, 3 or 5."))
    return base * int(multiple)


def check_pick(pick: object) -> str:
    if pick not in PICKS:
        raise IllegalAction(gettext_noop("Pick the boy or the girl."))
    return str(pick)


def gamble_pays(pick: str, card: str, stake: int) -> int:
    """Return a double-up's gross win: twice the stake when the pick is the card turned, else 0."""
    return 2 * stake if pick == card else 0


def auto_continues(*, done: int, count: int, last_win: int, stop_win: int | None, balance: int,
                   floor: int | None, next_stake: int) -> bool:  # fmt: skip
    """Say whether 自动 spins on: fewer than ``count`` spins so far, the last win under the
    threshold (when one is set), the balance at least the floor (when set) and the next stake."""
    if done >= count:
        return False
    if stop_win is not None and last_win >= stop_win > 0:
        return False
    if floor is not None and balance < floor:
        return False
    return balance >= next_stake
