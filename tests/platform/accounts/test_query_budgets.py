"""What making an API token and logging in through the API cost in SQL statements, through the real HTTP paths:
a token the same however many the account holds already, a failed log in the same for a name of no account.

Counted as ``tests/platform/play/test_query_budgets.py`` counts: every statement, BEGIN and COMMIT included, in
real transactions.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.platform.conftest import PASSWORD, api_token
from tests.platform.play.costs import measured, token_client

pytestmark = pytest.mark.django_db(transaction=True)

# Issue 42, the cap on live tokens: the token of the request (with the note of its use), BEGIN, the account's lock,
# the count of its live tokens, the INSERT, COMMIT.
NEW_TOKEN = 6
# Issue 42, the lockout keyed by the account: the account the login names (one query), then allauth's backend (the
# address, then the username), whether the address is confirmed, and the new token's six less the request's token.
LOG_IN_BY_NAME = 10
LOG_IN_BY_ADDRESS = 8
FAILED_LOG_IN = 4


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



def _log_in(login: str, password: str):
    return measured(lambda: APIClient().post("/api/auth/token/", {"username": login, "password": password},
                                             format="json"))


def test_a_log_in_costs_its_budget_and_a_failed_one_the_same_for_a_name_of_no_account(alice):
    by_name, answer = _log_in("alice", PASSWORD)
    assert answer.status_code == 200
    by_address, answer = _log_in("alice@example.com", PASSWORD)
    assert answer.status_code == 200
    within(by_name, LOG_IN_BY_NAME, "a log in by name")
    within(by_address, LOG_IN_BY_ADDRESS, "a log in by address")
    failed, answer = _log_in("alice", "wrong password")
    unknown, unknown_answer = _log_in("nobody", "wrong password")
    assert answer.status_code == unknown_answer.status_code == 401
    within(failed, FAILED_LOG_IN, "a failed log in")
    assert unknown.statements == failed.statements
