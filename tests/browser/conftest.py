"""Browser fixtures: Playwright driving the system's Chromium against the live test server."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.platform.conftest import alice, bob, make_user, start_scripted_game  # noqa: F401 (shared fixtures)

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")

# Playwright's sync API runs an event loop in this thread; the test's own database calls are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# Every page reports the Content-Security-Policy violations it sees (the event carries what was blocked).
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (event) {
  window.reportCspViolation(event.violatedDirective + " blocked " + (event.blockedURI || "an inline script or style")
    + " (" + event.sourceFile + ":" + event.lineNumber + ") " + event.sample);
});
"""


class CspWatchedBrowser:
    """The browser, whose every context and page records Content-Security-Policy violations."""

    def __init__(self, browser):
        self._browser = browser
        self.violations: list[str] = []

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.expose_binding("reportCspViolation", lambda source, text: self.violations.append(
            f"{source['frame'].url}: {text}"))
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        context.on("page", self._watch_console)
        return context

    def new_page(self, **options):
        return self.new_context(**options).new_page()

    def _watch_console(self, page):
        def console(message):
            if "Content Security Policy" in message.text:
                self.violations.append(f"{page.url}: {message.text}")

        page.on("console", console)


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package for the browser tests")
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run", "--disable-quic"],
        )
        yield CspWatchedBrowser(browser)
        browser.close()


@pytest.fixture(autouse=True)
def _close_pages_and_check_the_policy_after_each_test(request):
    """Close the test's pages so they stop polling a live server that is going away; fail on any CSP violation."""
    if "browser" not in request.fixturenames:
        yield
        return
    watched = request.getfixturevalue("browser")
    watched.violations.clear()
    yield
    for context in list(watched.contexts):
        context.close()
    assert watched.violations == [], "the Content-Security-Policy blocked something:\n" + "\n".join(watched.violations)
