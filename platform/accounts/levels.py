"""玩家等级: player levels, decided by the hands a player has won in one game.

The table is seed 002's 玩家等级 (docs/rules/levels.md has the reading). Each
row's number is the win count at which that row's level ends and the next one
begins: a new player is 包身工 (indentured labourer); 100 wins make 短工, 200
make 长工, and so on. 帝王 (emperor) is the top and has no end; its own number
in the seed (100000) starts no further level.
"""

from bisect import bisect_right
from dataclasses import dataclass
from platform.accounts.names import localized

# (Chinese name, English gloss, the seed's number: wins at which this level ends).
SEED_TABLE: tuple[tuple[str, str, int], ...] = (
    ("包身工", "Indentured labourer", 100),
    ("短工", "Day labourer", 200),
    ("长工", "Farmhand", 300),
    ("佃户", "Tenant farmer", 500),
    ("贫农", "Poor peasant", 600),
    ("渔夫", "Fisherman", 800),
    ("猎人", "Hunter", 900),
    ("中农", "Middle peasant", 1000),
    ("富农", "Rich peasant", 1500),
    ("掌柜", "Shopkeeper", 2000),
    ("商人", "Merchant", 3000),
    ("衙役", "Yamen runner", 5000),
    ("小财主", "Small moneybags", 6000),
    ("大财主", "Great moneybags", 8000),
    ("小地主", "Small landlord", 9000),
    ("大地主", "Great landlord", 10000),
    ("知县", "County magistrate", 20000),
    ("通判", "Assistant prefect", 30000),
    ("知府", "Prefect", 50000),
    ("总督", "Viceroy", 60000),
    ("巡抚", "Provincial governor", 80000),
    ("丞相", "Chancellor", 90000),
    ("帝王", "Emperor", 100000),
)


@dataclass(frozen=True)
class Level:
    """One rung of the ladder: the wins from which it holds and at which it ends."""

    index: int
    name: str
    name_en: str
    wins_from: int
    wins_to: int | None  # exclusive; None at the top

    @property
    def display_name(self) -> str:
        """The level's name in the active language (包身工, or "Indentured labourer" in English)."""
        return localized(self.name, self.name_en)

    @property
    def is_top(self) -> bool:
        return self.wins_to is None

    def wins_to_next(self, wins: int) -> int | None:
        """Return how many more wins reach the next level (None at the top)."""
        if self.wins_to is None:
            return None
        return max(self.wins_to - wins, 0)


def _build() -> tuple[Level, ...]:
    levels = []
    start = 0
    last = len(SEED_TABLE) - 1
    for index, (name, name_en, end) in enumerate(SEED_TABLE):
        levels.append(Level(index, name, name_en, start, None if index == last else end))
        start = end
    return tuple(levels)


LEVELS: tuple[Level, ...] = _build()
_STARTS: tuple[int, ...] = tuple(level.wins_from for level in LEVELS)


def level_for_wins(wins: int) -> Level:
    """Return the level a player with ``wins`` won hands holds."""
    if isinstance(wins, bool) or not isinstance(wins, int):
        raise TypeError(f"wins must be an integer, not {type(wins).__name__}")
    if wins < 0:
        raise ValueError(f"wins cannot be negative (got {wins})")
    return LEVELS[bisect_right(_STARTS, wins) - 1]
