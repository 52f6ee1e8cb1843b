"""Reads for accounts: a player's levels per game, their sign-up grant still to come, their linked accounts."""

from dataclasses import dataclass
from platform.accounts.grants import grant_part_amount
from platform.accounts.levels import Level, level_for_wins
from platform.accounts.models import GameStats, SignUp, User, UserDevice

from django.conf import settings
from django.db.models import F, Sum
from django.utils.module_loading import import_string


@dataclass(frozen=True)
class GameLevel:
    """Where a player stands in one game: wins, hands and the level they make."""

    game_slug: str
    game_name: str
    hands: int
    wins: int
    level: Level

    @property
    def wins_to_next(self) -> int | None:
        return self.level.wins_to_next(self.wins)

    @property
    def next_level(self) -> Level | None:
        from platform.accounts.levels import LEVELS

        return None if self.level.is_top else LEVELS[self.level.index + 1]


def _catalogue() -> list[tuple[str, str]]:
    """The games a profile lists: (slug, name in the active language) of every enabled game, in lobby
    order. The games' app keeps the catalogue; the ``GAME_CATALOGUE`` setting names its reader, so
    that accounts imports nothing of it (no reader named: no game is listed)."""
    path = getattr(settings, "GAME_CATALOGUE", None)
    return import_string(path)() if path else []


def user_game_levels(*, user: User) -> list[GameLevel]:
    """Return the player's level in every catalogue game, then in any other game they played."""
    stats = {row.game_slug: row for row in GameStats.objects.filter(user=user)}
    catalogue = _catalogue()
    names = dict(catalogue)
    slugs = [slug for slug, _name in catalogue] + sorted(set(stats) - set(names))
    result = []
    for slug in slugs:
        row = stats.get(slug)
        hands, wins = (row.hands, row.wins) if row else (0, 0)
        result.append(GameLevel(slug, names.get(slug, slug), hands, wins, level_for_wins(wins)))
    return result


@dataclass(frozen=True)
class GrantStatus:
    """Where a player's sign-up grant stands, for their profile."""

    parts: int
    parts_paid: int
    part_hands: int
    next_amount: int
    hands_to_next: int


def grant_status(*, user: User) -> GrantStatus | None:
    """Return the player's grant still being paid by play, or None if nothing is left to pay."""
    signup = SignUp.objects.filter(user=user, parts_paid__lt=F("grant_parts")).first()
    if signup is None:
        return None
    hands = GameStats.objects.filter(user=user).aggregate(total=Sum("hands"))["total"] or 0
    next_part = signup.parts_paid + 1
    return GrantStatus(
        parts=signup.grant_parts,
        parts_paid=signup.parts_paid,
        part_hands=signup.grant_part_hands,
        next_amount=grant_part_amount(signup, next_part),
        hands_to_next=max(next_part * signup.grant_part_hands - hands, 0),
    )


def linked_user_ids(*, user_id: int) -> set[int]:
    """Return the other accounts linked to ``user_id``: signed up from its address or in from its browser.

    The address is the one the sign-up counted under (an IPv6 /64 as one);
    accounts made by staff tools and the demo loader have none. The browser is
    any device cookie the account logged in with (``devices``). Links are
    direct, not chained: a person behind a shared address (a school, a mobile
    network's NAT) is linked to the accounts signed up there, not to every
    browser those accounts ever used.
    """
    address = SignUp.objects.filter(user_id=user_id, address__isnull=False).values("address")
    by_address = SignUp.objects.filter(address__in=address).values_list("user_id", flat=True)
    browsers = UserDevice.objects.filter(user_id=user_id).values("cookie_hash")
    by_browser = UserDevice.objects.filter(cookie_hash__in=browsers).values_list("user_id", flat=True)
    return set(by_address.union(by_browser)) - {user_id}
