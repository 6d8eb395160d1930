"""Production settings: `check --deploy` is clean, HTTPS and the security headers are on by default,
the service refuses an unsafe secret key, and no page needs an inline script.

The production tests run Django in a subprocess with a production environment (DEBUG off, HTTPS
not switched off), since the test suite itself runs over plain HTTP.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from games import engines
from turnbased.play import services
from turnbased.settings import _production_secret_key

BASE_DIR = Path(settings.BASE_DIR)
HOST = "games.example.org"


def production_environment(**overrides: str) -> dict[str, str]:
    """Return the environment of a production process: nothing from the test run's DJANGO_* settings."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith("DJANGO_")}
    environment.update(
        DJANGO_SETTINGS_MODULE="turnbased.settings",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_CSRF_TRUSTED_ORIGINS=f"https://{HOST}",
        DATABASE_URL="postgres://turnbased@127.0.0.1:1/turnbased",  # never connected to
        CELERY_BROKER_URL="redis://127.0.0.1:1/0",
    )
    environment.update(overrides)
    return {name: value for name, value in environment.items() if value is not None}


def django(*args: str, environment: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], env=environment, cwd=BASE_DIR, capture_output=True, text=True, timeout=120
    )


def check_deploy(environment: dict[str, str]) -> tuple[int, list[str], str]:
    result = django("manage.py", "check", "--deploy", "--fail-level", "WARNING", environment=environment)
    output = result.stdout + result.stderr
    return result.returncode, re.findall(r"\(([a-z_]+\.[A-Z]\d{3})\)", output), output


def test_check_deploy_passes_with_the_production_settings():
    returncode, issues, output = check_deploy(production_environment())
    # Every check is clean, drf-spectacular's schema checks included.
    assert issues == [], output
    assert returncode == 0, output


def test_check_deploy_fails_when_https_is_switched_off():
    """The test above can fail: over plain HTTP the deploy checks complain."""
    returncode, issues, output = check_deploy(production_environment(DJANGO_HTTPS="off"))
    assert returncode != 0
    assert {"security.W004", "security.W008", "security.W012", "security.W016"} <= set(issues), output


ANSWER_SCRIPT = """
import json, django
django.setup()
from django.conf import settings
from django.test import Client
client = Client(HTTP_HOST="games.example.org")
plain = client.get("/api/game-types/")
secure = client.get("/api/game-types/", HTTP_X_FORWARDED_PROTO="https")
print(json.dumps({
    "plain": [plain.status_code, plain.get("Location")],
    "secure": [secure.status_code, dict(secure.headers)],
    "cookies_secure": [settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE],
}))
"""


def answers(environment: dict[str, str]) -> dict:
    result = django("-c", ANSWER_SCRIPT, environment=environment)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_production_redirects_to_https_and_sends_every_security_header():
    seen = answers(production_environment())
    assert seen["plain"] == [301, f"https://{HOST}/api/game-types/"]
    status, headers = seen["secure"]  # nginx says the request came over HTTPS
    assert status == 200
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    policy = dict(part.strip().split(" ", 1) if " " in part.strip() else (part.strip(), "")
                  for part in headers["Content-Security-Policy"].split(";"))
    assert policy["script-src"] == "'self'"
    assert policy["default-src"] == "'self'" and policy["object-src"] == "'none'"
    assert policy["frame-ancestors"] == "'none'" and "upgrade-insecure-requests" in policy
    assert seen["cookies_secure"] == [True, True]


def test_hsts_max_age_and_preload_come_from_the_environment():
    seen = answers(production_environment(DJANGO_HSTS_SECONDS="600", DJANGO_HSTS_PRELOAD="on"))
    assert seen["secure"][1]["Strict-Transport-Security"] == "max-age=600; includeSubDomains; preload"


def test_local_runs_speak_plain_http():
    """`make run` (DEBUG on) and the test suite (DJANGO_HTTPS=off) keep working over HTTP."""
    for environment in (production_environment(DJANGO_DEBUG="on", DJANGO_SECRET_KEY=None),
                        production_environment(DJANGO_HTTPS="off")):
        seen = answers(environment)
        assert seen["plain"][0] == 200 and seen["cookies_secure"] == [False, False]
        assert "Strict-Transport-Security" not in seen["secure"][1]


def example_secret_key() -> str:
    lines = (BASE_DIR / ".env.example").read_text().splitlines()
    return next(line.split("=", 1)[1] for line in lines if line.startswith("DJANGO_SECRET_KEY="))


