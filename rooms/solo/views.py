"""HTTP edges of the solo runtime: the game's page, its JSON API, the records and the verify page.

The API takes and returns JSON; every refusal is ``{"error": sentence, "code": ...}`` with status
400 and nothing changed. Each play's body carries ``key``, the browser's key for that request.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from rooms.errors import EntryRefused
from rooms.game_pages import page_for
from rooms.services import tier_entry_check
from rooms.solo import services
from rooms.solo.models import Play
from wallets.services import wallet_for_user

RECORDS_PAGE_SIZE = 30


def _balance(user) -> int:
    return wallet_for_user(user=user).balance


def play_json(play: Play) -> dict:
    return {
        "id": play.pk,
        "kind": play.kind,
        "nonce": play.nonce,
        "stake": play.stake,
        "win": play.win,
        "rake": play.rake,
        "net": play.net,
        "result": play.result,
        "verify_url": reverse("solo:verify", args=[play.pk]),
    }


def pair_json(pair) -> dict:
    return {"hash": pair.server_hash, "client_seed": pair.client_seed, "nonce": pair.next_nonce}


def _state(user, tier) -> dict:
    engine = services.engine_for(tier.game.slug)
    config = services.tier_config(tier)
    recent = Play.objects.filter(user=user, tier=tier).order_by("-pk")[:10]
    return {
        "balance": _balance(user),
        "stakes": engine.stakes(config),
        "gamble": engine.gamble_rules(config),
        "returns": engine.returns(config, tier.rake_bps),
        "pair": pair_json(services.current_pair(user)),
        "offer": services.offer_state(user),
        "recent": [play_json(play) for play in recent],
    }


def _body(request: HttpRequest) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        data = None
    if not isinstance(data, dict):
        raise services.SoloError(_("Send a JSON object."), code="bad_body")
    return data


def _refused(exc: services.SoloError) -> JsonResponse:
    return JsonResponse({"error": str(exc), "code": exc.code}, status=400)


@login_required
def solo_page(request: HttpRequest, tier_id: int) -> HttpResponse:
    """The game's page for one room; entering checks the room's entry rule, as any room does."""
    try:
        tier = services.playable_tier(tier_id)
    except services.SoloError:
        raise Http404("No such room") from None
    try:
        tier_entry_check(tier=tier, user=request.user)
    except EntryRefused as exc:
        messages.error(request, str(exc))
        return redirect("rooms:game", slug=tier.game.slug)
    page = page_for(tier.game.slug)
    if page is None:
        raise Http404("This game has no page.")
    labels = {key: str(value) for key, value in page.labels.items()}
    config = {
        "tier": tier.pk,
        "api": {name: reverse(f"solo:{name}") for name in ("state", "spin", "gamble", "collect", "rotate")},
        "records": reverse("solo:records"),
        "lobby": reverse("rooms:game", args=[tier.game.slug]),
    }
    context = {"tier": tier, "game": tier.game, "labels": labels, "client_config": config,
               "state": _state(request.user, tier)}  # fmt: skip
    return render(request, page.template, context)


@require_GET
@login_required
def state(request: HttpRequest) -> JsonResponse:
    try:
        tier = services.playable_tier(request.GET.get("tier"))
    except services.SoloError as exc:
        return _refused(exc)
    return JsonResponse(_state(request.user, tier))


def _after(request, play: Play) -> JsonResponse:
    return JsonResponse({
        "play": play_json(play),
        "balance": _balance(request.user),
        "offer": services.offer_state(request.user),
        "pair": pair_json(services.current_pair(request.user)),
    })  # fmt: skip


@require_POST
@login_required
def spin(request: HttpRequest) -> JsonResponse:
    try:
        data = _body(request)
        play = services.solo_spin(
            user=request.user, tier_id=data.get("tier"), stake=data.get("stake"), request_key=data.get("key")
        )
    except services.SoloError as exc:
        return _refused(exc)
    return _after(request, play)


@require_POST
@login_required
def gamble(request: HttpRequest) -> JsonResponse:
    try:
        data = _body(request)
        play = services.solo_gamble(
            user=request.user,
            multiple=data.get("multiple"),
            pick=data.get("pick"),
            request_key=data.get("key"),
        )
    except services.SoloError as exc:
        response = _refused(exc)
        return response
    return _after(request, play)


@require_POST
@login_required
def collect(request: HttpRequest) -> JsonResponse:
    collected = services.solo_collect(user=request.user)
    return JsonResponse({"collected": collected, "balance": _balance(request.user), "offer": None})


@require_POST
@login_required
def rotate(request: HttpRequest) -> JsonResponse:
    try:
        data = _body(request)
        revealed, current = services.solo_rotate(user=request.user, client_seed=data.get("client_seed"))
    except services.SoloError as exc:
        return _refused(exc)
    return JsonResponse({
        "revealed": {"server_seed": bytes(revealed.server_seed).hex(), "hash": revealed.server_hash,
                     "client_seed": revealed.client_seed, "plays": revealed.next_nonce},
        "pair": pair_json(current),
        "offer": None,
    })  # fmt: skip


@login_required
def records(request: HttpRequest) -> HttpResponse:
    """战绩 of the one-player games: every play, newest first, each with its seed pair and nonce."""
    plays = Play.objects.filter(user=request.user).select_related("tier__game", "seed_pair").order_by("-pk")
    page = Paginator(plays, RECORDS_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "solo/records.html", {"page": page})


@login_required
def verify(request: HttpRequest, play_id: int) -> HttpResponse:
    """Recompute one play from its revealed server seed, client seed and nonce (staff see any play)."""
    play = get_object_or_404(Play.objects.select_related("seed_pair", "tier__game"), pk=play_id)
    if play.user_id != request.user.pk and not request.user.is_staff:
        raise Http404("No such play")
    check = services.verify_play(play)
    shown = {
        "recorded": json.dumps(play.result, ensure_ascii=False, sort_keys=True),
        "recomputed": json.dumps(check.get("result"), ensure_ascii=False, sort_keys=True),
        # What the browser recomputes on its own: the seed's hash and the play's first HMAC block.
        "browser": {
            "seed": check.get("server_seed", ""),
            "hash": play.seed_pair.server_hash,
            "message": f"{play.seed_pair.client_seed}:{play.nonce}:{play.kind}:0",
        },
    }
    return render(request, "solo/verify.html", {"play": play, "check": check, "shown": shown})
