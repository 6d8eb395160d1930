"""What the Django project is made of: its apps, its middleware (in order, and why) and its templates."""

from __future__ import annotations

from pathlib import Path

INSTALLED_APPS = (
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # allauth's sessions page
    "rest_framework",
    "knox",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "turnbased.accounts",
    "turnbased.play",
    "turnbased.web",  # the table's pages (the core's web door: docs/design.md)
    "turnbased.clocks",
    "turnbased.contacts",  # issue 44: friends and blocks
    "turnbased.groups",  # issue 44: groups (clubs)
    # Features react to the core's facts in this order (play.facts): a finished game is rated (reads, then
    # writes) before its notifications are written, so that their rows go out with the move's last statement
    # (one_statement) instead of a statement of their own ahead of the rating's reads.
    "turnbased.ratings",
    "turnbased.competitions",  # issue 45: tournaments, leagues and ladders (a finished game's places and points)
    "turnbased.notifications",
    "turnbased.mail",
    "turnbased.chat",  # issue 12, table talk
    "turnbased.notes",  # issue 46: a player's private notes on a game
    "turnbased.agreements",  # issue 46: takebacks by consent (agreements at the table)
    "turnbased.seats",  # issue 46: a person takes a seat in a game in play
    "turnbased.following",  # issue 46: following games (a watch list, a feed, news of moves and ends)
    "turnbased.aftergame",
    "turnbased.entry",  # issue 44: fair entry
    "turnbased.events",  # issue 15: the event stream
    "turnbased.webhooks",  # issue 15: webhooks
    "turnbased.idempotency",  # issue 27: Idempotency-Key on the API's creates
    "anymail",
    "csp",
    "allauth",
    "allauth.account",
    "allauth.usersessions",
)

MIDDLEWARE = (
    # Issue 42: every error answer under /api/ is a problem document (RFC 9457), whoever wrote it: the outermost.
    "turnbased.kit.api.problems.ProblemDetailsMiddleware",
    "turnbased.kit.http.request_guards.DatabaseOutageMiddleware",  # issue 27: a database outage is a 503, DEBUG or not
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "turnbased.kit.http.request_guards.RequestBodyLimitMiddleware",
    "turnbased.kit.http.request_guards.InvalidTextMiddleware",  # issue 42: a query, header or form that is not text
    "turnbased.kit.http.request_guards.MalformedJSONMiddleware",  # issue 15: a broken JSON body is 400 at every endpoint
    # Issue 26: no SELECT 1 per request; a request whose kept connection died runs again on a new one.
    "turnbased.kit.db.reconnect.ReconnectMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "turnbased.accounts.readers.ReaderMiddleware",  # each person's pages in their zone and language
    "django.contrib.messages.middleware.MessageMiddleware",
    "turnbased.accounts.bot_sessions.BotAccountSessionMiddleware",  # issue 15: a bot account plays by API token
    "turnbased.web.middleware.EngineUnavailableMiddleware",  # issue 13: a game pinned to an engine version not installed
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
)


def templates(base_dir: Path) -> list:
    """Return ``TEMPLATES``, a new one at each call: the project's ``templates/`` folder, then each app's."""
    return [
        {
            "BACKEND": "django.template.backends.django.DjangoTemplates",
            "DIRS": [base_dir / "templates"],
            "APP_DIRS": True,
            "OPTIONS": {
                "context_processors": [
                    "django.template.context_processors.request",
                    "django.contrib.auth.context_processors.auth",
                    "django.contrib.messages.context_processors.messages",
                    "turnbased.mail.context_processors.mailbox_link",
                ],
            },
        },
    ]
