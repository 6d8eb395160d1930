"""Settings for the turnbased service, read from the environment (django-environ).

Every environment variable is read here, with its default and why it is there. What no variable
changes comes from ``turnbased/config/``, a module per concern: the apps, middleware and templates
(``application.py``), the secret key's check and the Content-Security-Policy (``security.py``), the
REST API and its schema (``api.py``), and Celery's queues and beat schedule (``schedule.py``).

Locally, ``python -m turnbased.local`` starts the embedded PostgreSQL and Redis
and sets ``DATABASE_URL`` and ``CELERY_BROKER_URL`` before Django starts.
"""

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ
from django.core.exceptions import ImproperlyConfigured

from turnbased.kit.texts.catalogs import offered_languages
from turnbased.config import api, application, schedule, security
from turnbased.config.numbers import count as _count
from turnbased.config.numbers import limit as _limit
from turnbased.config.security import production_secret_key as _production_secret_key
from turnbased.events.origins import stream_connect_sources

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

# --- Core ---------------------------------------------------------------------
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
SITE_URL = env("SITE_URL", default="http://127.0.0.1:8000").rstrip("/")
# The game the new-table form starts on.
DEFAULT_GAME = env("DEFAULT_GAME", default="love-letter")
DATA_DIR = Path(env("TURNBASED_DATA_DIR", default=str(BASE_DIR / ".data")))

# The apps, the middleware and the templates: turnbased/config/application.py.
INSTALLED_APPS = list(application.INSTALLED_APPS)
MIDDLEWARE = list(application.MIDDLEWARE)
TEMPLATES = application.templates(BASE_DIR)
ROOT_URLCONF = "turnbased.urls"
WSGI_APPLICATION = "turnbased.wsgi.application"

# --- Security -----------------------------------------------------------------
# The secret key signs sessions, password resets and the reply and unsubscribe addresses in every
# email: without DEBUG the service refuses to start with a missing, short or example key
# (turnbased/config/security.py).
SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
if DEBUG:
    SECRET_KEY = SECRET_KEY or "insecure-local-key-change-me"
else:
    SECRET_KEY = _production_secret_key(SECRET_KEY)

