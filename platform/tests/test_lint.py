"""The code passes the project's linter and formatter (settings in pyproject.toml).

Part of the test suite so that the README's test command, and therefore CI,
refuses an unused import, a shadowed name or a misplaced ``noqa`` the same way
it refuses a failing test; ruff is pinned in requirements.txt.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _ruff(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_ruff_check_finds_nothing():
    result = _ruff("check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_changes_nothing():
    result = _ruff("format", "--check")
    assert result.returncode == 0, result.stdout + result.stderr
