"""The solo runtime: a player's provably fair plays against the house, each settled at once.

Every play (a spin, a double-up) is one request and one ledger transaction
with the stake and the win together: the wallet gains ``win − stake − fee``,
the rake account the fee (``tier.rake_bps`` of the play's profit, when there
is one), and the house bank the rest. The transaction's idempotency key is
``solo:<user>:<request key>``, the browser's key for that request; a retried
request finds its play (unique per user and request key) and gets it back,
never a second draw or a second payout.

The draw comes only from the player's current ``SeedPair`` (server seed,
client seed) and its next nonce; the pair's row is locked for each play, so
nonces are used once and in order. Rotating the pair reveals the old server
seed. A game with a double-up (``SoloEngine.gamble_rules``) opens an
``Offer`` after a winning spin; it is collected by the player, by the next
spin, by a rotation, after its seconds without a play, when the balance
cannot stake it, or after its most wins. Collecting moves no coins: every
win is in the wallet as soon as it is drawn, and a double-up stakes it again.
"""

from __future__ import annotations

import secrets
from datetime import timedelta
from platform.accounts.services import stats_record_hand

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import games
from games.base import IllegalAction, apply_rake, seed_digest
from rooms.models import Game, RoomTier
from rooms.solo.models import Offer, Play, SeedPair
from wallets.models import Account, LedgerTransaction
from wallets.services import house_account, ledger_post, wallet_for_user

REQUEST_KEY_MAX = 64


class SoloError(Exception):
    """A play the runtime refuses; ``str(exc)`` is a sentence a player can read. Nothing changed."""

    def __init__(self, message: str, *, code: str = "refused") -> None:
        super().__init__(message)
        self.code = code


def _refusal(exc: IllegalAction) -> SoloError:
    return SoloError(_(exc.template).format(**exc.params) if exc.params else _(exc.template))


def engine_for(slug: str):
    info = games.REGISTRY.get(slug)
    if info is None or info.family != Game.Family.SOLO:
        raise SoloError(_("This game cannot be played here."), code="not_solo")
    return info.engine


def tier_config(tier: RoomTier) -> dict:
    """Return what the engine is told of the room: the game's defaults, the tier's options, its base."""
    info = games.REGISTRY[tier.game.slug]
    return {**info.default_options, **(tier.options or {}), "base_stake": tier.base_stake}


def playable_tier(tier_id: object) -> RoomTier:
    try:
        tier = RoomTier.objects.select_related("game").get(pk=int(tier_id))
    except (TypeError, ValueError, RoomTier.DoesNotExist):
        raise SoloError(_("No such room."), code="no_tier") from None
    engine_for(tier.game.slug)
    if not tier.is_open or not tier.game.is_enabled:
        raise SoloError(_("This room is closed."), code="tier_closed")
    return tier


def _new_client_seed() -> str:
    return secrets.token_hex(8)


def _create_pair(user, client_seed: str) -> SeedPair:
    seed = secrets.token_bytes(32)
    return SeedPair.objects.create(
        user=user, server_seed=seed, server_hash=seed_digest(seed), client_seed=client_seed
    )


def current_pair(user) -> SeedPair:
    """Return the player's current seed pair, making their first one if they have none."""
    pair = SeedPair.objects.filter(user=user, revealed_at__isnull=True).first()
    if pair is None:
        # The partial unique constraint settles two first visits at once: one insert wins.
        try:
            with transaction.atomic():
                pair = _create_pair(user, _new_client_seed())
        except IntegrityError:
            pair = SeedPair.objects.get(user=user, revealed_at__isnull=True)
    return pair


def _lock_pair(user) -> SeedPair:
    current_pair(user)
    return SeedPair.objects.select_for_update().get(user=user, revealed_at__isnull=True)


def _clean_request_key(key: object) -> str:
    if (
        not isinstance(key, str)
        or not 8 <= len(key) <= REQUEST_KEY_MAX
        or not key.isascii()
        or not key.isprintable()
    ):
        raise SoloError(_("Each play needs a request key of 8 to 64 characters."), code="bad_key")
    return key


def _locked_wallet(user) -> Account:
    wallet = wallet_for_user(user=user)
    return Account.objects.select_for_update().get(pk=wallet.pk)