# Production speaks HTTPS behind a proxy (nginx) that terminates TLS and sets X-Forwarded-Proto;
# DJANGO_HTTPS=off serves plain HTTP (make run, whose DEBUG turns it off, and the test suite).
HTTPS = env.bool("DJANGO_HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
# Trust the proxy's word that the request came over HTTPS: gunicorn must be reachable only from it.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=31536000) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=True)
# Preloading puts the domain in the browsers' built-in HTTPS list, for months: only when asked.
SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Scripts only from this site's files, no inline scripts and no eval (turnbased/config/security.py); the event
# stream's origin is added below.
CONTENT_SECURITY_POLICY = security.content_security_policy(https=HTTPS)

# The largest request body (JSON, forms, provider webhooks) in bytes; larger ones answer 413
# (JSON under /api/) before anything reads them. nginx's client_max_body_size must be above it.
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("MAX_REQUEST_BODY_BYTES", default=1024 * 1024)
# The inbound-mail webhooks (/anymail/) carry a whole message of up to MAIL_INBOUND_MAX_BYTES, encoded
# (base64 or JSON) about a third bigger; nginx allows them the same.
MAIL_WEBHOOK_MAX_BODY_BYTES = env.int("MAIL_WEBHOOK_MAX_BODY_BYTES", default=2 * 1024 * 1024)
# The deepest JSON nesting the API and the move form accept (moves need 3 or 4 levels).
MAX_JSON_DEPTH = 32

# --- Database -----------------------------------------------------------------
# Each thread that serves requests or runs tasks holds at most one connection: gunicorn's threads,
# one per Celery pool process, the mail server's few database threads. So every process's share is
# bounded, and deploy/README.md adds the shares up against PostgreSQL's max_connections.
DATABASES = {"default": env.db("DATABASE_URL")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# A connection is kept this many seconds (0: one per request) and checked before it is reused after a task, so
# a restarted PostgreSQL or PgBouncer costs a reconnect, not an error. A web request skips that check (a round trip
# of its own) and is run again on a new connection when its kept one died (turnbased/kit/db/reconnect.py).
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env.bool("DATABASE_CONN_HEALTH_CHECKS", default=True)
# Behind PgBouncer in transaction pooling (deploy/compose.pgbouncer.yaml) a server-side cursor
# (QuerySet.iterator()) cannot outlive its transaction on the server connection it was declared on.
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env.bool("DATABASE_DISABLE_SERVER_SIDE_CURSORS", default=False)
# The hottest queries (a move's locking read, a token's lookup, a stream's read) are prepared on each connection
# and planned once (turnbased/kit/db/prepared.py); off behind PgBouncer in transaction pooling, for the same reason.
DATABASE_PREPARED_STATEMENTS = env.bool("DATABASE_PREPARED_STATEMENTS", default=True)
if DATABASE_PREPARED_STATEMENTS:
    # Planned once, not again at each run: PostgreSQL's own choice ("auto") kept re-planning them whenever it
    # guessed a plan for the values at hand might be cheaper, and for these key lookups it never is. It applies
    # to prepared statements (and PL/pgSQL's, the events' triggers), never to the other queries Django sends.
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _options["options"] = f"{_options.get('options', '')} -c plan_cache_mode=force_generic_plan".strip()
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Issue 29: a streaming replica (a hot standby of the primary) serves the reads that tolerate lag: replays, records,
# leaderboards, player pages and archives, history. turnbased/kit/db/replica.py has the router's rules, docs/operating.md
# ("A replica, and failover") how to set one up. Unset: every read goes to the primary, as without it.
DATABASE_REPLICA_URL = env("DATABASE_REPLICA_URL", default="")
# A person's own change is read from the primary until the replica has replayed it, for at most this many seconds
# (a replica further behind is a fault for its monitoring: docs/operating.md). Each change then costs a statement
# and a cache write; 0 turns it off, and the person may then not see their own change on those pages at once.
READ_YOUR_WRITES_SECONDS = env.int("READ_YOUR_WRITES_SECONDS", default=60)
if DATABASE_REPLICA_URL:
    _replica = environ.Env.db_url_config(DATABASE_REPLICA_URL)
    # The primary's connection settings (kept connections, cursors, prepared statements), its own address, and
    # no test database of its own: under a test runner it stands for the primary's. A replica that does not
    # answer is given up after a few seconds (its views then read the primary), not the driver's minutes.
    DATABASES["replica"] = {**DATABASES["default"], **_replica, "TEST": {"MIRROR": "default"},
                            "OPTIONS": {"connect_timeout": 3, **DATABASES["default"].get("OPTIONS", {}),
                                        **_replica.get("OPTIONS", {})}}
    DATABASE_ROUTERS = ["turnbased.kit.db.replica.ReplicaRouter"]
    if READ_YOUR_WRITES_SECONDS > 0:
        MIDDLEWARE.insert(MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
                          "turnbased.kit.db.replica.ReadYourWritesMiddleware")
# After a replica read fails, a web process reads the primary alone for this many seconds before trying it again.
REPLICA_RETRY_SECONDS = env.float("REPLICA_RETRY_SECONDS", default=10.0)

# --- Accounts -----------------------------------------------------------------
# allauth's backend alone (it is Django's ModelBackend plus log in by email): one password hash per
# attempt, not one per backend.
AUTHENTICATION_BACKENDS = ["allauth.account.auth_backends.AuthenticationBackend"]
# Set only by the test runner (python -m turnbased.local test): the tests make thousands of accounts,
# and PBKDF2's million rounds per password were most of the suite's time. Never set it for a service.
if env.bool("TESTS_ONLY_FAST_PASSWORD_HASHING", default=False):
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "lobby"
LOGOUT_REDIRECT_URL = "account_login"
# django-allauth does sign-up, log in (username or email), email verification, password change
# and reset, and address changes; turnbased.accounts.adapter adds our username rules.
ACCOUNT_ADAPTER = "turnbased.accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "signup": "turnbased.accounts.forms.SignupForm",
    "change_password": "turnbased.accounts.forms.ChangePasswordForm",
    "reset_password_from_key": "turnbased.accounts.forms.ResetPasswordKeyForm",
}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_USERNAME_BLACKLIST = ["admin", "administrator", "root", "system", "support", "turnbased", "postmaster"]
ACCOUNT_UNIQUE_EMAIL = True
# A new account logs in only after following the link mailed to it; signing up with a registered
# address answers as for a new one, and the owner gets an email saying so.
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_PREVENT_ENUMERATION = True
# A password reset (or a link) asked for an address no account has mails nothing: allauth's default tells that
# address "no account uses this address", so anyone could make the site mail any address. The page's answer is
# the same either way (ACCOUNT_PREVENT_ENUMERATION).
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# A changed address stays unverified (and unused) until its link is followed; then it replaces the old one.
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_EMAIL_NOTIFICATIONS = True  # "your password/address changed" emails
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False  # this browser stays in; the form chooses for the others
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[turnbased] "
ACCOUNT_SESSION_REMEMBER = True  # a slow game needs no daily log in
# Clients behind this many proxies (nginx: 1) are known by X-Forwarded-For, for the rate limits.
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
# Login lockout and the other account limits (allauth's syntax: "10/m/ip,5/5m/key"); the counters
# live in the shared cache below. RATE_LIMITS=off turns them all off.
ACCOUNT_RATE_LIMITS = {
    "login_failed": env("RATE_LIMIT_LOGIN_FAILED", default="10/m/ip,5/5m/key"),
    "login": env("RATE_LIMIT_LOGIN", default="30/m/ip"),
    "signup": env("RATE_LIMIT_SIGNUP", default="20/h/ip"),
    "reset_password": env("RATE_LIMIT_RESET_PASSWORD", default="20/m/ip,5/m/key"),
    "reset_password_from_key": env("RATE_LIMIT_RESET_PASSWORD_FROM_KEY", default="20/m/ip"),
    "confirm_email": env("RATE_LIMIT_CONFIRM_EMAIL", default="1/3m/key"),
    "change_password": env("RATE_LIMIT_CHANGE_PASSWORD", default="5/m/user"),
    "manage_email": env("RATE_LIMIT_MANAGE_EMAIL", default="10/m/user"),
}
# API tokens (django-rest-knox, stored hashed): a new token lasts this long unless asked otherwise.
KNOX_TOKEN_MODEL = "accounts.ApiToken"
REST_KNOX = {"TOKEN_MODEL": KNOX_TOKEN_MODEL, "TOKEN_TTL": None, "AUTH_HEADER_PREFIX": "Token"}
API_TOKEN_DEFAULT_DAYS = env.int("API_TOKEN_DEFAULT_DAYS", default=90)
# Live (unexpired) API tokens an account may hold: one more, by the page, the API or a log in through the API, is
# refused with 409 until one is revoked (a script logging in on every run would otherwise pile them up unseen).
API_TOKENS_MAX_PER_USER = env.int("API_TOKENS_MAX_PER_USER", default=50)

# --- Internationalisation -----------------------------------------------------
# English, and every language the project catalog has (locale/<code>/): a new language is its catalogs.
# A person's pages follow their account's language, else the language cookie (the switcher), else the
# browser's Accept-Language; the API's texts follow Accept-Language, else the account's (accounts/languages.py).
LANGUAGE_CODE = "en"
LANGUAGES = offered_languages(BASE_DIR)
LOCALE_PATHS = [BASE_DIR / "locale"]
# Dates in each language's own forms (2026. 12. 01., 01.12.2026, 1 Dec 2026): turnbased/kit/texts/formats/<code>/.
FORMAT_MODULE_PATH = ["turnbased.kit.texts.formats"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files -------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = DEBUG

# --- REST API -----------------------------------------------------------------
# The schema and its docs page (turnbased/config/api.py); REST_FRAMEWORK is set below with the throttles' rates.
SPECTACULAR_SETTINGS = api.spectacular_settings()

# --- Celery -------------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="redis://127.0.0.1:6379/0")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A worker rides out a broker outage however long it lasts (Celery's default gives up after 100 tries), and
# kombu's Redis transport with the fix that keeps it alive through it (turnbased/kit/db/broker.py).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# A task a worker took and never acknowledged (it died) is given to another worker after this many seconds
# (Redis's default: an hour). It must be longer than any task may run (the digests' hard limit, 960 s) plus
# the longest countdown, or a task still running would be given out twice; tests/platform/test_task_limits.py
# holds that. What must not wait even this long is kept in PostgreSQL and swept (accepted replies, the outbox).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env.int("CELERY_VISIBILITY_TIMEOUT", default=1200)}
if urlsplit(CELERY_BROKER_URL).scheme == "redis":
    CELERY_BROKER_TRANSPORT = "turnbased.kit.db.broker:Transport"
CELERY_TIMEZONE = "UTC"
# Email, webhooks, pushes and bot turns have queues and workers of their own (turnbased/config/schedule.py).
CELERY_TASK_ROUTES = schedule.task_routes()
# No task runs unbounded: past the soft limit it is interrupted, past the hard one its process is
# replaced. Tasks that need other limits set them (turnbased/mail/tasks.py).
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=120)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=150)
# The minute sweeps (unsent mail, late turns, stalled bots); the fault tests run them faster.
SWEEP_SECONDS = env.float("SWEEP_SECONDS", default=60.0)
# An Idempotency-Key is kept (and a request sent again under it replayed) at least this many hours.
IDEMPOTENCY_KEEP_HOURS = env.int("IDEMPOTENCY_KEEP_HOURS", default=24)
if IDEMPOTENCY_KEEP_HOURS < 24:
    raise ImproperlyConfigured(f"IDEMPOTENCY_KEEP_HOURS={IDEMPOTENCY_KEEP_HOURS}: keys are kept at least 24 hours "
                               "(clients sending a request again rely on it: docs/api.md).")
