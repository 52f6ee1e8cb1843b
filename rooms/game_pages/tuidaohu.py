"""广东推倒胡's table page: the shared mahjong page (rooms/game_pages/mahjong.py) with its fan table."""

from rooms.game_pages.mahjong import page

PAGE = page("tuidaohu")
