"""Pure rules engines, one package per game, and the registry that names them.

Nothing in ``games/`` imports Django. Each game package exposes ``GAME``
(a :class:`games.base.GameInfo`) and registers it on import; ``REGISTRY`` maps
its slug to it.
"""

from games.base import GameInfo

REGISTRY: dict[str, GameInfo] = {}


def register(info: GameInfo) -> GameInfo:
    """Add a game to ``REGISTRY``; a slug may be registered once."""
    if info.slug in REGISTRY:
        raise ValueError(f"game {info.slug!r} registered twice")
    REGISTRY[info.slug] = info
    return info


# Each game package registers itself on import; add new games to this list.
import games.doudizhu  # noqa: E402, F401
import games.texas  # noqa: E402, F401
import games.zhajinhua  # noqa: E402, F401
