"""The pages benchmarks/lighthouse.py scores: run by pytest (the browser tests' fixtures), never by make test.

Each page is served as production serves it: pages compressed (nginx does it there; GZipMiddleware here) and
static files through whitenoise, compressed, rather than the test server's plain static handler. Lighthouse
reads the page signed in as alice, with her session cookie.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.browser.conftest import browser  # noqa: F401 (the fixture)
from tests.browser.positions import position
from tests.browser.test_play_in_browser import log_in
from tests.platform.conftest import alice, bob, make_user  # noqa: F401 (the fixtures)

LIGHTHOUSE = os.environ.get("LIGHTHOUSE", "lighthouse@12.8.2")
OUT = Path(os.environ.get("LIGHTHOUSE_OUT", "lighthouse-reports"))
FORMS = os.environ.get("LIGHTHOUSE_FORMS", "mobile,desktop").split(",")
GAMES = os.environ.get("LIGHTHOUSE_GAMES", "love-letter,halali,carcassonne-hg,savernake-forest").split(",")
PAGES = [("lobby", None)] + [(slug, finished) for slug in GAMES for finished in (False, True)]
METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift",
           "speed-index"]


@pytest.fixture
def served_as_in_production(settings, live_server):
    from django.core.handlers.wsgi import WSGIHandler

    settings.MIDDLEWARE = ["django.middleware.gzip.GZipMiddleware", *settings.MIDDLEWARE]
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    live_server.thread.httpd.set_app(WSGIHandler())  # the handler reads the settings above as it is made
    return live_server


def lighthouse(url: str, cookie: str, form: str, out: Path) -> dict:
    """Run Lighthouse on ``url``; return its report. Lighthouse sometimes loses its own trace (NO_NAVSTART, a
    known fault of headless Chrome's tracing): such a run is made again, at most twice."""
    args = ["npx", "--yes", LIGHTHOUSE, url, "--output=json", f"--output-path={out}", "--quiet",
            "--chrome-flags=--headless=new --no-sandbox", f"--extra-headers={json.dumps({'Cookie': cookie})}"]
    if form == "desktop":
        args.append("--preset=desktop")
    environment = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", "/usr/lib/chromium/chromium")}
    for _ in range(3):
        subprocess.run(args, env=environment, timeout=600)  # exits 1 on a lost trace: the report says why
        report = json.loads(out.read_text())
        if not report.get("runtimeError"):
            return report
    raise AssertionError(f"Lighthouse could not read {url}: {report['runtimeError']['message']}")


@pytest.mark.parametrize(("page", "finished"), PAGES, ids=[f"{p}-{'end' if f else 'mid'}" if f is not None else p
                                                            for p, f in PAGES])
def test_lighthouse(served_as_in_production, browser, alice, bob, page, finished):  # noqa: F811
    server = served_as_in_production
    path = "/" if finished is None else f"/games/{position(page, [alice, bob], finished).pk}/"
    signed_in = log_in(browser, server, "alice")
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in signed_in.context.cookies())
    OUT.mkdir(exist_ok=True)
    for form in FORMS:
        name = page if finished is None else f"{page}-{'end' if finished else 'mid'}"
        report = lighthouse(f"{server.url}{path}", cookie, form, OUT / f"{name}-{form}.json")
        scores = {key: round(category["score"] * 100) for key, category in report["categories"].items()}
        metrics = {key: report["audits"][key]["displayValue"] for key in METRICS}
        print(f"\nLIGHTHOUSE {name:<24} {form:<8} " + " ".join(f"{k}={v}" for k, v in scores.items())
              + " | " + " ".join(f"{k}={v}" for k, v in metrics.items()))
