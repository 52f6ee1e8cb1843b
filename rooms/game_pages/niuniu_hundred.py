"""百人牛牛's table page: templates/rounds/niuniu_hundred.html on the shared area-hands page
(static/js/area_hands.js, as 百人三公), and its words.

The banker panel's and the result lines' words are 百人三公's, the hands' categories 牛牛's;
this page adds the areas 福禄寿禧 and the banker's hand.
"""

from django.utils.translation import pgettext_lazy

from rooms.game_pages import GamePage, niuniu, sangong_hundred

SANGONG_ONLY = {"area_east", "area_south", "area_west", "area_north", "hand_banker"}

LABELS = {
    **{
        key: word
        for key, word in sangong_hundred.LABELS.items()
        if key not in SANGONG_ONLY and not key.startswith("cat_")
    },
    **{key: word for key, word in niuniu.LABELS.items() if key.startswith("cat_")},
    # The four areas 福禄寿禧 and the banker's hand 庄.
    "area_fu": pgettext_lazy("niuniu hundred", "Fortune"),
    "area_lu": pgettext_lazy("niuniu hundred", "Prosperity"),
    "area_shou": pgettext_lazy("niuniu hundred", "Longevity"),
    "area_xi": pgettext_lazy("niuniu hundred", "Joy"),
    "hand_banker": pgettext_lazy("niuniu hundred", "Banker"),
}

PAGE = GamePage(template="rounds/niuniu_hundred.html", labels=LABELS)
