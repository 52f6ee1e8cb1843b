"""多财多福's page: templates/solo/duocaiduofu.html with static/js/duocaiduofu.js, and the words it adds.

The solo runtime (rooms/solo) serves the page and its API; these are the
symbols, the double-up's cards and the lines the client writes.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage

# Placeholders in braces ({amount}) are filled in by the client.
LABELS = {
    # The symbols (福 财 元宝 铜钱 灯笼 鞭炮) and the double-up's cards (童男 童女).
    "sym_fu": pgettext_lazy("fortune lines", "Fortune"),
    "sym_cai": pgettext_lazy("fortune lines", "Wealth"),
    "sym_ingot": pgettext_lazy("fortune lines", "Gold ingot"),
    "sym_coin": pgettext_lazy("fortune lines", "Copper coin"),
    "sym_lantern": pgettext_lazy("fortune lines", "Lantern"),
    "sym_firecracker": pgettext_lazy("fortune lines", "Firecrackers"),
    "pick_boy": pgettext_lazy("fortune lines", "Boy"),
    "pick_girl": pgettext_lazy("fortune lines", "Girl"),
    "no_win": _("No win this time."),
    "you_win": _("You win {amount}"),
    "line_win": _("Line {line}: {symbol} ×{multiple}"),
    "gamble_won": _("{card}! You win {amount}"),
    "gamble_lost": _("{card}: the stake {amount} is lost"),
    "gamble_offer": _("Double {amount}? Double-ups won: {wins}/{max}"),
    "gamble_stake": _("Stake {amount}"),
    "collect_in": _("Collected automatically in {seconds} s"),
    "collected": _("Collected."),
    "auto_left": _("Automatic: {left} spins left"),
    "auto_stopped": _("Automatic spins stopped."),
    "rotated": _("Revealed server seed: {seed}"),
    "spin": _("Spin"),
    "double": _("Double-up"),
    "error": _("Something went wrong; try again."),
}

PAGE = GamePage(template="solo/duocaiduofu.html", labels=LABELS)
