"""The Django project package, which also stands in for the standard library's ``platform``.

The user asked for a top-level package named ``platform``. Python resolves
``import platform`` to the first match on ``sys.path``, so whenever the project
root is importable this package shadows the standard-library module that
Django's PostgreSQL backend, ``uuid``, pytest and channels-redis call
(``platform.system()``, ``platform.python_version()``, ...). To keep those
working, load the real standard-library module from its file and re-export
its whole API here. ``platform.tests.test_stdlib_platform`` proves it.
"""

import importlib.util as _importlib_util
import sysconfig as _sysconfig
from pathlib import Path as _Path


def _load_stdlib_platform():
    path = _Path(_sysconfig.get_paths()["stdlib"]) / "platform.py"
    spec = _importlib_util.spec_from_file_location("_stdlib_platform", path)
    module = _importlib_util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_stdlib_platform = _load_stdlib_platform()
globals().update({name: value for name, value in vars(_stdlib_platform).items() if not name.startswith("__")})
__all__ = [name for name in vars(_stdlib_platform) if not name.startswith("_")]
