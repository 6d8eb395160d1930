"""The REST API's settings: Django REST framework's and drf-spectacular's (the schema and its docs page)."""

from __future__ import annotations

import re

from django.core.exceptions import ImproperlyConfigured

# A rate DRF's throttles can read: <requests>/<period>.
RATE = re.compile(r"\d+/(s|sec|second|m|min|minute|h|hour|d|day)")


def checked_rate(variable: str, rate: str) -> str:
    """Return ``rate``, read from the environment ``variable``; refuse to start on one DRF cannot read."""
    if not RATE.fullmatch(rate):
        raise ImproperlyConfigured(f"{variable}={rate!r}: write a rate as <requests>/<second|minute|hour|day>, e.g. 60/min")
    return rate


def rest_framework(*, throttle_rates: dict[str, str], num_proxies: int) -> dict:
    """Return ``REST_FRAMEWORK``, a new one at each call, with each throttle scope's rate and the proxies to trust."""
    return {
        "DEFAULT_AUTHENTICATION_CLASSES": [
            "turnbased.accounts.authentication.AccountApiTokenAuthentication",
            "turnbased.accounts.authentication.AccountSessionAuthentication",
        ],
        "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
        "DEFAULT_RENDERER_CLASSES": [
            "turnbased.kit.db.json_codec.JSONRenderer",
            "rest_framework.renderers.BrowsableAPIRenderer",
        ],
        # Accept: application/problem+json asks for JSON (its errors are problem documents: turnbased/kit/api/problems.py).
        "DEFAULT_CONTENT_NEGOTIATION_CLASS": "turnbased.kit.api.problems.ProblemAwareNegotiation",
        "DEFAULT_PARSER_CLASSES": ["turnbased.kit.http.request_guards.BoundedJSONParser"],
        "DEFAULT_SCHEMA_CLASS": "turnbased.kit.api.schema.ApiSchema",
        "EXCEPTION_HANDLER": "turnbased.kit.api.errors.json_exception_handler",
        "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
        # Each scope's rate counts per account and, separately, per client address (turnbased/kit/http/limits.py).
        "DEFAULT_THROTTLE_CLASSES": [
            "turnbased.kit.http.limits.AccountRateThrottle",
            "turnbased.kit.http.limits.AddressRateThrottle",
        ],
        "DEFAULT_THROTTLE_RATES": throttle_rates,
        "NUM_PROXIES": num_proxies,
    }