# Bots wait this long before moving, so their moves read like a player's and not a flash.
BOT_MOVE_DELAY_SECONDS = env.float("BOT_MOVE_DELAY_SECONDS", default=2.0)
# A bot turn (or a forced move) waiting longer than this lost its task (a dispatcher or broker outage, a crash):
# the clock sweep queues it again.
BOT_STALL_SECONDS = env.float("BOT_STALL_SECONDS", default=60.0)
FORCED_STALL_SECONDS = env.float("FORCED_STALL_SECONDS", default=30.0)
# How the work a commit names reaches Celery (turnbased/kit/db/dispatch.py): "notify", a NOTIFY in the change's own
# statement that the dispatcher process queues; "inline", queued by the process itself after its commit (the
# test runner's choice: tests run their tasks in their own process).
WORK_DISPATCH = env.str("WORK_DISPATCH", default="notify")
if WORK_DISPATCH not in ("notify", "inline"):
    raise ImproperlyConfigured(f"WORK_DISPATCH must be notify or inline, not {WORK_DISPATCH!r}")

# --- Event stream (issue 15) ------------------------------------------------------
# Each user's events (GET /api/stream/, webhooks) are kept this many days: a client that was away up to
# that long resumes without missing any. Clients are promised a week, so less is refused.
EVENTS_KEEP_DAYS = env.int("EVENTS_KEEP_DAYS", default=7)
if EVENTS_KEEP_DAYS < 7:
    raise ImproperlyConfigured(f"EVENTS_KEEP_DAYS={EVENTS_KEEP_DAYS}: events are kept at least 7 days (clients "
                               "resuming a stream rely on it).")
