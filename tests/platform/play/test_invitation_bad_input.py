"""Bad invitations get a clear 4xx and change nothing (the table of ``test_bad_input``, for invitations).

In the ``tables`` world alice has a private table still open (bob sits at it), two games in play
with bob, and bob has a public open table; carol sits nowhere.
"""

from __future__ import annotations

import pytest

from tests.platform.play.test_bad_input import (  # noqa: F401 (fixtures)
    HUGE,
    Bad,
    _no_keys_from_other_tests,
    _rates_off,
    database_rows,
    key_of,
    send,
    tables,
)

pytestmark = pytest.mark.django_db


def invite(name: str, body, status: int = 400, says: str = "", who: str = "alice", table: str = "private") -> Bad:
    return Bad(f"invite {name}", "POST", f"/api/games/{{{table}}}/invitations/", status, who=who, body=body, says=says)


CASES = [
    # Breaking the schema (400): not a string, too long, blank, missing, not an object.
    *[invite(f"username={value!r}", {"username": value}) for value in ([], {}, None, True, 0, "x" * 151, "")],
    invite("without a username", {}),
    invite("a JSON list", ["bob"]),
    invite("a name with a NUL", {"username": "bo\x00b"}),
    # Of the schema's shape, but no one who can be invited (422).
    invite("a name nobody has", {"username": "nobody"}, status=422, says="No player is called"),
    invite("myself", {"username": "ALICE"}, status=422, says="cannot invite yourself"),
    invite("someone seated", {"username": "bob"}, status=409, says="already has a seat"),
    invite("to a game in play", {"username": "carol"}, status=409, says="no longer taking players", table="game"),
    invite("to a table I do not sit at", {"username": "carol"}, status=403, says="Only the players", table="open"),
    invite("as a stranger to a private table", {"username": "carol"}, status=404, who="carol", says="No such game"),
    invite("to game 10**30", {"username": "carol"}, status=404, table="huge"),
    Bad("stranger lists a private table's invitations", "GET", "/api/games/{private}/invitations/", 404, who="carol"),
    Bad("a non-player lists a table's invitations", "GET", "/api/games/{open}/invitations/", 403),
    Bad("decline without an invitation", "POST", "/api/games/{open}/invitations/decline/", 403,
        says="no invitation"),
    Bad("stranger declines at a private table", "POST", "/api/games/{private}/invitations/decline/", 404, who="carol"),
    Bad("anonymous lists my invitations", "GET", "/api/invitations/", 401, who="anonymous"),
    Bad("anonymous lists the people I played with", "GET", "/api/invitations/people/", 401, who="anonymous"),
    *[Bad(f"stranger: page POST {path}", "POST", f"/games/{{private}}/{path}", 404, who="carol", api=False, body=body)
      for path, body in (("invitations/", {"username": "carol"}), ("invitations/decline/", {}))],
    Bad("page: invite to game 10**30", "POST", f"/games/{HUGE}/invitations/", 404, api=False, body={"username": "x"}),
    Bad("page: invite by GET", "GET", "/games/{private}/invitations/", 405, api=False),
]


def test_bad_invitations_get_a_4xx_and_change_nothing(tables, alice, carol, subtests):
    users = {"alice": alice, "carol": carol, "anonymous": None}
    for user in (alice, carol):
        key_of(user)
    tables = {**tables, "huge": HUGE}
    for case in CASES:
        with subtests.test(case.name):
            before = database_rows()
            response = send(case, users, tables)
            assert response.status_code == case.status, response.content[:300]
            if case.api:
                assert response["Content-Type"] == "application/problem+json", response.content[:300]  # issue 42
                assert case.says in str(response.json()), response.json()
            assert database_rows() == before
