"""通比牛牛's table page: the 牛牛 page (templates/tables/niuniu.html, static/js/niuniu.js), whose view has no bank."""

from rooms.game_pages import GamePage
from rooms.game_pages.niuniu import LABELS

PAGE = GamePage(template="tables/niuniu.html", labels=LABELS)