# The stream process (uvicorn turnbased.events.asgi:application) queries the database from this many
# threads, each holding at most one connection, plus one connection that LISTENs for new events: its
# share of PostgreSQL's connections (deploy/README.md adds it up). Idle streams hold none.
STREAM_DATABASE_THREADS = env.int("STREAM_DATABASE_THREADS", default=2)
# LISTEN needs a session of its own: behind PgBouncer in transaction pooling, point this at PostgreSQL itself.
STREAM_LISTEN_DATABASE_URL = env("STREAM_LISTEN_DATABASE_URL", default="")
# A comment line this often keeps proxies from closing a quiet stream.
STREAM_HEARTBEAT_SECONDS = env.float("STREAM_HEARTBEAT_SECONDS", default=15.0)
# While the LISTEN connection is down, every stream looks for new events this often instead.
STREAM_POLL_SECONDS = env.float("STREAM_POLL_SECONDS", default=5.0)
# How long a client waits before reconnecting (the stream's "retry:"), and how long one stream lasts
# before the server ends it (the client resumes where it was: a revoked token is refused then).
STREAM_RETRY_MILLISECONDS = env.int("STREAM_RETRY_MILLISECONDS", default=3000)
STREAM_MAX_SECONDS = env.float("STREAM_MAX_SECONDS", default=3600.0)
# Streams one account, and one address, may hold open at once across every stream process (429 beyond;
# counted in Redis: turnbased/events/stream_slots.py).
STREAM_MAX_PER_USER = env.int("STREAM_MAX_PER_USER", default=5)
STREAM_MAX_PER_ADDRESS = env.int("STREAM_MAX_PER_ADDRESS", default=20)
# Where the site's own pages (the game page, the lobby, the replay) open the stream with the browser's session:
# /api/stream/ on the site's own origin behind nginx (deploy/); under `make run` the stream process's own
# port (turnbased/local/commands.py sets it), another origin of the site, which the stream answers with CORS for
# SITE_URL's origin. Empty: the pages only poll, as when no stream process runs (the test suite's default).
STREAM_URL = env("STREAM_URL", default="/api/stream/")
CONTENT_SECURITY_POLICY["DIRECTIVES"]["connect-src"] += stream_connect_sources(STREAM_URL)

