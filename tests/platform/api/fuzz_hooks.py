"""schemathesis hooks for the command-line run of test_coverage_phase.py (loaded through SCHEMATHESIS_HOOKS).

A request whose path names an object by id is sent to a real one of the test's world (the ids come in
TURNBASED_FUZZ_TARGETS, JSON by parameter name; TURNBASED_FUZZ_OPERATION_TARGETS names others for the operations
that need an object of their own: a table to join, a proposed rematch, an invitation to decline), so the body and
query behind it reach the code that reads them instead of a 404. A path parameter the case made invalid on
purpose (a negative case: text that is no number, a negative id) is left as it is.

Drawn data that the schema allows but the world refuses for what it says (a username taken, a day in the past, an
address that does not resolve here, a move the rules forbid) is steered, in some positive cases, to data the world
takes (TURNBASED_FUZZ_VALID), so that each operation is seen to accept a request and schemathesis warns of nothing:
issue 42's run "reports nothing". An ``Idempotency-Key`` is made unique to its request (the same key for another
request is refused with 422, as documented); a move sends it in its body too, so both name the same key.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
from datetime import date, timedelta

import requests
import schemathesis
from schemathesis import GenerationMode

TARGETS: dict[str, int | str] = json.loads(os.environ.get("TURNBASED_FUZZ_TARGETS", "{}"))
OPERATION_TARGETS: dict[str, dict[str, int | str]] = json.loads(
    os.environ.get("TURNBASED_FUZZ_OPERATION_TARGETS", "{}"))
VALID: dict[str, dict] = json.loads(os.environ.get("TURNBASED_FUZZ_VALID", "{}"))
BASE_URL = os.environ.get("TURNBASED_FUZZ_BASE_URL", "").rstrip("/")
# One positive case in STEERED_EVERY of an operation is steered to data the world takes (one in two: make test's run
# draws three of each operation, and an account's or a device's drawn at random is mostly refused); every one of the
# operations whose body only names a person (any drawn name names nobody: a 422 each time).
STEERED_EVERY = 2
# A group's name drawn at random is mostly refused for what it says (two alphabets mixed, a control character, a
# name taken), a webhook's address mostly names no host that resolves, and a device's endpoint no push service the
# site sends to: those three are steered every time too, keeping the rest of what was drawn.
ALWAYS_STEERED = {"POST /api/me/following/", "POST /api/me/blocked/", "POST /api/groups/{group_id}/invitations/",
                  # Issue 46: a proposal's terms depend on its kind, a seat offer's seat on the game.
                  "POST /api/games/{game_id}/proposals/", "POST /api/games/{game_id}/seat-offers/",
                  # Issue 46: a drawn id names a game ann may follow only by chance, a drawn spot no card of hers.
                  "POST /api/watches/", "PUT /api/games/{game_id}/notes/",
                  # Drawn settings rarely fit together: unsteered, the coverage phase's cases of these were mostly
                  # refused (422), and whether "mostly" was crossed turned on the run's whole random stream.
                  "POST /api/games/", "POST /api/competitions/",
                  "POST /api/groups/{group_id}/owner/", "POST /api/groups/", "PATCH /api/webhooks/{webhook_id}/",
                  "POST /api/me/push-subscriptions/", "POST /api/competitions/{competition_id}/invitations/"}
_numbers = itertools.count(1)
_steered: dict[str, itertools.count] = {}


def _is_positive(case) -> bool:
    return case.meta is not None and case.meta.generation.mode == GenerationMode.POSITIVE


def _unique_key(key: str) -> str:
    """Return ``key`` made unique to this request, still 1 to 100 visible ASCII characters."""
    suffix = f"~{next(_numbers)}"
    return key[: 100 - len(suffix)] + suffix


def _steer(case, label: str) -> None:
    """Make a positive case's body one the world takes (a fresh username, a coming day, a legal move...)."""
    body = case.body if isinstance(case.body, dict) else None
    number = next(_numbers)
    if label == "POST /api/accounts/":
        case.body = {"username": f"fuzzed{number}", "email": f"fuzzed{number}@example.org",
                     "password": f"a-long-enough-pass-{number}"}
    elif label == "POST /api/absences/":
        day = (date.today() + timedelta(days=1 + number % 300)).isoformat()
        case.body = {"starts_on": day, "ends_on": day}
    elif label in ("POST /api/webhooks/", "PATCH /api/webhooks/{webhook_id}/") and body is not None:
        case.body = {**body, "url": f"https://127.0.0.1:9999/fuzzed/{number}"}  # private addresses allowed here
    elif label in ("POST /api/me/following/", "POST /api/me/blocked/", "POST /api/groups/{group_id}/invitations/",
                   "POST /api/groups/{group_id}/owner/", "POST /api/competitions/{competition_id}/invitations/"):
        # Different people: a player one blocked cannot be followed (409), which would make following mostly refused.
        case.body = {"username": VALID["contacts"][label]}
    elif label == "POST /api/groups/" and body is not None:
        case.body = {**body, "name": f"Fuzzed club {number}"}
        if not isinstance(body.get("description", ""), str) or len(body.get("description", "")) > 2000:
            case.body.pop("description", None)
    elif label == "POST /api/competitions/":
        # Drawn settings rarely fit together (a start in the past, a format the table size refuses): a competition
        # that can run.
        starts = (date.today() + timedelta(days=2 + number % 300)).isoformat() + "T12:00:00+00:00"
        case.body = {"name": f"Fuzzed cup {number}", "game": "love-letter", "starts_at": starts,
                     "time_control": {"kind": "per_move", "days_per_move": 3}}
    elif label == "POST /api/games/":
        case.body = {"game": "halali", "players": 2}
    elif label == "POST /api/games/{game_id}/proposals/":
        # The first is made (a pause the played game's table takes), the ones after wait behind it (409).
        case.body = {"kind": "pause", "days": 1 + number % 14}
    elif label == "POST /api/games/{game_id}/seat-offers/":
        case.body = {"seat": OPERATION_TARGETS[label]["seat"], "username": "gil"}
    elif label == "PUT /api/games/{game_id}/notes/":
        text = body.get("text") if body is not None else None
        case.body = {"text": text if isinstance(text, str) and len(text) <= 20_000 else "a plan"}
    elif label == "POST /api/watches/":
        notify = body.get("notify") if body is not None else None
        case.body = {"kind": "game", "target": OPERATION_TARGETS[label]["target"],
                     **({"notify": notify} if notify in ("off", "ends", "moves") else {})}
    elif label == "POST /api/me/push-subscriptions/":
        case.body = copy.deepcopy(VALID["push_subscription"])
    elif label == "POST /api/games/{game_id}/moves/":
        headers = {name: value for name, value in (case.headers or {}).items() if name.lower() == "authorization"}
        legal = requests.get(f"{BASE_URL}/api/games/{case.path_parameters['game_id']}"
                             "/legal-moves/", headers=headers, timeout=10)
        moves = legal.json().get("moves") if legal.status_code == 200 else None
        if moves:
            case.body = {"move": moves[0]["move"], "expected_seq": legal.json()["seq"]}