def spectacular_settings() -> dict:
    """Return ``SPECTACULAR_SETTINGS`` (drf-spectacular: the schema and its docs page), a new one at each call."""
    return {
        "TITLE": "turnbased API",
        "DESCRIPTION": (
            "Play turn-based board games asynchronously: games, seats, private views, legal moves, moves and history.\n\n"
            "**Conventions** (the repository's docs/api.md says more). *Versioning*: one version, 1, that changes only "
            "by additions: ignore keys you do not know. What will stop working is deprecated first, for at least 6 "
            "months: answers to requests that use it carry `Deprecation`, `Sunset` and a `Link` with "
            "`rel=\"deprecation\"`, and this schema marks it deprecated. *Lists* answer "
            "`{next, previous, results}`: follow `next` and `previous` as they are, set `page_size` (1 to 200). "
            "*Conditional reads*: GET answers carry an `ETag`; send it in `If-None-Match` for a 304 while nothing "
            "changed. *Errors* (every 4xx and 5xx) are problem documents (RFC 9457, `application/problem+json`) of one "
            "shape, the `Error` component: `type`, `title`, `status` and `detail` always, `errors` per field for "
            "invalid input, `retry_after` for 429. Statuses and kinds in answers are open enums (`x-extensible-enum`): "
            "expect new values. *Languages*: the texts a person reads "
            "(`detail` and `errors` messages, history and event `text`, move `text`, names, labels, the result's "
            "`summary`, a position as text) come in the language the request asks for with `Accept-Language` "
            "(English, Hungarian `hu` or German `de`), else in the account's (`PATCH /api/me/`), else in English; "
            "answers say which in `Content-Language`. Machine fields (codes, kinds, slugs, keys, statuses, move "
            "JSON, a record's notation) never change with the language."
        ),
        "VERSION": "1",
        "SERVE_INCLUDE_SCHEMA": False,
        # One tag per area, in this order in the docs; an endpoint with a tag not listed here fails
        # tests/platform/api/test_schema.py.
        "TAGS": [
            {"name": "games", "description": "Tables and games: create, list, join, start, leave, abort, resign."},
            {"name": "moves", "description": "Play: my legal moves, submitting a move, the history I may see."},
            {"name": "game-types", "description": "The games offered, their options and move notation."},
            {"name": "me", "description": "My settings: language, time zone and reminders; whether I am a bot account."},
            {"name": "absences", "description": "Days away, when my clocks stop."},
            {"name": "accounts", "description": "Sign up."},
            {"name": "auth", "description": "Log in: exchange a username and password for a new API token."},
            {"name": "tokens", "description": "My API tokens: list, create with a name, revoke."},
            # Issue 12, ratings and players.
            {"name": "ratings", "description": "Leaderboards: the ratings at one game and player count, best first."},
            {"name": "players", "description": "A player's profile and finished games, as I may see them."},
            # Issue 12, table talk.
            {"name": "chat", "description": "A game's table talk: read it (players and public spectators), write it (players)."},
            {"name": "notes", "description": "My private notes on the games I play: nobody else ever reads them."},
            {"name": "agreements", "description": "What the players of a table propose to each other (a takeback of "
                                                  "the last move) and their answers: carried when all agree."},
            # Issue 12: setup.
            {"name": "invitations", "description": "Invite people by username to an open table; see and decline mine."},
            # Issue 15: the event stream.
            {"name": "stream", "description": "My events as they happen (Server-Sent Events), resumable with "
                                              "Last-Event-ID."},
            # Issue 15: webhooks.
            {"name": "webhooks", "description": "My webhooks: URLs sent my events as signed POSTs; their delivery "
                                                "logs, a test event, a new secret."},
            # Issue 44: friends and blocks.
            {"name": "friends", "description": "The players I follow and the ones I blocked; my friends' open "
                                               "tables and games."},
            {"name": "groups", "description": "Groups (clubs): their members, invitations and requests to join, "
                                              "and the tables kept for their members."},
            {"name": "seats", "description": "Seats of games in play offered to a person: a seat a bot took over, "
                                             "or a player's own; taking one up."},
            {"name": "following", "description": "Following games I do not play: one game, a group's games, a "
                                                 "competition's games; the feed of them as any spectator sees them."},
            # Issue 45: competitions.
            {"name": "competitions", "description": "Competitions: make one, enter and withdraw, invitations; "
                                                    "standings and rounds with their games."},
        ],
        "ENUM_NAME_OVERRIDES": {
            "GameSlug": "turnbased.kit.api.input.game_slugs",
            "GameStatus": "turnbased.play.models.GameStatus",
            "Visibility": "turnbased.play.models.Visibility",
            "ClockKind": "turnbased.clocks.models.ClockKind",
            "ExpiryPolicy": "turnbased.clocks.models.ExpiryPolicy",
            "EventKind": "turnbased.events.models.EventKind",
            "WebhookDeliveryState": "turnbased.webhooks.models.DeliveryState",
            "GroupRole": "turnbased.groups.models.Role",
            "GroupRoleChange": "turnbased.groups.models.ROLES_GIVEN",
            "GroupEntry": "turnbased.groups.models.Entry",
            "GroupTablesBy": "turnbased.groups.models.TablesBy",
            "CompetitionEntryKind": "turnbased.competitions.models.EntryKind",
            "CompetitionFormat": "turnbased.competitions.models.Format",
            "CompetitionStatus": "turnbased.competitions.models.CompetitionStatus",
            "CompetitionRoundStatus": "turnbased.competitions.models.RoundStatus",
            "CompetitionTableStatus": "turnbased.competitions.models.TableStatus",
            "CompetitionEntrantStatus": "turnbased.competitions.models.EntrantStatus",
            "CompetitionAgreementKind": "turnbased.competitions.models.AGREEMENT_KINDS",
            "ProposalKind": "turnbased.agreements.models.ProposalKind",
            "ProposalVoteKind": "turnbased.agreements.models.VOTES",
        },
        "ENUM_GENERATE_CHOICE_DESCRIPTION": False,
        "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
        # The docs page's assets are served from the installed sidecar package, not a CDN.
        "SWAGGER_UI_DIST": "SIDECAR",
        "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
        # Without deep links an operation's summary is one button, not a button holding a link (a screen reader
        # and a keyboard meet one control each; axe's nested-interactive rule); its address is in the schema.
        "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    }