def _open_offer(user, now) -> Offer | None:
    """Return the player's open double-up, or None; one past its deadline is collected here."""
    offer = Offer.objects.select_for_update().filter(user=user).first()
    if offer is not None and offer.deadline <= now:
        offer.delete()
        return None
    return offer


def _settle(*, user, tier: RoomTier, play: Play, engine_result: dict) -> Play:
    """Post the play's one transaction (stake and win together) and save it."""
    win = int(engine_result["win"])
    (net,), rake = apply_rake([win - play.stake], tier.rake_bps)
    key = f"solo:{user.pk}:{play.request_key}"
    legs = [(wallet_for_user(user=user), net), (house_account(code="rake"), rake),
            (house_account(code="bank"), -net - rake)]  # fmt: skip
    legs = [leg for leg in legs if leg[1]]
    if legs:  # a win of exactly the stake moves nothing
        ledger_post(
            key=key,
            kind=LedgerTransaction.Kind.SETTLEMENT,
            legs=legs,
            reference=f"play:{play.pk}",
            memo=f"{play.kind} {play.pk}: stake {play.stake}, win {win}, rake {rake}",
            game_slug=tier.game.slug,
            tier_id=tier.pk,
        )
        play.ledger_key = key
    play.win, play.rake, play.net, play.result = win, rake, net, engine_result
    play.save(update_fields=["win", "rake", "net", "result", "ledger_key"])
    if play.kind == Play.Kind.SPIN:  # a spin counts as a hand toward levels; its double-ups do not
        stats_record_hand(user=user, game_slug=tier.game.slug, won=net > 0)
    return play


def _replayed(user, key: str) -> Play | None:
    return Play.objects.filter(user=user, request_key=key).first()


def solo_spin(*, user, tier_id, stake, request_key) -> Play:
    """Spin once for ``stake`` in the tier: draw, settle in one transaction, open a double-up on a win."""
    key = _clean_request_key(request_key)
    with transaction.atomic(durable=True):
        earlier = _replayed(user, key)
        if earlier is not None:
            return earlier
        tier = playable_tier(tier_id)
        engine = engine_for(tier.game.slug)
        config = tier_config(tier)
        pair = _lock_pair(user)
        if _replayed(user, key) is not None:  # the same request finished while this one waited
            return _replayed(user, key)
        if isinstance(stake, bool) or not isinstance(stake, int) or stake not in engine.stakes(config):
            raise SoloError(_("Choose a base stake of this room."), code="bad_stake")
        wallet = _locked_wallet(user)
        if wallet.balance < stake:
            raise SoloError(_("Your balance is too low for this stake."), code="insufficient")
        now = timezone.now()
        Offer.objects.filter(user=user).delete()  # spinning again collects the open double-up
        try:
            result = engine.spin(config, bytes(pair.server_seed), pair.client_seed, pair.next_nonce, stake)
        except IllegalAction as exc:
            raise _refusal(exc) from None
        play = Play.objects.create(
            user=user, tier=tier, game_slug=tier.game.slug, seed_pair=pair, nonce=pair.next_nonce,
            kind=Play.Kind.SPIN, stake=stake, win=0, net=0, request_key=key,
        )  # fmt: skip
        pair.next_nonce += 1
        pair.save(update_fields=["next_nonce"])
        play = _settle(user=user, tier=tier, play=play, engine_result=result)
        rules = engine.gamble_rules(config)
        credited = play.stake + play.net
        if rules and play.win > 0 and credited > 0:
            Offer.objects.create(
                user=user, tier=tier, origin=play, amount=credited,
                deadline=now + timedelta(seconds=rules["seconds"]),
            )  # fmt: skip
        return play


def solo_gamble(*, user, multiple, pick, request_key) -> Play:
    """Double up the open offer: stake its win × ``multiple`` on ``pick``, settled in one transaction."""
    key = _clean_request_key(request_key)
    collected = False
    with transaction.atomic(durable=True):
        play = _gamble_locked(user, key, multiple, pick)
        if play is None:
            collected = True
    if collected:
        raise SoloError(_("Your balance is too low to double: the win was collected."), code="collected")
    return play