# --- Webhooks (issue 15) ----------------------------------------------------------
# The hooks one account may register.
WEBHOOKS_MAX_PER_USER = env.int("WEBHOOKS_MAX_PER_USER", default=5)
# Only public addresses may receive webhooks, over https: no one can make the server reach inside its own
# network. Tests and `make run` (loopback receivers) relax these; a production service never should.
WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = env.bool("WEBHOOKS_ALLOW_PRIVATE_ADDRESSES", default=False)
WEBHOOKS_ALLOW_HTTP = env.bool("WEBHOOKS_ALLOW_HTTP", default=False)
# Seconds an attempt waits to connect, for each read, and in all (a receiver answering a byte at a time).
WEBHOOKS_CONNECT_TIMEOUT = env.float("WEBHOOKS_CONNECT_TIMEOUT", default=3.0)
WEBHOOKS_READ_TIMEOUT = env.float("WEBHOOKS_READ_TIMEOUT", default=5.0)
WEBHOOKS_TOTAL_SECONDS = env.float("WEBHOOKS_TOTAL_SECONDS", default=10.0)
# Fairness between accounts (issues 27 and 42: one account's slow receivers held another's delivery back): a
# receiver answering slower than this pauses its hook as a failure does (the delivery still counts as
# delivered); at most this many of one account's deliveries are queued or being sent at once, the next
# queued as soon as one is settled, behind the other accounts' (turnbased/webhooks/delivery.py). With 1, an
# account's deliveries go one at a time, in event order, as fast as its receivers answer, and another
# account's delivery waits for one attempt of each busy account at most.
WEBHOOKS_SLOW_SECONDS = env.float("WEBHOOKS_SLOW_SECONDS", default=3.0)
WEBHOOKS_IN_FLIGHT_PER_OWNER = env.int("WEBHOOKS_IN_FLIGHT_PER_OWNER", default=1)
if WEBHOOKS_IN_FLIGHT_PER_OWNER < 1:
    raise ImproperlyConfigured(f"WEBHOOKS_IN_FLIGHT_PER_OWNER={WEBHOOKS_IN_FLIGHT_PER_OWNER}: at least 1 (with none "
                               "in flight nothing would ever be sent).")
if "WEBHOOKS_QUEUED_PER_OWNER" in env.ENVIRON:
    # Its twenty queued at once were what let one account's slow receivers hold the others' back (issue 42).
    raise ImproperlyConfigured("WEBHOOKS_QUEUED_PER_OWNER is gone: WEBHOOKS_IN_FLIGHT_PER_OWNER (1 by default) "
                               "says how many of one account's deliveries may be queued or sent at once.")