@pytest.mark.parametrize(
    ("key", "reason"),
    [
        ("", "not set"),
        ("change-me", "example"),
        ("insecure-local-key-change-me", "example"),
        (example_secret_key(), "example"),
        ("django-insecure-" + secrets.token_urlsafe(50), "example"),
        (secrets.token_urlsafe(30), "too short"),
        ("ab" * 40, "too simple"),
    ],
    # Named, not by value: the random keys would name the tests differently in each test worker.
    ids=["empty", "change-me", "local-example", "example-file", "django-insecure", "too-short", "too-simple"],
)
def test_an_unsafe_secret_key_is_refused_with_the_reason_and_the_remedy(key, reason):
    with pytest.raises(ImproperlyConfigured) as refused:
        _production_secret_key(key)
    message = str(refused.value)
    assert reason in message and "reply and unsubscribe addresses" in message
    assert "secrets.token_urlsafe(50)" in message


def test_a_generated_secret_key_is_accepted():
    key = secrets.token_urlsafe(50)
    assert _production_secret_key(key) == key


@pytest.mark.parametrize("key", [None, example_secret_key()], ids=["unset", "example-file"])
def test_the_service_refuses_to_start_without_debug_and_a_real_secret_key(key):
    result = django("manage.py", "check", environment=production_environment(DJANGO_SECRET_KEY=key))
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and "DJANGO_SECRET_KEY" in result.stderr


# --- Pages under the Content-Security-Policy ---------------------------------------


class ScriptAudit(HTMLParser):
    """Collect what a strict Content-Security-Policy would block, or what would need eval."""

    def __init__(self):
        super().__init__()
        self.problems: list[str] = []
        self.scripts: list[str] = []
        self.htmx_config: dict | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attributes.items():
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...> is an inline handler")
            if name.startswith(("hx-on", "data-hx-on")):
                self.problems.append(f"<{tag} {name}> needs eval")
            if name in ("hx-vals", "hx-vars", "hx-headers") and (value or "").lstrip().startswith(("js:", "javascript:")):
                self.problems.append(f"<{tag} {name}> needs eval")
            if name == "hx-trigger" and "[" in (value or ""):
                self.problems.append(f"<{tag} hx-trigger={value!r}> has an event filter, which needs eval")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.problems.append(f"<{tag} {name}=javascript:...>")
        if tag == "script":
            if "src" in attributes:
                self.scripts.append(attributes["src"])
            elif attributes.get("type") != "application/json":
                self.problems.append("an inline <script>")
        if tag == "meta" and attributes.get("name") == "htmx-config":
            self.htmx_config = json.loads(attributes["content"])


def audit(html: str) -> ScriptAudit:
    checker = ScriptAudit()
    checker.feed(html)
    return checker


def test_no_template_has_an_inline_script_or_handler():
    templates = [*(BASE_DIR / "templates").rglob("*.html"), *(BASE_DIR / "turnbased").glob("*/templates/**/*.html")]
    assert len(templates) > 50
    for template in sorted(templates):
        checker = audit(template.read_text())
        assert checker.problems == [], template


def page_addresses(resolver=None, prefix=""):
    """Yield every address of the site but admin and webhooks as a route with its <params> (the API as HTML)."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from page_addresses(entry, route)
        elif isinstance(entry, URLPattern) and not route.startswith(("admin/", "anymail/")):
            yield "/" + route


@pytest.mark.django_db
def test_every_page_sends_the_policy_and_needs_no_inline_script(alice, bob, carol):
    games = []
    for slug in engines():
        game = services.create_game(creator=alice, engine_slug=slug, players=2)
        services.join_game(game_id=game.pk, user=bob)
        games.append(game)
    open_table = services.create_game(creator=alice, engine_slug="love-letter", players=3, visibility="private")
    client = Client()
    client.force_login(alice)
    stranger = Client()
    stranger.force_login(carol)
    pages = []
    for route in sorted(set(page_addresses())):
        if "<int:game_id>/invite/" in route:
            pages.append((stranger, f"/games/{open_table.pk}/invite/{open_table.invite_code}/"))
        elif "<int:game_id>" in route:
            pages += [(client, route.replace("<int:game_id>", str(game.pk))) for game in games]
        elif "<" not in route:
            pages.append((client, route))
    pages += [(Client(), "/accounts/login/"), (Client(), "/admin/login/")]
    scripts, audited = set(), []
    for who, url in pages:
        response = who.get(url, follow=True, HTTP_ACCEPT="text/html")  # the API answers with DRF's HTML pages
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue  # a redirect, a POST-only address, or a page only DEBUG serves
        policy = response["Content-Security-Policy"]
        script_src = re.search(r"script-src ([^;]*)", policy).group(1).split()
        assert script_src == ["'self'"], (url, policy)
        checker = audit(response.content.decode())
        assert checker.problems == [], url
        if checker.htmx_config is not None:
            assert checker.htmx_config["allowEval"] is False and checker.htmx_config["includeIndicatorStyles"] is False
        scripts.update(checker.scripts)
        audited.append(url)
    # Each game's page, panel and API pages, the lobby, the forms, the API docs.
    assert len(audited) >= 5 * len(games) + 6, audited
    assert any("htmx" in src for src in scripts) and any("/api/docs/?" in src for src in scripts)
    assert all(src.startswith("/") and not src.startswith("//") for src in scripts), scripts
