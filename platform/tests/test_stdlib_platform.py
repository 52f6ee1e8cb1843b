"""The project package ``platform`` must not break the standard library's ``platform``."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_stdlib_api_through_project_package():
    import platform

    assert platform.__file__.endswith("platform/__init__.py")
    assert platform.system() == "Linux" or platform.system()
    assert platform.python_version() == ".".join(map(str, sys.version_info[:3]))
    assert platform.machine()
    assert platform.uname().system == platform.system()


def test_libraries_that_call_platform_import_from_project_root():
    # A fresh interpreter whose first import of ``platform`` finds the project package.
    script = (
        "import platform, uuid, django.db.backends.postgresql.base, channels_redis.core, celery, pytest;"
        "assert platform.__file__.endswith('platform/__init__.py'), platform.__file__;"
        "print(platform.system(), platform.python_version(), uuid.uuid4().version)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    system, version, uuid_version = result.stdout.split()
    assert system == "Linux"
    assert version == ".".join(map(str, sys.version_info[:3]))
    assert uuid_version == "4"