# New deliveries wait at most this long for the sweep that queues them (and retries their due time).
WEBHOOKS_SWEEP_SECONDS = env.float("WEBHOOKS_SWEEP_SECONDS", default=5.0)
# A failed attempt is retried after 1, 2, 4 ... times this; a delivery is given up after its last attempt
# (11: the last about 17 hours after the first).
WEBHOOKS_FIRST_RETRY_SECONDS = env.float("WEBHOOKS_FIRST_RETRY_SECONDS", default=60.0)
WEBHOOKS_MAX_ATTEMPTS = env.int("WEBHOOKS_MAX_ATTEMPTS", default=11)
# A hook whose receiver failed this many attempts in a row, the first at least this many hours ago, is
# disabled and its owner emailed.
WEBHOOKS_DISABLE_AFTER_FAILURES = env.int("WEBHOOKS_DISABLE_AFTER_FAILURES", default=10)
WEBHOOKS_DISABLE_AFTER_HOURS = env.float("WEBHOOKS_DISABLE_AFTER_HOURS", default=4.0)
# Days the delivery log is kept.
WEBHOOKS_KEEP_DAYS = env.int("WEBHOOKS_KEEP_DAYS", default=30)
# What Celery beat runs when: the sweeps above, the daily digests, the pruning (turnbased/config/schedule.py).
CELERY_BEAT_SCHEDULE = schedule.beat_schedule(sweep_seconds=SWEEP_SECONDS,
                                              webhooks_sweep_seconds=WEBHOOKS_SWEEP_SECONDS)

# --- Email --------------------------------------------------------------------
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", default="127.0.0.1")
EMAIL_PORT = env.int("EMAIL_PORT", default=2525)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
# Seconds the SMTP backend waits on each step with the relay (and anymail on a provider's API) before
# the send fails and the outbox row waits for its next attempt.
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)
# How long a send holds its claim on an outbox row (longer than any sending task's hard time limit),
# and how long an unsettled row waits before the sweep takes it up; the fault tests shorten both.
MAIL_LEASE_SECONDS = env.int("MAIL_LEASE_SECONDS", default=300)
MAIL_SWEEP_AFTER_SECONDS = env.float("MAIL_SWEEP_AFTER_SECONDS", default=60.0)
# An accepted reply no worker has handled this long after it came is queued again by its sweep (issue 27).
INBOUND_SWEEP_AFTER_SECONDS = env.float("INBOUND_SWEEP_AFTER_SECONDS", default=60.0)
MAIL_DOMAIN = env("MAIL_DOMAIN", default="turnbased.localhost")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default=f"turnbased <games@{MAIL_DOMAIN}>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Replies (play+<token>@MAIL_DOMAIN) arrive on this local SMTP server, or through the provider webhook.
MAIL_INBOUND_HOST = env("MAIL_INBOUND_HOST", default="127.0.0.1")
MAIL_INBOUND_PORT = env.int("MAIL_INBOUND_PORT", default=2526)
# In development the mail server also keeps every outgoing message (EMAIL_HOST:EMAIL_PORT) for /mailbox/.
MAIL_SINK = env.bool("MAIL_SINK", default=DEBUG)
REPLY_TOKEN_MAX_AGE_DAYS = env.int("REPLY_TOKEN_MAX_AGE_DAYS", default=60)
# Limits on a reply: run_mail_server refuses a bigger message (552); the worker refuses, unparsed, one
# with more MIME parts or more multipart/message containers (which bounds how deep they nest).
MAIL_INBOUND_MAX_BYTES = env.int("MAIL_INBOUND_MAX_BYTES", default=1024 * 1024)
MAIL_INBOUND_MAX_PARTS = env.int("MAIL_INBOUND_MAX_PARTS", default=100)
MAIL_INBOUND_MAX_CONTAINERS = env.int("MAIL_INBOUND_MAX_CONTAINERS", default=10)
# Provider settings for django-anymail, e.g. ANYMAIL='{"MAILGUN_API_KEY": "...", "WEBHOOK_SECRET": "user:pass"}'
# with EMAIL_BACKEND=anymail.backends.mailgun.EmailBackend.
ANYMAIL = {"REQUESTS_TIMEOUT": EMAIL_TIMEOUT, **env.json("ANYMAIL", default={})}

