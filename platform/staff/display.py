"""How staff pages show the structures the code stores (configs, outcomes, states, actions).

Admin pages showed a hand's config, outcome and state as one line of JSON or a
Python ``repr``. These helpers turn them into what a staff member reads: keys
the site has words for labelled with them, codes in words, cards as cards,
nested values as nested lists.
"""

import json
from collections.abc import Mapping
from typing import Any

from django import forms
from django.db import models
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext_lazy

# Words for the keys of the platform's own data that staff pages show: a hand's config as the
# platform deals it, its players and its outcome. A game's own options and facts are the game's
# to word (its presentation's facts); its option keys are shown as the codes staff type in a
# tier's options.
KEY_LABELS = {
    "amount": pgettext_lazy("game data", "amount"),
    "base_stake": pgettext_lazy("game data", "base stake"),
    "carried": pgettext_lazy("game data", "carried"),
    "cards": pgettext_lazy("game data", "cards"),
    "deltas": pgettext_lazy("game data", "result before fee"),
    "first_seat": pgettext_lazy("game data", "first seat"),
    "is_bot": pgettext_lazy("game data", "bot"),
    "limited": pgettext_lazy("game data", "limited liability"),
    "name": pgettext_lazy("game data", "name"),
    "net": pgettext_lazy("game data", "result after fee"),
    "next_first_seat": pgettext_lazy("game data", "next first seat"),
    "phase": pgettext_lazy("game data", "phase"),
    "rake": pgettext_lazy("game data", "service fee"),
    "rake_bps": pgettext_lazy("game data", "service fee (bps)"),
    "room_factor": pgettext_lazy("game data", "room factor"),
    "seat": pgettext_lazy("game data", "seat"),
    "turn": pgettext_lazy("game data", "turn"),
    "turn_seconds": pgettext_lazy("game data", "seconds per turn"),
    "user": pgettext_lazy("game data", "user id"),
    "variant": pgettext_lazy("game data", "variant"),
    "winners": pgettext_lazy("game data", "winning seats"),
}
# The config keys the platform itself writes when it deals a hand; the rest are the game's options.
PLATFORM_CONFIG_KEYS = ("base_stake", "room_factor", "rake_bps", "first_seat")

# Words for the values a hand's phase takes in every game.
VALUE_LABELS = {
    "finished": pgettext_lazy("game phase", "finished"),
    "playing": pgettext_lazy("game phase", "playing"),
}

# The actions of the games' logs (a move's ``type``), as the table clients word their buttons.
ACTION_LABELS = {
    "bet": pgettext_lazy("hand action", "bet"),
    "bid": pgettext_lazy("hand action", "bid"),
    "call": pgettext_lazy("hand action", "call"),
    "check": pgettext_lazy("hand action", "check"),
    "compare": pgettext_lazy("hand action", "compare with"),
    "double": pgettext_lazy("hand action", "double"),
    "fold": pgettext_lazy("hand action", "fold"),
    "look": pgettext_lazy("hand action", "look at the cards"),
    "pass": pgettext_lazy("hand action", "pass"),
    "play": pgettext_lazy("hand action", "play"),
    "raise": pgettext_lazy("hand action", "raise"),
    "rob": pgettext_lazy("hand action", "rob"),
}

SUITS = {"s": "♠", "h": "♥", "c": "♣", "d": "♦"}
JOKERS = {"XJ": pgettext_lazy("card", "small joker"), "DJ": pgettext_lazy("card", "big joker")}


def card_text(card: str) -> str:
    """``"Td"`` → ``"10♦"``, ``"XJ"`` → 小王; anything else as it is."""
    if card in JOKERS:
        return str(JOKERS[card])
    if len(card) == 2 and card[1] in SUITS:
        return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]
    return card


def _is_cards(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, str) and len(v) == 2 for v in value)


def action_text(action: Any) -> str:
    """One action of a hand's log in words: ``{"type": "play", "cards": ["Kc"]}`` → 出牌 K♣."""
    if not isinstance(action, Mapping) or "type" not in action:
        return plain_text(action)
    words = [str(ACTION_LABELS.get(action["type"], action["type"]))]
    for key, value in action.items():
        if key == "type":
            continue
        if key == "cards" and _is_cards(value):
            words.append(" ".join(card_text(card) for card in value))
        elif key == "target":
            words.append(gettext("seat %(index)s") % {"index": value})
        else:
            words.append(f"{KEY_LABELS.get(key, key)} {plain_text(value)}")
    return " ".join(words)


