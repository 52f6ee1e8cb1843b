"""What the 血战 and 推倒胡 table pages share: templates/tables/mahjong.html, static/js/mahjong.js, their words.

Each variant's page module (xuezhan.py, tuidaohu.py) adds the names of its fan table's
patterns: one label per row, ``fan_<key>``, in the wording of that table.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.mahjong.fan import TABLES
from rooms.game_pages import GamePage

# Placeholders in braces ({n}) are filled in by the client.
LABELS = {
    "phase_exchange": pgettext_lazy("mahjong", "Exchange three"),
    "phase_void": pgettext_lazy("mahjong", "Choose the void suit"),
    "phase_turn": pgettext_lazy("mahjong", "Playing"),
    "phase_claim": pgettext_lazy("mahjong", "Claim window"),
    "phase_finished": _("Hand over"),
    "wall_left": pgettext_lazy("mahjong", "Wall {n}"),
    "wild": pgettext_lazy("mahjong", "Wild"),
    "flipped": pgettext_lazy("mahjong", "Flipped"),
    "dealer": pgettext_lazy("mahjong", "Dealer"),
    "tiles_in_hand": pgettext_lazy("mahjong", "{n} tiles"),
    "won": pgettext_lazy("mahjong", "Won"),
    "won_aside": pgettext_lazy("mahjong", "Already won"),
    "void_is": pgettext_lazy("mahjong", "Void: {suit}"),
    "chose": pgettext_lazy("mahjong", "Chosen"),
    "suit_m": pgettext_lazy("mahjong suit", "Characters"),
    "suit_p": pgettext_lazy("mahjong suit", "Dots"),
    "suit_s": pgettext_lazy("mahjong suit", "Bamboo"),
    "tile_m": _("{n} of Characters"),
    "tile_p": _("{n} of Dots"),
    "tile_s": _("{n} of Bamboo"),
    "honour_1": pgettext_lazy("mahjong tile", "East wind"),
    "honour_2": pgettext_lazy("mahjong tile", "South wind"),
    "honour_3": pgettext_lazy("mahjong tile", "West wind"),
    "honour_4": pgettext_lazy("mahjong tile", "North wind"),
    "honour_5": _("White dragon"),
    "honour_6": pgettext_lazy("mahjong tile", "Green dragon"),
    "honour_7": pgettext_lazy("mahjong tile", "Red dragon"),
    "direction_1": pgettext_lazy("mahjong", "Tiles pass to the next seat"),
    "direction_2": pgettext_lazy("mahjong", "Tiles pass across"),
    "direction_3": pgettext_lazy("mahjong", "Tiles pass to the previous seat"),
    "received": pgettext_lazy("mahjong", "Received"),
    "exchange_title": pgettext_lazy("mahjong", "Exchange three: pick three tiles of one suit"),
    "exchange_button": pgettext_lazy("mahjong", "Exchange these three"),
    "void_title": pgettext_lazy("mahjong", "Choose the suit you will play out (void)"),
    "void_button": pgettext_lazy("mahjong", "Void {suit}"),
    "win": pgettext_lazy("mahjong", "Win"),
    "self_win": pgettext_lazy("mahjong", "Self-drawn win"),
    "kong": pgettext_lazy("mahjong", "Kong"),
    "kong_tile": pgettext_lazy("mahjong", "Kong {tile}"),
    "pung": pgettext_lazy("mahjong", "Pung"),
    "pass": pgettext_lazy("mahjong", "Pass"),
    "discard": pgettext_lazy("mahjong", "Discard"),
    "discard_tile": pgettext_lazy("mahjong", "Discard {tile}"),
    "pick_discard": pgettext_lazy("mahjong", "Tap a tile, then Discard"),
    "claim_on": pgettext_lazy("mahjong", "{name} discarded {tile}"),
    "rob_on": pgettext_lazy("mahjong", "{name} adds {tile} to a kong"),
    "pay_kong_exposed": pgettext_lazy("mahjong", "Kong of a discard"),
    "pay_kong_concealed": pgettext_lazy("mahjong", "Concealed kong"),
    "pay_kong_added": pgettext_lazy("mahjong", "Added kong"),
    "pay_win": pgettext_lazy("mahjong", "Win on a discard"),
    "pay_self_drawn": pgettext_lazy("mahjong", "Self-drawn win"),
    "pay_pig": pgettext_lazy("mahjong", "Flower pig check"),
    "pay_ready": pgettext_lazy("mahjong", "Not-ready check"),
    "pay_refund": pgettext_lazy("mahjong", "Kong money returned"),
    "pay_transfer": pgettext_lazy("mahjong", "Call transfer"),
    "fan_total": pgettext_lazy("mahjong", "{n} fan"),
    "paid_by": pgettext_lazy("mahjong", "{payer} → {payee}: {amount}"),
    "payments": pgettext_lazy("mahjong", "Payments"),
    "no_payments": pgettext_lazy("mahjong", "No payments this hand"),
    "ended_won": _("Won"),
    "ended_drawn": _("Wall exhausted"),
    "you_win": _("You win"),
    "winner_is": _("{names} wins"),
    "nobody_won": pgettext_lazy("mahjong", "Nobody won"),
    "shown_hands": _("Hands shown"),
}


def page(table: str) -> GamePage:
    """The page of a variant whose fan table is ``table`` (and, for 血战, its other table: a tier option)."""
    words = dict(LABELS)
    for name, rows in TABLES.items():
        if name.startswith(table):
            for row in rows.rows:
                words[f"fan_{name}_{row.key}"] = pgettext_lazy(f"mahjong fan {name}", row.en)
    return GamePage(template="tables/mahjong.html", labels=words)
