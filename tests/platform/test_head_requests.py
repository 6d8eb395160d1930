"""A HEAD request gets what a GET would, without the body: link checkers and uptime monitors send HEAD.

Walked from the URL configuration (``secrecy/doors.py``), so a page added later is held to it too.
"""

from __future__ import annotations

import pytest

from tests.platform.secrecy import doors

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("signed_in", [True, False], ids=["player", "visitor"])
def test_every_page_answers_head_as_it_answers_get(started_game, alice, signed_in):
    door = doors.Door(game=started_game, user=alice if signed_in else None)
    client = door.client()
    differing = []
    checked = 0
    for route in doors.walked_routes():
        if route.name in doors.POSTS or "seq" in route.parameters and route.name is None:
            continue
        path = door.path(route, seq="0") if "seq" in route.parameters else door.path(route)
        got, head = client.get(path), client.head(path)
        checked += 1
        if head.status_code != got.status_code or head.content:
            differing.append(f"{path}: GET {got.status_code}, HEAD {head.status_code} with {len(head.content)} bytes")
    assert checked > 20
    assert not differing, "\n".join(differing)
