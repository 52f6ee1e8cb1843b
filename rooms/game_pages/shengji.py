"""升级's table page: templates/tables/shengji.html with static/js/shengji.js, and the words it adds."""

from django.utils.translation import gettext_lazy as _

from rooms.game_pages import GamePage

# Placeholders in braces ({n}) are filled in by the client.
LABELS = {
    "phase_dealing": _("Dealing ({n}/25)"),
    "phase_overcall": _("Overcalling the trump"),
    "phase_bury": _("Burying the bottom"),
    "phase_play": _("Playing tricks"),
    "declarer": _("Declarer"),
    "trump": _("Trump"),
    "no_trump": _("No trump"),
    "hand_level": _("Level {level}"),
    "our_level": _("Our side: {level}"),
    "their_level": _("Their side: {level}"),
    "defender_points": _("Defenders' points"),
    "cards_left": _("{n} cards"),
    "declare": _("Declare {cards}"),
    "overcall": _("Overcall {cards}"),
    "pass": _("Do not overcall"),
    "bury": _("Bury ({n}/8)"),
    "play": _("Play"),
    "clear": _("Clear"),
    "bottom": _("Bottom cards"),
    "last_trick": _("Last trick"),
    "failed_throw": _("Throw failed: {cards}"),
    "big_joker": _("Big joker"),
    "small_joker": _("Small joker"),
    "declarers_rise": _("The declarers rise {n} levels"),
    "defenders_rise": _("The defenders take over and rise {n} levels"),
    "defenders_take_over": _("The defenders take over"),
    "total_points": _("Defenders' total {points} (bottom ×{multiple})"),
    "select_hint_playable": _("Only the cards you may play now can be chosen."),
}

PAGE = GamePage(template="tables/shengji.html", labels=LABELS)
