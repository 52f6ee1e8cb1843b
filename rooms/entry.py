"""The entry rule of a room tier, as a pure decision on data already loaded.

Both the entry service (one tier, one wallet read) and the lobby selectors
(every tier, one wallet read per page) ask this one function, so the page
and the door never disagree.

The minimum is inclusive: a balance equal to the minimum may enter. Seed 002
(进入游戏房间所需要的最低游戏币点数要求) says the balance "必须大于" the minimum
but its worked example says "房间系数为5时 ... 不可低于 5*96=480", i.e. 480 may
play; we follow the example (see docs/rules/rooms.md).
"""

from __future__ import annotations

from django.utils.translation import gettext as _

import games
from rooms.errors import EntryRefused
from rooms.models import RoomTier


def entry_refusal(*, tier: RoomTier, authenticated: bool, balance: int | None) -> EntryRefused | None:
    """Return why this player may not enter ``tier``, or None when they may."""
    game = tier.game
    if not game.is_enabled or game.slug not in games.REGISTRY:
        return EntryRefused(
            _("%(game)s is not available right now.") % {"game": game.name},
            code="game_unavailable",
        )
    if not tier.is_open:
        return EntryRefused(
            _("%(tier)s is closed right now.") % {"tier": tier.display_name},
            code="tier_closed",
        )
    if not authenticated or balance is None:
        return EntryRefused(_("Log in to play."), code="login_required")
    minimum = tier.minimum_coins
    if balance < minimum:
        return EntryRefused(
            _("%(tier)s needs at least %(minimum)s coins to enter; your balance is %(balance)s.")
            % {"tier": tier.display_name, "minimum": f"{minimum:,}", "balance": f"{balance:,}"},
            code="below_minimum",
            minimum=minimum,
            balance=balance,
        )
    maximum = tier.maximum_coins
    if maximum is not None and balance > maximum:
        return EntryRefused(
            _(
                "%(tier)s is for players with at most %(maximum)s coins (minimum %(minimum)s); "
                "your balance is %(balance)s."
            )
            % {
                "tier": tier.display_name,
                "maximum": f"{maximum:,}",
                "minimum": f"{minimum:,}",
                "balance": f"{balance:,}",
            },
            code="above_maximum",
            minimum=minimum,
            maximum=maximum,
            balance=balance,
        )
    return None
