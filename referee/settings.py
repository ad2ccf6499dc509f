"""Settings for the referee assistant, read from the environment.

Local runs use the embedded PostgreSQL (``referee.embedded_pg``) unless
``DATABASE_URL`` is set; deployments set ``DATABASE_URL``, ``SECRET_KEY``,
``ALLOWED_HOSTS`` and ``DEBUG=false``.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import secrets
import tempfile
import time
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("REFEREE_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def local_secret_key(var_dir: Path) -> str:
    """A random signing key made on a machine's first local run and kept in ``var/`` (0600),
    so sessions survive restarts and no key ever sits in the repository."""
    path = var_dir / "secret_key"
    if not path.exists():
        var_dir.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=var_dir, prefix=".secret_key-")  # mkstemp creates it 0600
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(secrets.token_urlsafe(50))
            # link() never replaces: when two processes start at once, the first key wins.
            with contextlib.suppress(FileExistsError):
                os.link(tmp, path)
        finally:
            os.unlink(tmp)
    return path.read_text().strip()


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = local_secret_key(VAR_DIR)
# What names the code this server renders with, in every kept page's and fragment's cache
# key: a deployment sets REFEREE_RELEASE to its build (the image's tag or commit), so all
# its workers share what they keep and the next release never serves this one's. A local
# run without it takes the start time: a server restarted on changed code starts afresh.
RELEASE = os.environ.get("REFEREE_RELEASE", "") or f"local-{time.time_ns()}"
# How often an open live stream asks again whether its reader may still read it (seconds;
# it asks before every change it sends as well).
LIVE_RECHECK_S = float(os.environ.get("LIVE_RECHECK_S", "10"))
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
# The request header (as in request.META) carrying the visitor's address when a trusted proxy
# sets it (deploy/nginx.conf sets X-Real-IP); sign-in throttling counts per address.
CLIENT_ADDRESS_HEADER = os.environ.get("CLIENT_ADDRESS_HEADER", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",  # the built-in widget templates, for the project's form renderer
    "django_htmx",
    "template_partials",
    "pgtrigger",
    "csp",
    "referee.campaigns",
    "referee.fleet",
    "referee.play",
    "referee.boobytraps",
    "referee.terrain",
    "referee.shipboard",
    "referee.logistics",
    "referee.telemissiles",
    "referee.sheets",
    "referee.imports",
    "referee.maps",
    "referee.battles",
    "referee.clock",
    "referee.desk",
    "referee.diary",
    "referee.dashboard",
    "referee.demo",
    "rules",
]

MIDDLEWARE = [
    # Restarts the embedded PostgreSQL when it died (local runs only): the one middleware
    # before SecurityMiddleware. Nothing answers a request before the rest of the stack.
    "referee.middleware.EmbeddedDatabaseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # django-csp's, with the policy built once (referee/middleware.py).
    "referee.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # Answers a reload of a cached page with 304 Not Modified (its ETag: referee/play/kept.py).
    "django.middleware.http.ConditionalGetMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "referee.urls"
# Database sessions that take only a well-formed key from the cookie (referee/sessions.py).
SESSION_ENGINE = "referee.sessions"
WSGI_APPLICATION = "referee.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "builtins": ["template_partials.templatetags.partials", "referee.play.templatetags.fragments"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    }
]


FORM_RENDERER = "referee.forms.FormRenderer"


def _style_hashes() -> list[str]:
    """The one inline style the product writes (each map's SVG <style>), allowed by its hash:
    no nonce, so a page kept whole never carries a stale one."""
    # Plain strings in a module that imports nothing, read while the settings load.
    from referee.maps.svg_styles import HEX_STYLE, STAR_STYLE, STYLE

    return [
        f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
        for s in (STYLE, HEX_STYLE, STAR_STYLE)
    ]


# Content-Security-Policy on every response (django-csp): scripts and styles only from this
# server, no inline script at all, no inline style but the maps' (by hash), no eval.
CSP_STYLE_HASHES = _style_hashes()
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", *CSP_STYLE_HASHES],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Rendered panels, kept per campaign version, role and user (referee/play/fragments.py).
# Files on the host: every worker of a server shares them, and nothing but the key keeps
# them right, so servers on other hosts keep their own. FRAGMENT_CACHE_DIR moves them
# where the server can write (the container's image sets one under /tmp).
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "fragments": {
        "BACKEND": "referee.play.fragments.FileCache",
        "LOCATION": os.environ.get("FRAGMENT_CACHE_DIR", str(VAR_DIR / "cache" / "fragments")),
        "TIMEOUT": 24 * 3600,
        "OPTIONS": {"MAX_ENTRIES": 5000},
    },
}


def database_settings() -> dict:
    url = os.environ.get("DATABASE_URL")
    if url:
        return dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    # Imported only here: a server with DATABASE_URL set never loads the embedded one.
    from referee import embedded_pg

    return embedded_pg.django_database(VAR_DIR / "pg")


def migrate_database_settings() -> dict | None:
    """Who runs migrations: the role that owns the tables, while the app runs as a role
    that owns nothing (``MIGRATE_DATABASE_URL``; with the embedded server, its owner role).
    None: migrations run as the app's own role (a single-role deployment)."""
    url = os.environ.get("MIGRATE_DATABASE_URL")
    if url:
        return dj_database_url.parse(url)
    if os.environ.get("DATABASE_URL"):
        return None
    from referee import embedded_pg  # only without DATABASE_URL, like database_settings()

    return embedded_pg.django_database(VAR_DIR / "pg", role=embedded_pg.OWNER_ROLE)


DATABASES = {"default": database_settings()}
MIGRATE_DATABASE = migrate_database_settings()
# The role the app runs as, which migrations grant row access to (and nothing more).
APP_DATABASE_ROLE = DATABASES["default"].get("USER", "")
# The key of the turn log's hash chain. Set it to keep logs verifiable across a change of
# SECRET_KEY; by default one is derived from SECRET_KEY (see referee.play.models.log_key).
LOG_HMAC_KEY = os.environ.get("LOG_HMAC_KEY", "")
# What the server's Ed25519 signing key is made from (the log's signed heads and exports,
# which players check with its public half). Set it, like LOG_HMAC_KEY, to keep signatures
# across a change of SECRET_KEY; by default it is derived from SECRET_KEY (referee.play.signing).
LOG_SIGNING_KEY = os.environ.get("LOG_SIGNING_KEY", "")
# The statement that authenticates every campaign request (referee/play/door.py) is
# prepared once per connection. A pooler that hands a connection's prepared statements to
# others (PgBouncer in transaction mode before 1.21, or without max_prepared_statements)
# needs this off.
DATABASE_PREPARED_STATEMENTS = env_bool("DATABASE_PREPARED_STATEMENTS", True)
# Each server process keeps who it has seen ask about a campaign while PostgreSQL tells it
# nothing they were read from changed (referee/play/door_cache.py): a poll or a cached page
# answered again costs no round trip. Off, every campaign request asks the database.
DOOR_CACHE = env_bool("DOOR_CACHE", True)
DOOR_CACHE_SECONDS = 60.0  # the longest a kept row is trusted, told of a change or not
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The largest form the app takes is a procedure with a GM table; anything bigger is refused
# with a 400 before it is parsed (the proxy in front refuses it even earlier).
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaigns:list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if not DEBUG
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# The largest backup the restore page takes (bytes); a bigger upload is refused with a 413.
# The proxy's limit for /restore/ (deploy/nginx.conf) must be at least this.
RESTORE_UPLOAD_MAX_BYTES = int(os.environ.get("RESTORE_UPLOAD_MAX_BYTES", str(64 * 1024 * 1024)))