@schemathesis.hook
def before_call(context, case, kwargs):
    label = f"{case.method.upper()} {case.path}"
    parameters = case.path_parameters or {}
    positive = _is_positive(case)
    for name, value in {**TARGETS, **OPERATION_TARGETS.get(label, {})}.items():
        drawn = parameters.get(name)
        if isinstance(value, int) and isinstance(drawn, str):
            if drawn.isascii() and drawn.isdigit():
                parameters[name] = str(value)  # the coverage phase writes a path's integers as text
        elif type(drawn) is type(value) and (positive or not isinstance(value, int) or drawn >= 0):
            parameters[name] = value
    if not positive:
        return
    counter = _steered.setdefault(label, itertools.count())
    if next(counter) % STEERED_EVERY == 0 or label in ALWAYS_STEERED:
        _steer(case, label)
    headers = case.headers if case.headers is not None else {}
    body = case.body if isinstance(case.body, dict) else None
    key = next((name for name in headers if name.lower() == "idempotency-key"), None)
    if key is not None:
        headers[key] = _unique_key(str(headers[key]))
        if body is not None and "idempotency_key" in body:
            body["idempotency_key"] = headers[key]
    elif body is not None and isinstance(body.get("idempotency_key"), str):
        body["idempotency_key"] = _unique_key(body["idempotency_key"])
