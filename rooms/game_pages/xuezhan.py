"""血战到底's table page: the shared mahjong page (rooms/game_pages/mahjong.py) with its two fan tables."""

from rooms.game_pages.mahjong import page

PAGE = page("xuezhan")
