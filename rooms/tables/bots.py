"""Bots (机器人): real users with wallets funded by grants, playing through the same services.

A bot is a ``User`` whose username starts with ``bot_`` and who can never log
in (unusable password); sign-up refuses that prefix to players. It sits in a seat with ``is_bot`` set, so the
partial unique constraint keeps it at one table at a time too. Before it sits
down its wallet is topped up from the cashier (a ``grant`` with its own key)
to the tier's bot bankroll, so its stakes, wins and losses go through the
ledger like anyone else's and the books always balance.
"""

from __future__ import annotations

import secrets
from platform.accounts.validators import BOT_USERNAME_PREFIX

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
from django.db import IntegrityError, transaction

from wallets.selectors import wallet_balance
from wallets.services import wallet_grant

BOT_PREFIX = BOT_USERNAME_PREFIX


def bot_bankroll(tier) -> int:
    """Return the coins a bot holds when it sits down in ``tier``."""
    factor = getattr(settings, "TABLE_BOT_BANKROLL_FACTOR", 10)
    target = max(tier.minimum_coins * factor, tier.base_stake * 1000, 1000)
    if tier.maximum_coins:
        target = min(target, tier.maximum_coins)
    return target


def bot_acquire(*, tier, exclude: set[int]):
    """Return a bot user seated nowhere (creating one if none is free), topped up for ``tier``."""
    User = get_user_model()
    free = (
        User.objects.select_for_update(of=("self",), skip_locked=True)
        # Only the accounts made by _bot_create: a person's account named like a bot (from before
        # sign-up refused the prefix, or made by staff) has a usable password and is never taken,
        # or it would be seated as a bot and topped up with free coins.
        .filter(
            username__startswith=BOT_PREFIX,
            password__startswith=UNUSABLE_PASSWORD_PREFIX,
            table_seat__isnull=True,
        )
        .exclude(pk__in=exclude)
        .order_by("pk")
        .first()
    )
    if free is None:
        free = _bot_create()
    balance = wallet_balance(user=free)
    target = bot_bankroll(tier)
    if balance < target:
        wallet_grant(
            user=free,
            amount=target - balance,
            key=f"bot-bankroll:{free.pk}:{secrets.token_hex(8)}",
            reason="Bot bankroll top-up",
            reference=f"tier:{tier.pk}",
        )
    return free


def _bot_create():
    User = get_user_model()
    for _attempt in range(5):
        number = User.objects.filter(username__startswith=BOT_PREFIX).count() + 1 + secrets.randbelow(1000)
        try:
            with transaction.atomic():
                user = User(username=f"{BOT_PREFIX}{number:04d}", nickname=f"机器人{number}")
                user.set_unusable_password()
                user.save()
                return user
        except IntegrityError:
            continue
    raise RuntimeError("could not create a bot user")


def bot_choose_action(engine, state: dict, seat: int) -> dict:
    """Pick a bot's move: the engine's hint (提示) when it has one, else a random legal choice (bids)."""
    hint = engine.hint(state, seat)
    if hint is not None:
        return hint
    legal = engine.legal_actions(state, seat)
    return secrets.choice(legal) if legal else engine.auto_action(state, seat)
