"""Every rate and cap comes from the environment, is documented, and RATE_LIMITS=off turns the rates off."""

from __future__ import annotations

import importlib.util
import re
import runpy
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

ROOT = Path(__file__).resolve().parents[5]
SETTINGS_FILE = importlib.util.find_spec("turnbased.settings").origin

DEFAULTS = {
    "RATE_LIMIT_API": "300/min",
    "RATE_LIMIT_AUTH": "10/min",
    "RATE_LIMIT_TABLE_CREATE": "30/hour",
    "RATE_LIMIT_MOVES": "60/min",
    "RATE_LIMIT_CHAT": "10/min",
    "RATE_LIMIT_INVITATIONS": "30/hour",
    "RATE_LIMIT_WEBHOOKS": "60/hour",
    "RATE_LIMIT_CONTACTS": "60/hour",
    "RATE_LIMIT_GROUPS": "60/hour",
    "RATE_LIMIT_COMPETITIONS": "60/hour",
    "RATE_LIMITS": "on",
    "TRUSTED_PROXY_COUNT": "0",
    "MAX_OPEN_TABLES_PER_ACCOUNT": "10",
    "MAX_BOT_TABLES_PER_ACCOUNT": "3",
    "GAMES_WAITING_TO_CREATE": "3",
    "GAMES_WAITING_TO_JOIN": "4",
    "NEW_ACCOUNT_OPEN_GAMES": "3",
}
WAITING = ("GAMES_WAITING_TO_CREATE", "GAMES_WAITING_TO_JOIN", "NEW_ACCOUNT_OPEN_GAMES")
SCOPES = {"api": "RATE_LIMIT_API", "auth": "RATE_LIMIT_AUTH", "table_create": "RATE_LIMIT_TABLE_CREATE", "moves": "RATE_LIMIT_MOVES",
          "chat": "RATE_LIMIT_CHAT", "invitations": "RATE_LIMIT_INVITATIONS",
          "webhooks": "RATE_LIMIT_WEBHOOKS", "contacts": "RATE_LIMIT_CONTACTS", "groups": "RATE_LIMIT_GROUPS",
          "competitions": "RATE_LIMIT_COMPETITIONS"}


def settings_from(monkeypatch, **environment) -> dict:
    """Read the settings module afresh with only ``environment`` set among the limit variables."""
    for name in DEFAULTS:
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(SETTINGS_FILE)


def limits_of(values: dict) -> dict:
    return {
        **{SCOPES[scope]: rate for scope, rate in values["REST_FRAMEWORK"]["DEFAULT_THROTTLE_RATES"].items()},
        "RATE_LIMITS": "on" if values["RATE_LIMITS_ON"] else "off",
        "TRUSTED_PROXY_COUNT": str(values["REST_FRAMEWORK"]["NUM_PROXIES"]),
        "MAX_OPEN_TABLES_PER_ACCOUNT": str(values["MAX_OPEN_TABLES_PER_ACCOUNT"]),
        "MAX_BOT_TABLES_PER_ACCOUNT": str(values["MAX_BOT_TABLES_PER_ACCOUNT"]),
        **{name: "off" if values[name] is None else str(values[name]) for name in WAITING},
    }


def test_limits_are_on_by_default_with_the_documented_values(monkeypatch):
    assert limits_of(settings_from(monkeypatch)) == DEFAULTS


def test_every_rate_and_cap_comes_from_the_environment(monkeypatch):
    changed = {
        "RATE_LIMIT_API": "100/s", "RATE_LIMIT_AUTH": "3/hour",
        "RATE_LIMIT_TABLE_CREATE": "9/minute", "RATE_LIMIT_MOVES": "7/min", "RATE_LIMIT_CHAT": "5/hour",
        "RATE_LIMIT_INVITATIONS": "5/day", "RATE_LIMIT_WEBHOOKS": "2/minute",
        "RATE_LIMIT_CONTACTS": "8/day", "RATE_LIMIT_GROUPS": "6/hour", "RATE_LIMIT_COMPETITIONS": "4/day",
        "RATE_LIMITS": "off",
        "TRUSTED_PROXY_COUNT": "1", "MAX_OPEN_TABLES_PER_ACCOUNT": "4", "MAX_BOT_TABLES_PER_ACCOUNT": "1",
        "GAMES_WAITING_TO_CREATE": "off", "GAMES_WAITING_TO_JOIN": "0", "NEW_ACCOUNT_OPEN_GAMES": "7",
    }
    with_rates_off = limits_of(settings_from(monkeypatch, **changed))
    # RATE_LIMITS=off turns the limits on games waiting off too (the load tests seat one account at many tables).
    assert with_rates_off == {**changed, **{name: "off" for name in WAITING}}
    changed["RATE_LIMITS"] = "on"
    assert limits_of(settings_from(monkeypatch, **changed)) == changed


@pytest.mark.parametrize("value", ["-1", "three", "3.5"])
def test_an_unreadable_limit_on_games_waiting_stops_the_service_at_start(monkeypatch, value):
    with pytest.raises(ImproperlyConfigured, match="GAMES_WAITING_TO_JOIN"):
        settings_from(monkeypatch, GAMES_WAITING_TO_JOIN=value)


@pytest.mark.parametrize(("value", "on"), [("off", False), ("OFF", False), ("0", False), ("false", False),
                                            ("no", False), ("on", True), ("1", True), ("yes", True)])
def test_rate_limits_off_is_the_only_way_to_turn_them_off(monkeypatch, value, on):
    assert settings_from(monkeypatch, RATE_LIMITS=value)["RATE_LIMITS_ON"] is on


@pytest.mark.parametrize("rate", ["60", "60 per minute", "sixty/min", "60/fortnight", "/min"])
def test_an_unreadable_rate_stops_the_service_at_start(monkeypatch, rate):
    with pytest.raises(ImproperlyConfigured, match="RATE_LIMIT_MOVES"):
        settings_from(monkeypatch, RATE_LIMIT_MOVES=rate)


def test_the_operating_guide_documents_every_limit_with_its_default():
    guide = (ROOT / "docs" / "operating.md").read_text()
    security = guide.split("\n## Security\n", 1)[1].split("\n## ", 1)[0]
    for variable, default in DEFAULTS.items():
        assert re.search(rf"^\| `{variable}` \| `{re.escape(default)}` \| \S", security, re.M), variable


def test_benchmarks_that_load_django_turn_the_rate_limits_off_first():
    loading_django = []
    scripts = {script.name: script.read_text() for script in sorted((ROOT / "benchmarks").glob("*.py"))}
    for name, source in scripts.items():
        if re.search(r"^import pytest$", source, re.M):
            # Pages pytest serves (Django loaded by the runner): the script that starts pytest turns them off.
            runners = [other for other, text in scripts.items() if f"benchmarks/{name}" in text and other != name]
            assert runners, f"{name} is run by no benchmark"
            assert all('"RATE_LIMITS": "off"' in scripts[runner] for runner in runners), name
            continue
        loads_django = re.search(r"^\s*(import|from) (django|rest_framework|turnbased)\b", source, re.M)
        if loads_django:
            loading_django.append(name)
            switch = source.find('os.environ["RATE_LIMITS"] = "off"')
            assert 0 <= switch < loads_django.start(), f"{name} must set RATE_LIMITS=off before Django loads"
    assert "play_speed.py" in loading_django