# --- Push notifications (issue 25) ---------------------------------------------
# "Your turn" reaches a player's devices through their browsers' push services (the Push API), signed
# with this site's VAPID key: a P-256 private key, base64url (the 32 raw bytes, or DER). Unset: no push,
# and the pages offer only the in-page notifications. `make run` generates one into the data folder.
VAPID_PRIVATE_KEY = env("VAPID_PRIVATE_KEY", default="")
# Who runs the site, for the push services to reach (the VAPID "sub" claim): mailto: or an https URL.
VAPID_SUBJECT = env("VAPID_SUBJECT", default=f"mailto:games@{MAIL_DOMAIN}")
# Pushes go only to these push services (a subscription's endpoint is a URL its browser chose, sent to us
# by the page: any other host is refused, so no one can make the workers POST inside the network). A
# name matches itself; a name starting with a dot matches the hosts under it.
WEB_PUSH_SERVICES = env.list("WEB_PUSH_SERVICES", default=[
    "fcm.googleapis.com",                 # Chrome, Edge on Android, Samsung Internet, Opera
    "updates.push.services.mozilla.com",  # Firefox
    ".notify.windows.com",                # Edge on Windows
    "web.push.apple.com",                 # Safari
])
# Plain http endpoints (the tests' local push service); never in production.
WEB_PUSH_ALLOW_HTTP = env.bool("WEB_PUSH_ALLOW_HTTP", default=False)
# Seconds a push waits to connect, and for the answer, before it is given up (the email still goes).
WEB_PUSH_TIMEOUT_SECONDS = env.float("WEB_PUSH_TIMEOUT_SECONDS", default=10.0)
# How long a push service keeps a push for a device that is off (seconds); past it the email has said it.
WEB_PUSH_TTL_SECONDS = env.int("WEB_PUSH_TTL_SECONDS", default=24 * 3600)
# Devices one account may have subscribed at once (the oldest unused ones go first beyond it).
WEB_PUSH_MAX_PER_USER = env.int("WEB_PUSH_MAX_PER_USER", default=10)
if VAPID_PRIVATE_KEY:
    from turnbased.notifications.vapid import check_private_key, check_subject

    VAPID_PRIVATE_KEY, VAPID_SUBJECT = check_private_key(VAPID_PRIVATE_KEY), check_subject(VAPID_SUBJECT)

# --- Cache and abuse limits -------------------------------------------------------
# Rate limits (DRF throttles, the account limits) keep their counters in this cache, so every web
# process must share it: Redis, in a database of its own beside the broker's.
def _cache_location(broker_url: str) -> str:
    parts = urlsplit(broker_url)
    return urlunsplit(parts._replace(path="/1")) if parts.scheme.startswith("redis") else broker_url


CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": env("CACHE_URL", default=_cache_location(CELERY_BROKER_URL)),
        "KEY_PREFIX": "turnbased",
    }
}
# RATE_LIMITS=off turns every rate limit off, for load tests and benchmarks that run many accounts
# from one loopback address. Never the default.
RATE_LIMITS_ON = env("RATE_LIMITS", default="on").strip().lower() not in ("off", "0", "false", "no")
if not RATE_LIMITS_ON:
    ACCOUNT_RATE_LIMITS = False


def _rate(variable: str, default: str) -> str:
    """Read a rate such as ``60/min`` from the environment; refuse to start on one DRF cannot read."""
    return api.checked_rate(variable, env(variable, default=default).strip())


