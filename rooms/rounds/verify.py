"""Verify a finished shoe of a banker table: its seed against the published hash, every coup dealt again.

For every banker game alike: the engine shuffles (or throws) a new shoe from
the revealed seed, ``new_shoe(config, SeededRng(seed, "shoe"))``, deals it coup
by coup, and each coup's reveal steps must be exactly those the table showed
in that round. A shoe still being dealt has only its hash.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from games.base import SeededRng
from rooms.rounds.broadcast import engine_for, tier_config
from rooms.rounds.models import Round, Shoe


@dataclass
class CoupCheck:
    """One coup: what dealing the seed gives and what the round showed, each as side → pieces (text)."""

    coup: int
    round_number: int | None
    dealt: dict[str, list[str]]
    shown: dict[str, list[str]]

    @property
    def matches(self) -> bool:
        return self.dealt == self.shown


@dataclass
class ShoeCheck:
    """The verdict on one shoe: the hash, the seed once revealed, and every coup dealt from it."""

    shoe: Shoe
    published_sha256: str
    seed_hex: str = ""  # empty until the shoe is finished
    hash_matches: bool = False
    coups: list[CoupCheck] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def revealed(self) -> bool:
        return bool(self.seed_hex)

    @property
    def ok(self) -> bool:
        return (
            self.revealed and self.hash_matches and not self.problems and all(c.matches for c in self.coups)
        )


def _by_side(steps: list[dict]) -> dict[str, list[str]]:
    sides: dict[str, list[str]] = {}
    for step in steps:
        sides.setdefault(str(step["side"]), []).append(str(step["card"]))
    return sides


def shoe_verification(*, shoe: Shoe) -> ShoeCheck:
    """Check ``shoe``: its seed hashes to the published value and deals every coup its rounds showed."""
    seed = bytes(shoe.seed)
    check = ShoeCheck(shoe=shoe, published_sha256=hashlib.sha256(seed).hexdigest())
    if shoe.finished_at is None:
        return check  # the seed stays secret while coups remain to be dealt
    check.seed_hex = seed.hex()
    check.hash_matches = hashlib.sha256(bytes.fromhex(check.seed_hex)).hexdigest() == check.published_sha256
    rounds = list(Round.objects.filter(shoe=shoe, dealt_at__isnull=False).order_by("coup"))
    tier = shoe.table.tier
    engine = engine_for(tier.game.slug)
    # The shoe was made with the config of its first round (the tier's options then).
    config = rounds[0].config if rounds else tier_config(tier)
    state = engine.new_shoe(config, SeededRng(seed, "shoe"))
    for rnd in rounds:
        try:
            result, state = engine.deal(config, state)
        except ValueError as exc:
            check.problems.append(str(exc))
            break
        check.coups.append(
            CoupCheck(
                coup=int(result.get("coup") or rnd.coup),
                round_number=rnd.number,
                dealt=_by_side(result["steps"]),
                shown=_by_side((rnd.result or {}).get("steps") or []),
            )
        )
    return check
