#!/usr/bin/env python3
"""One entry point for a fresh clone: ``python3 dev.py`` serves, ``python3 dev.py test`` tests.

Only the Python standard library is used here, because this runs before the
virtual environment exists. It creates ``.venv`` in the checkout, installs
requirements.txt into it (again only when that file changes), and then runs
everything through ``.venv/bin/python -m ...`` from the project root, so the
project's ``platform`` package is the one that gets imported.
"""

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".requirements.sha256"


def run(*args: str, env: dict | None = None) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run(args, cwd=ROOT, check=True, env=env)


def ensure_venv() -> None:
    if not PYTHON.exists():
        print(f"Creating the virtual environment in {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    wanted = hashlib.sha256((ROOT / "requirements.txt").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        run(str(PYTHON), "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        run(str(PYTHON), "-m", "pip", "install", "--quiet", "-r", "requirements.txt")
        STAMP.write_text(wanted)


def serve(argv: list[str]) -> None:
    host = os.environ.get("HOST", "127.0.0.1")
    port = os.environ.get("PORT", "8000")
    run(str(PYTHON), "manage.py", "migrate", "--noinput")
    run(str(PYTHON), "manage.py", "load_demo")
    print(f"\nOpen http://{host}:{port}/ in a browser (Ctrl-C stops the server).\n", flush=True)
    run(
        str(PYTHON),
        "-m",
        "uvicorn",
        "platform.asgi:application",
        "--host",
        host,
        "--port",
        port,
        "--lifespan",
        "off",
        *argv,
    )


# import-linter's command, run by the venv's Python from the project root: its console script
# would put the venv's bin first on sys.path, where ``platform`` is the standard library's module.
LINT_IMPORTS = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True))"


def lint_imports() -> int:
    """Check the import contracts of pyproject.toml ([tool.importlinter]); 0 when all are kept."""
    return subprocess.run([str(PYTHON), "-c", LINT_IMPORTS], cwd=ROOT).returncode


def test(argv: list[str]) -> int:
    """Check the import contracts, then run the test suite (a broken contract stops here)."""
    code = lint_imports()
    if code:
        return code
    # A run of its own under Redis: a server on the same Redis never hears the tests' tables.
    env = {**os.environ, "REDIS_PREFIX": os.environ.get("REDIS_PREFIX") or f"cardroom-test-{os.getpid()}"}
    # Four test processes by default (pytest-xdist; one that runs out of tests takes some of
    # another's): most of the suite's time is browsers and servers waiting, not the cores.
    # TEST_WORKERS=N for N, TEST_WORKERS=0 for one process.
    workers = os.environ.get("TEST_WORKERS") or "4"
    parallel = [] if workers == "0" or "-n" in argv else ["-n", workers, "--dist", "worksteal"]
    return subprocess.run([str(PYTHON), "-m", "pytest", *parallel, *argv], cwd=ROOT, env=env).returncode


def main() -> int:
    command, *argv = sys.argv[1:] or ["serve"]
    ensure_venv()
    if command == "serve":
        try:
            serve(argv)
        except KeyboardInterrupt:
            pass
        return 0
    if command == "test":
        return test(argv)
    if command == "lint-imports":
        return lint_imports()
    print(f"unknown command {command!r}: use 'serve', 'test' or 'lint-imports'", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