# The API's settings with each throttle scope's rate (turnbased/config/api.py). Each scope's rate counts per
# account and, separately, per client address (turnbased/kit/http/limits.py), for the API and for the pages that create
# tables and make moves. The scope of a request is its view's throttle_scope for a write, "api" for everything else.
REST_FRAMEWORK = api.rest_framework(
    throttle_rates={
        # Reads and plain writes: a client polling a few endpoints once a second stays well below it.
        "api": _rate("RATE_LIMIT_API", "300/min"),
        # POST /api/auth/token/: password guesses.
        "auth": _rate("RATE_LIMIT_AUTH", "10/min"),
        # POST /api/games/ and the new-table page.
        "table_create": _rate("RATE_LIMIT_TABLE_CREATE", "30/hour"),
        # POST /api/games/{id}/moves/ and the game page's moves: a person moves every few seconds at most.
        "moves": _rate("RATE_LIMIT_MOVES", "60/min"),
        # Issue 12, table talk: chat messages, from the game page and POST /api/games/{id}/messages/.
        "chat": _rate("RATE_LIMIT_CHAT", "10/min"),
        # Inviting people by username, on the table's page and POST /api/games/{id}/invitations/ (issue 12: setup).
        "invitations": _rate("RATE_LIMIT_INVITATIONS", "30/hour"),
        # Following and blocking players, and the reverse (issue 44: friends and blocks).
        "contacts": _rate("RATE_LIMIT_CONTACTS", "60/hour"),
        # Making groups, joining or asking to join them, and inviting people to them (issue 44: groups).
        "groups": _rate("RATE_LIMIT_GROUPS", "60/hour"),
        "competitions": _rate("RATE_LIMIT_COMPETITIONS", "60/hour"),
        # Registering, changing, pinging and deleting webhooks (issue 15): a ping makes the server send a request.
        "webhooks": _rate("RATE_LIMIT_WEBHOOKS", "60/hour"),
    },
    # How many reverse proxies in front of the web process append to X-Forwarded-For (nginx in deploy/: 1).
    # At 0 the client address is REMOTE_ADDR and X-Forwarded-For is ignored, so a client cannot forge it.
    num_proxies=env.int("TRUSTED_PROXY_COUNT", default=0),
)
# Caps per account: tables it created that wait for players, and tables of bots only (no person
# playing a seat) in play at once.
MAX_OPEN_TABLES_PER_ACCOUNT = env.int("MAX_OPEN_TABLES_PER_ACCOUNT", default=10)
MAX_BOT_TABLES_PER_ACCOUNT = env.int("MAX_BOT_TABLES_PER_ACCOUNT", default=3)

# Issue 44, fair entry (docs/players.md, "Games waiting on you"): no new table while more than this many games wait
# on a person (their turns, invitations to answer, their tables not yet started), no seat taken while more than the
# second number do; a new account plays at most this many games at once, one more for every game it finishes.
# RATE_LIMITS=off turns them off too: the load tests seat one account at many tables.
GAMES_WAITING_TO_CREATE = _limit(env, "GAMES_WAITING_TO_CREATE", 3) if RATE_LIMITS_ON else None
GAMES_WAITING_TO_JOIN = _limit(env, "GAMES_WAITING_TO_JOIN", 4) if RATE_LIMITS_ON else None
NEW_ACCOUNT_OPEN_GAMES = _limit(env, "NEW_ACCOUNT_OPEN_GAMES", 3) if RATE_LIMITS_ON else None


# --- Ratings (issue 42: ratings that cannot be bought) ---------------------------
# docs/players.md, "Ratings and players": a rated game needs every account confirmed and established (this many days
# old, or this many finished games); accounts signed up from one network or this many minutes apart are related,
# and count together only once both are no longer provisional; two players count this many rated games together a
# day; a rating from fewer rated games than this is provisional, and off the leaderboards.
RATINGS_MIN_ACCOUNT_DAYS = _count(env, "RATINGS_MIN_ACCOUNT_DAYS", 7)
RATINGS_MIN_FINISHED_GAMES = _count(env, "RATINGS_MIN_FINISHED_GAMES", 5)
RATINGS_RELATED_SIGNUP_MINUTES = _count(env, "RATINGS_RELATED_SIGNUP_MINUTES", 30)
RATINGS_SAME_PLAYERS_PER_DAY = _count(env, "RATINGS_SAME_PLAYERS_PER_DAY", 3, least=1)
RATINGS_PROVISIONAL_GAMES = _count(env, "RATINGS_PROVISIONAL_GAMES", 10)

# --- Logging ------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
}
