"""Settings for the load benchmark's servers and workers: production settings, with three changes.

Used only by ``bench/load.py`` (``DJANGO_SETTINGS_MODULE=bench.load_settings``):

- ``DEBUG`` off, as in production (no query log kept per request), but static
  files are served by the plain storage, so the pages render without a
  ``collectstatic`` run (the bench loads the log-in page, never a static file);
  no HTTPS redirect, since the bench talks plain HTTP on 127.0.0.1.
- The bench users' passwords are hashed with a cheap hasher: a PBKDF2 check
  costs about 0.4 s of CPU here, so signing in 200 clients would take longer
  than the run. The log-in form and session are otherwise the production ones.
- Logging at WARNING, so the servers do not print a line per request.
"""

import os

os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ.setdefault("SECURE_SSL_REDIRECT", "0")
os.environ.setdefault("LOG_LEVEL", "WARNING")

from platform.settings import *  # noqa: E402,F403
from platform.settings import STORAGES  # noqa: E402

STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.MD5PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
