"""What making an API token costs in SQL statements, through the real HTTP paths, however many tokens the account
holds already.

Counted as ``tests/platform/play/test_query_budgets.py`` counts: every statement, BEGIN and COMMIT included, in
real transactions.
"""

from __future__ import annotations

import pytest

from tests.platform.conftest import api_token
from tests.platform.play.costs import measured, token_client

pytestmark = pytest.mark.django_db(transaction=True)

# Issue 42, the cap on live tokens: the token of the request (with the note of its use), BEGIN, the account's lock,
# the count of its live tokens, the INSERT, COMMIT.
NEW_TOKEN = 6


def within(cost, budget: int, what: str) -> None:
    print(f"{what}: {cost.statements} statements (budget {budget})")
    assert cost.statements <= budget, f"{what}: {cost}, over {budget}:\n" + "\n".join(cost.sql)


def test_a_new_token_costs_the_same_statements_with_one_token_as_with_forty(alice):
    client = token_client(alice)
    first, answer = measured(lambda: client.post("/api/tokens/", {"name": "second"}, format="json"))
    assert answer.status_code == 201
    for number in range(40):
        api_token(alice, f"script {number}")
    later, answer = measured(lambda: client.post("/api/tokens/", {"name": "forty-third"}, format="json"))
    assert answer.status_code == 201
    within(first, NEW_TOKEN, "a second token")
    within(later, NEW_TOKEN, "a 43rd token")
    assert later.statements == first.statements
