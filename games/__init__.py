"""Pure rules engines, one package per game, and the registry that names them.

Nothing in ``games/`` imports Django. Each game package exposes ``GAME``
(a :class:`games.base.GameInfo`); ``REGISTRY`` maps its slug to it.
"""

from games.base import GameInfo

REGISTRY: dict[str, GameInfo] = {}


def register(info: GameInfo) -> GameInfo:
    if info.slug in REGISTRY:
        raise ValueError(f"game {info.slug!r} registered twice")
    REGISTRY[info.slug] = info
    return info


def _load() -> None:
    # Each game package registers itself on import; list them here.
    for module in ("games.doudizhu",):
        try:
            __import__(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


_load()
