"""Settings, read from the environment in this one place.

Every variable has an embedded default so that a fresh clone runs with no
service at all: SQLite, the in-memory channel layer and Celery tasks run
in-process. Set DATABASE_URL and REDIS_URL to run on PostgreSQL and Redis.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def env_float(name: str, default: float | None = None) -> float | None:
    value = os.environ.get(name)
    return float(value) if value else default


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "dev-only-insecure-key-set-SECRET_KEY-in-production-0123456789")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "platform.staff.third_party_apps.AxesConfig",  # django-axes, named in the admin's language
    # The second factor for staff who move money (TOTP authenticators, one-time backup codes).
    "django_otp",
    "platform.staff.third_party_apps.OtpTotpConfig",  # django_otp.plugins.otp_totp
    "platform.staff.third_party_apps.OtpStaticConfig",  # django_otp.plugins.otp_static
    # The audit trail of staff changes.
    "auditlog",
    "platform.accounts",
    "wallets",
    "rooms",
    "rooms.tables",
    "rooms.rounds",
    "rooms.solo",
    "platform.staff",
]

# What the games' app tells the apps below it, named here so that they import nothing of it
# (import-linter's contracts): the sources of the ledger's references (wallets.sources) and the
# reader of the game catalogue a player's profile lists (platform.accounts.selectors).
LEDGER_SOURCES = ["rooms.ledger_source.RoomsLedgerSource"]
GAME_CATALOGUE = "rooms.selectors.game_catalogue"

MIDDLEWARE = [
    # First: the load balancer's /health/ is answered whatever the Host, without the HTTPS redirect.
    "platform.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The browser's device cookie (platform/accounts/devices.py), recorded hashed at each log-in.
    "platform.accounts.devices.DeviceCookieMiddleware",
    # request.user.is_verified(): whether this session passed the second factor.
    "django_otp.middleware.OTPMiddleware",
    # Staff changes made in the admin are written to the audit trail with their actor.
    "platform.staff.audit.StaffAuditMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into a 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "platform.urls"
WSGI_APPLICATION = "platform.wsgi.application"
ASGI_APPLICATION = "platform.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Serialise writers instead of failing with "database is locked" under threads.
    DATABASES["default"].setdefault("OPTIONS", {})
    DATABASES["default"]["OPTIONS"].update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
# A kept connection (DB_CONN_MAX_AGE) is checked before each request or socket call reuses it,
# so none fails on a connection the database ended meanwhile (a restart, a failover).
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "rooms:lobby"
LOGOUT_REDIRECT_URL = "rooms:lobby"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Failed log-ins are throttled (django-axes): see "Abuse limits" below.

LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", _("Simplified Chinese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = DEBUG

REDIS_URL = os.environ.get("REDIS_URL", "")

# One prefix for every key the project writes to Redis (channel layer, Celery, cache), so that
# two deployments or test runs can share a Redis database. Each pytest-xdist worker (gw0, gw1…) of
# a parallel test run, and every server or Celery worker its tests start, adds its name: the same
# table ids in the workers' own test databases never share a channel.
REDIS_PREFIX = os.environ.get("REDIS_PREFIX", "cardroom")
if os.environ.get("PYTEST_XDIST_WORKER"):
    REDIS_PREFIX += "-" + os.environ["PYTEST_XDIST_WORKER"]

if REDIS_URL:
    # Channels' layer, for Channels' own API. The table and round sockets do not use it: a
    # table's changes reach them through rooms/transport.py (redis-py's asyncio pub/sub).
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": f"{REDIS_PREFIX}:asgi"},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# Celery: a Redis broker when REDIS_URL is set, otherwise tasks run in-process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL or env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
# Workers keep their database connections by DB_CONN_MAX_AGE (see platform/celery_app.py).
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1_000_000)
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "cardroom")
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 300),
    "global_keyprefix": f"{REDIS_PREFIX}:celery:",
}
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULE: dict = {
    # The table runtime's clock: overdue deadlines, bots filling seats, lost settlements.
    "tables-tick": {"task": "tables.tick", "schedule": 1.0},
    # The round runtime's clock: betting windows, reveals, payouts lost on the way.
    "rounds-tick": {"task": "rounds.tick", "schedule": 1.0},
    # Nightly ledger reconciliation at 03:00 site time (CELERY_TIMEZONE is the site's zone).
    "wallets-reconcile": {"task": "wallets.reconcile", "schedule": crontab(hour=3, minute=0)},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Card room API",
    "DESCRIPTION": "The signed-in player's profile, levels, wallet, and the game catalogue.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# The name authenticator apps show for the staff second factor (django-otp TOTP).
OTP_TOTP_ISSUER = os.environ.get("OTP_TOTP_ISSUER", "Card room")

# --- Abuse limits: trusted proxies, log-in lockout, sign-up limits, the sign-up grant ---------
# Addresses or networks (CIDR) of the reverse proxies in front of the site. Only a request
# whose peer is one of them has its client read from X-Forwarded-For (the right-most address
# no trusted proxy owns, platform/accounts/addresses.py); from any other peer the header is
# ignored, so a client cannot pick the address its limits are counted under. Empty (the
# default): forwarded addresses are never believed.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])
# Log-in lockout (platform/accounts/lockout.py): AXES_FAILURE_LIMIT wrong passwords lock that
# username from that address; LOGIN_ADDRESS_FAILURE_LIMIT lock the address for every username;
# both for LOGIN_LOCKOUT_MINUTES. A locked username still logs in from other addresses.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int("LOGIN_ADDRESS_FAILURE_LIMIT", 30)
AXES_COOLOFF_TIME = env_int("LOGIN_LOCKOUT_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "platform.accounts.lockout.LoginLockoutHandler"
AXES_CLIENT_IP_CALLABLE = "platform.accounts.addresses.limit_address"
AXES_RESET_ON_SUCCESS = True
# A page that says why the log-in was refused and for how long (translated, in the site chrome).
AXES_LOCKOUT_CALLABLE = "platform.accounts.views.lockout"
# Sign-ups per address (an IPv6 /64 counts as one) within SIGNUP_WINDOW_MINUTES; 0: no limit.
SIGNUP_PER_ADDRESS = env_int("SIGNUP_PER_ADDRESS", 3)
SIGNUP_WINDOW_MINUTES = env_int("SIGNUP_WINDOW_MINUTES", 60)
# The sign-up grant, paid from the cashier: SIGNUP_GRANT_COINS in all, SIGNUP_GRANT_FIRST of
# it at sign-up (enough for the lowest tiers), the rest in SIGNUP_GRANT_PARTS equal parts,
# one for every SIGNUP_GRANT_PART_HANDS hands the player has played to the end
# (platform/accounts/grants.py). SIGNUP_GRANT_PARTS=0 pays the whole grant at sign-up.
SIGNUP_GRANT_COINS = env_int("SIGNUP_GRANT_COINS", 10000)
SIGNUP_GRANT_FIRST = env_int("SIGNUP_GRANT_FIRST", 2000)
SIGNUP_GRANT_PARTS = env_int("SIGNUP_GRANT_PARTS", 8)
SIGNUP_GRANT_PART_HANDS = env_int("SIGNUP_GRANT_PART_HANDS", 10)
# The device cookie (platform/accounts/devices.py): a random id per browser, kept only hashed
# against the accounts that log in with it; it lives DEVICE_COOKIE_DAYS after the last log-in.
DEVICE_COOKIE_NAME = "device"
DEVICE_COOKIE_DAYS = env_int("DEVICE_COOKIE_DAYS", 400)
# --- end of abuse limits ----------------------------------------------------------------------

# The embedded timer loop inside the ASGI process (off when a Celery beat runs the timers).
TABLE_TIMERS = os.environ.get("TABLE_TIMERS", "shown" if REDIS_URL else "all")
# Table runtime timing (seconds): how long bots and 托管 seats "think", the grace before
# an away player is played for, how long a lone player waits before bots sit down, and
# how often the in-process timer loop looks for overdue deadlines.
TABLE_AUTO_DELAY = float(os.environ.get("TABLE_AUTO_DELAY", "0.8"))
TABLE_DISCONNECT_GRACE = float(os.environ.get("TABLE_DISCONNECT_GRACE", "5"))
TABLE_BOT_WAIT = float(os.environ.get("TABLE_BOT_WAIT", "3"))
TABLE_TIMER_INTERVAL = float(os.environ.get("TABLE_TIMER_INTERVAL", "0.25"))
# Threads per ASGI process for the table and round sockets' database calls, shared by the
# tables (each table's calls run one at a time, in order); each holds one connection.
TABLE_DB_THREADS = int(os.environ.get("TABLE_DB_THREADS", "8"))
# HTTP requests per ASGI process that compute their response at once, each on a thread and a
# database connection of its own, closed when it is done (platform/asgi.py); the others wait.
HTTP_REQUEST_THREADS = env_int("HTTP_REQUEST_THREADS", 8)
# Tables whose play (the rows of its last change) each process keeps while their hand is
# played, so that the next change need not read them back (rooms/tables/play.py).
TABLE_STATE_CACHE = int(os.environ.get("TABLE_STATE_CACHE", "1024"))
# Between hands, a player whose page has been gone this long stands up (seconds).
TABLE_AWAY_LEAVE = float(os.environ.get("TABLE_AWAY_LEAVE", "60"))
# Between hands, once another human is ready, a player who has not pressed ready this long after
# the last hand ended (or after sitting down) stands up (seconds).
TABLE_READY_LEAVE = env_float("TABLE_READY_LEAVE", 30.0)
# How often an open table or round socket asks whether its session still signs its user in
# (logged out, password changed, account disabled: the socket is closed with 4401), seconds.
TABLE_SESSION_RECHECK = float(os.environ.get("TABLE_SESSION_RECHECK", "30"))
# How long a table socket counts its player present unless it renews that (seconds): a seat
# whose sockets died with their process goes away once it lapses (the tick looks).
TABLE_PRESENCE_LEASE = env_float("TABLE_PRESENCE_LEASE", 90.0)
# Table and round sockets one user may hold open in one ASGI process (more are closed with 4429).
TABLE_SOCKETS_PER_USER = int(os.environ.get("TABLE_SOCKETS_PER_USER", "8"))
# 携带: a seat carries this many times its tier's minimum into each hand (unless the tier sets its
# own amount), or the minimum when its wallet holds less; the rest stays in the wallet.
TABLE_CARRY_MULTIPLE = env_int("TABLE_CARRY_MULTIPLE", 10)
# Banker-game rounds: a table nobody has watched for this long opens no new round.
ROUNDS_IDLE_SECONDS = float(os.environ.get("ROUNDS_IDLE_SECONDS", "30"))
# An open socket that has not been heard of for this long (its process died) stops counting.
ROUNDS_VIEWER_STALE_SECONDS = float(os.environ.get("ROUNDS_VIEWER_STALE_SECONDS", "120"))
# Overrides of every tier's phase lengths (unset: the tier's options decide); for demos and tests.
ROUNDS_BET_SECONDS = env_float("ROUNDS_BET_SECONDS")
ROUNDS_REVEAL_MS = env_float("ROUNDS_REVEAL_MS")
ROUNDS_RESULT_SECONDS = env_float("ROUNDS_RESULT_SECONDS")

if not DEBUG:
    if not os.environ.get("SECRET_KEY"):
        # Never run production on the development key that sits in this file.
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY to a long random string in the environment.")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
