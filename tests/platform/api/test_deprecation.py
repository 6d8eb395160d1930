"""Deprecation: what is on its way out says so in Deprecation, Sunset and Link headers, and in the schema and docs.

A test-only endpoint shows the mechanism whole (an endpoint deprecated outright, and one that is
deprecated only when a request sends an old parameter); the real deprecations are checked against
the policy's notice period, the schema and docs/api.md.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from turnbased.kit.api.deprecation import DEPRECATIONS, MINIMUM_NOTICE_DAYS, Deprecated, deprecated, uses_query_parameter
from turnbased.webhooks import signing

GONE_SOON = Deprecated(what="GET /api/things/", instead="GET /api/stuff/", deprecated_on=date(2027, 1, 1),
                       sunset_on=date(2027, 7, 1), notice="/api/docs/#/things")
OLD_NAME = Deprecated(what="the old parameter", instead="new", deprecated_on=date(2027, 1, 1),
                      sunset_on=date(2027, 12, 31), notice="https://example.org/notices/old", parameter="old")


class ThingsApi(APIView):
    """A test-only endpoint: deprecated outright, and also for the old parameter; refuses ?missing."""

    permission_classes = [AllowAny]
    authentication_classes = []

    @deprecated(OLD_NAME, when=uses_query_parameter("old"))
    @deprecated(GONE_SOON)
    def get(self, request):
        if "missing" in request.query_params:
            raise NotFound("No such thing.")
        return Response({"things": []})


def _get(query: str = ""):
    request = APIRequestFactory().get(f"/api/things/{query}", HTTP_HOST="testserver")
    return ThingsApi.as_view()(request)


def test_a_deprecated_endpoint_announces_when_and_where_to_read_about_it():
    response = _get()
    assert response.status_code == 200
    assert response["Deprecation"] == "@1798761600"  # 2027-01-01T00:00:00Z, as RFC 9745 writes a moment
    assert response["Sunset"] == "Thu, 01 Jul 2027 00:00:00 GMT"  # an HTTP date, RFC 8594
    assert response["Link"] == '<http://testserver/api/docs/#/things>; rel="deprecation"; type="text/html"'


def test_a_deprecated_parameter_adds_its_notice_only_when_sent_and_errors_carry_it_too():
    assert "example.org" not in _get()["Link"]
    both = _get("?old=1&missing=1")
    assert both.status_code == 404
    assert both["Link"] == ('<http://testserver/api/docs/#/things>; rel="deprecation"; type="text/html", '
                            '<https://example.org/notices/old>; rel="deprecation"; type="text/html"')
    assert both["Sunset"] == "Thu, 01 Jul 2027 00:00:00 GMT"  # the earlier sunset: from then on, something stops


def test_the_policy_refuses_a_notice_shorter_than_its_minimum():
    with pytest.raises(ValueError, match="notice"):
        Deprecated(what="x", instead="y", deprecated_on=date(2027, 1, 1), sunset_on=date(2027, 2, 1), notice="/")
    assert all((notice.sunset_on - notice.deprecated_on).days >= MINIMUM_NOTICE_DAYS for notice in DEPRECATIONS)


@pytest.mark.django_db
def test_the_schema_marks_each_deprecated_parameter_and_documents_the_headers():
    schema = Client().get("/api/schema/?format=json").json()
    marked = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                if parameter.get("deprecated"):
                    marked.append((path, parameter["name"]))
                    assert "Deprecated: use" in parameter["description"]
                    assert {"Deprecation", "Sunset", "Link"} <= set(operation["responses"]["200"]["headers"])
    assert sorted(marked) == sorted([("/api/ratings/", "page"), ("/api/players/{username}/games/", "page"),
                                     ("/api/games/{game_id}/messages/", "limit")])
    assert len(marked) == len([notice for notice in DEPRECATIONS if notice.parameter])


@pytest.mark.django_db
def test_the_schema_marks_each_deprecated_key_of_an_answer_and_documents_the_headers():
    schema = Client().get("/api/schema/?format=json").json()
    marked = sorted((name, key) for name, component in schema["components"]["schemas"].items()
                    for key, field in component.get("properties", {}).items() if field.get("deprecated"))
    assert marked == [("MovePlayed", "game")]
    move = schema["paths"]["/api/games/{game_id}/moves/"]["post"]
    assert not move.get("deprecated")  # the operation stays; one of its answers' keys goes
    assert {"Deprecation", "Sunset", "Link"} <= set(move["responses"]["201"]["headers"])
    assert len(marked) == len([notice for notice in DEPRECATIONS if notice.answer])


def test_every_deprecation_is_listed_in_the_api_docs_with_its_sunset():
    docs = (Path(settings.BASE_DIR) / "docs" / "api.md").read_text()
    listed = docs[docs.index("### Deprecated now"):]
    # The webhook deliveries' headers on their way out are announced by the deliveries, not by an API view.
    named = {signing.LEGACY_HEADERS: signing.HEADER_TIMESTAMP}
    for notice in (*DEPRECATIONS, signing.LEGACY_HEADERS):
        name = named.get(notice) or notice.parameter or notice.answer
        row = next((line for line in listed.splitlines() if line.startswith(f"| `{name}`")), "")
        assert notice.deprecated_on.isoformat() in row and notice.sunset_on.isoformat() in row, notice.what