def _label(key: Any) -> str:
    return str(KEY_LABELS.get(key, key)) if isinstance(key, str) else str(key)


def plain_text(value: Any) -> str:
    """A value on one line, for a table cell: cards as cards, codes in words, nested values in brackets."""
    if value is None:
        return "–"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if isinstance(value, str):
        return str(VALUE_LABELS.get(value, value))
    if _is_cards(value):
        return " ".join(card_text(card) for card in value)
    if isinstance(value, list):
        return "[" + ", ".join(plain_text(v) for v in value) + "]"
    if isinstance(value, Mapping):
        if "type" in value and isinstance(value["type"], str) and value["type"] in ACTION_LABELS:
            return action_text(value)
        return "{" + "; ".join(f"{_label(k)}: {plain_text(v)}" for k, v in value.items()) + "}"
    return str(value)


def option_codes(options: Mapping) -> SafeString:
    """A game's options as the codes staff type in a tier's options: ``key=value`` pairs, as code."""
    if not options:
        return format_html("{}", "–")
    pairs = " · ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in options.items())
    return format_html('<code class="options">{}</code>', pairs)


def readable(value: Any) -> SafeString:
    """A stored structure as nested HTML: a mapping as labelled rows, a list item by item, cards as cards.

    A value that is already HTML (``option_codes``, a fact said in words) is shown as it is.
    """
    if isinstance(value, SafeString):
        return value
    if isinstance(value, Mapping) and value:
        rows = format_html_join(
            "", "<dt>{}</dt><dd>{}</dd>", ((_label(k), readable(v)) for k, v in value.items())
        )
        return format_html('<dl class="readable">{}</dl>', rows)
    if (
        isinstance(value, list)
        and value
        and not _is_cards(value)
        and any(isinstance(v, list | Mapping) for v in value)
    ):
        items = format_html_join("", "<li>{}</li>", ((readable(v),) for v in value))
        return format_html('<ol class="readable" start="0">{}</ol>', items)
    return format_html("{}", plain_text(value))


class ReadableMedia:
    """``Media`` for an admin showing ``readable`` values: the stylesheet that lays them out."""

    css = {"all": ["css/admin-readable.css"]}


class IndentedJSONEncoder(json.JSONEncoder):
    """JSON laid out one key a line, as an edit form's textarea shows it (not one long line)."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs["indent"] = 2
        super().__init__(*args, **kwargs)


# ``formfield_overrides`` of an admin whose JSON fields staff edit.
READABLE_JSON_FIELDS = {
    models.JSONField: {
        "encoder": IndentedJSONEncoder,
        "widget": forms.Textarea(attrs={"rows": 8, "cols": 60}),
    },
}


# Django names the permissions it makes "Can add <model>" in English when it creates their rows.
DEFAULT_PERMISSIONS = {
    "add": pgettext_lazy("permission", "Can add %(model)s"),
    "change": pgettext_lazy("permission", "Can change %(model)s"),
    "delete": pgettext_lazy("permission", "Can delete %(model)s"),
    "view": pgettext_lazy("permission", "Can view %(model)s"),
}


def permission_label(permission) -> str:
    """A permission as a choice reads it: app | model | what it allows, all in the active language.

    Django stores a permission's name in English when it creates the row ("Can add hand"), and
    the admin lists those names; the model's and the app's names are translated, so the
    default permissions are worded again from them, and a project's own permission (named by
    a msgid, "Can deposit, withdraw and adjust coins") is looked up in the catalogue.
    """
    content_type = permission.content_type
    model = content_type.model_class()
    action, _sep, model_name = permission.codename.partition("_")
    if model is not None and action in DEFAULT_PERMISSIONS and model_name == model._meta.model_name:
        allows = DEFAULT_PERMISSIONS[action] % {"model": model._meta.verbose_name}
    else:
        allows = gettext(permission.name)
    return f"{content_type} | {allows}"


class PermissionLabels:
    """An admin mixin: its permission pickers name each permission with ``permission_label``."""

    def formfield_for_manytomany(self, db_field, request, **kwargs):
        field = super().formfield_for_manytomany(db_field, request, **kwargs)
        if field is not None and db_field.name in ("permissions", "user_permissions"):
            field.label_from_instance = permission_label
            field.queryset = field.queryset.select_related("content_type")
        return field