def _gamble_locked(user, key: str, multiple, pick) -> Play | None:
    """The double-up inside its transaction; None when a short balance collected the offer."""
    earlier = _replayed(user, key)
    if earlier is not None:
        return earlier
    pair = _lock_pair(user)
    if _replayed(user, key) is not None:
        return _replayed(user, key)
    now = timezone.now()
    offer = _open_offer(user, now)
    if offer is None:
        raise SoloError(_("There is no win to double: it was collected."), code="no_offer")
    tier = playable_tier(offer.tier_id)
    engine = engine_for(tier.game.slug)
    config = tier_config(tier)
    rules = engine.gamble_rules(config)
    if isinstance(multiple, bool) or multiple not in rules["multiples"]:
        raise SoloError(_("Double by one of the offered multiples."), code="bad_multiple")
    stake = offer.amount * multiple
    wallet = _locked_wallet(user)
    if wallet.balance < offer.amount:
        offer.delete()  # the balance cannot stake even the win itself: collected
        return None
    if wallet.balance < stake:
        raise SoloError(_("Your balance is too low for this multiple."), code="insufficient")
    try:
        result = engine.gamble(
            config, bytes(pair.server_seed), pair.client_seed, pair.next_nonce, stake, pick
        )
    except IllegalAction as exc:
        raise _refusal(exc) from None
    play = Play.objects.create(
        user=user, tier=tier, game_slug=tier.game.slug, seed_pair=pair, nonce=pair.next_nonce,
        kind=Play.Kind.GAMBLE, origin=offer.origin, stake=stake, win=0, net=0, request_key=key,
    )  # fmt: skip
    pair.next_nonce += 1
    pair.save(update_fields=["next_nonce"])
    play = _settle(user=user, tier=tier, play=play, engine_result=result)
    if play.win > 0 and offer.wins + 1 < rules["max_wins"]:
        offer.amount = play.stake + play.net
        offer.wins += 1
        offer.deadline = now + timedelta(seconds=rules["seconds"])
        offer.save(update_fields=["amount", "wins", "deadline"])
    else:  # lost, or the last win allowed: collected
        offer.delete()
    return play


def solo_collect(*, user) -> bool:
    """收分: close the open double-up (its win is already in the wallet). Says whether one was open."""
    with transaction.atomic():
        return bool(Offer.objects.filter(user=user).delete()[0])


def solo_rotate(*, user, client_seed: object = None) -> tuple[SeedPair, SeedPair]:
    """Reveal the current server seed and start a new pair (a new client seed if given); nonce 0.

    Returns ``(revealed, current)``. Collects an open double-up.
    """
    with transaction.atomic(durable=True):
        pair = _lock_pair(user)
        if client_seed in (None, ""):
            client_seed = pair.client_seed
        else:
            for info in games.REGISTRY.values():
                if info.family == Game.Family.SOLO:
                    try:
                        info.engine.check_client_seed(client_seed)
                    except IllegalAction as exc:
                        raise _refusal(exc) from None
        Offer.objects.filter(user=user).delete()
        pair.revealed_at = timezone.now()
        pair.save(update_fields=["revealed_at"])
        return pair, _create_pair(user, str(client_seed))


def offer_state(user) -> dict | None:
    """Return the open double-up as the page shows it, or None (one past its deadline is collected)."""
    with transaction.atomic():
        offer = _open_offer(user, timezone.now())
        if offer is None:
            return None
        rules = engine_for(offer.tier.game.slug).gamble_rules(tier_config(offer.tier))
        seconds = max(0, (offer.deadline - timezone.now()).total_seconds())
        return {"amount": offer.amount, "wins": offer.wins, "max_wins": rules["max_wins"],
                "multiples": rules["multiples"], "picks": rules["picks"], "seconds_left": round(seconds, 1),
                "tier": offer.tier_id}  # fmt: skip


def verify_play(play: Play) -> dict:
    """Recompute a play from its revealed seed pair; ``matches`` says whether it is the play recorded."""
    pair = play.seed_pair
    if pair.revealed_at is None:
        return {"revealed": False}
    engine = engine_for(play.game_slug)
    config = {**tier_config(play.tier)}
    seed = bytes(pair.server_seed)
    if play.kind == Play.Kind.SPIN:
        again = engine.spin(config, seed, pair.client_seed, play.nonce, play.stake)
    else:
        again = engine.gamble(config, seed, pair.client_seed, play.nonce, play.stake, play.result.get("pick"))
    return {
        "revealed": True,
        "server_seed": seed.hex(),
        "hash_matches": seed_digest(seed) == pair.server_hash,
        "result": again,
        "matches": again == play.result,
    }
