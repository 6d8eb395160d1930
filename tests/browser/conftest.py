"""Browser fixtures: Playwright driving the system's Chromium against the live test server."""

from __future__ import annotations

import os
import shutil

import pytest

from tests.platform.conftest import alice, bob, make_user, start_scripted_game  # noqa: F401 (shared fixtures)

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or shutil.which("chromium-browser")

# Playwright's sync API runs an event loop in this thread; the test's own database calls are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


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
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _close_pages_after_each_test(request):
    """Close the test's pages so they stop polling a live server that is going away."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()
