"""The OpenAPI schema at /api/schema/: valid with no warning, one named and tagged operation per endpoint,
every answer with its shape, the error answers each endpoint can give, and examples that match."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from django.conf import settings
from django.test import Client
from django.urls import path
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from tests.platform.conftest import api_token
from turnbased.kit.api.pagination import CURSOR_PATTERN

pytestmark = pytest.mark.django_db

SCHEMA_URL = "/api/schema/?format=json"
METHODS = ("get", "put", "post", "patch", "delete")


@pytest.fixture
def schema() -> dict:
    response = Client().get(SCHEMA_URL)
    assert response.status_code == 200
    return json.loads(response.content)


def operations(schema: dict):
    for route, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                yield f"{method.upper()} {route}", item[method]


def component(schema: dict, reference: str) -> dict:
    return schema["components"]["schemas"][reference.rsplit("/", 1)[1]]


def test_the_schema_generates_and_validates_without_a_warning(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "spectacular", "--validate", "--fail-on-warn",
         "--file", str(tmp_path / "api.yaml")],
        cwd=Path(settings.BASE_DIR), capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Warning" not in result.stderr and "Error" not in result.stderr, result.stderr


def test_every_operation_has_its_own_id_one_declared_tag_and_a_summary(schema):
    declared_tags = {tag["name"] for tag in settings.SPECTACULAR_SETTINGS["TAGS"]}
    ids = [operation["operationId"] for _, operation in operations(schema)]
    assert len(ids) == len(set(ids)) >= 20
    for label, operation in operations(schema):
        assert not operation["operationId"][-1].isdigit(), label  # drf-spectacular's suffix for a clash
        assert len(operation["tags"]) == 1 and operation["tags"][0] in declared_tags, label
        assert operation.get("summary") or operation.get("description"), label
    assert {"games_list", "games_retrieve", "games_create", "games_join", "moves_create", "legal_moves_list",
            "history_list", "game_types_list"} <= set(ids)


def test_every_answer_has_a_shape_and_every_error_is_detail_json(schema):
    for label, operation in operations(schema):
        assert any(code.startswith("2") for code in operation["responses"]), label
        for code, answer in operation["responses"].items():
            if code in ("204", "304"):  # no content, and not modified: no body
                assert "content" not in answer, label
                continue
            if label == "GET /api/stream/" and code == "200":  # the event stream: text, not JSON
                assert set(answer["content"]) == {"text/event-stream"}, label
                stream = answer["content"]["text/event-stream"]
                # Text that never ends, not one JSON document: no object schema a client would wait to parse.
                assert stream.get("schema", {}).get("type", "string") == "string", label
                assert all("\nevent: " in example["value"] for example in stream["examples"].values()), label
                continue
            shape = answer["content"]["application/json"]["schema"]
            assert shape.get("$ref") or shape.get("items", {}).get("$ref"), (label, code)
            if code.startswith(("4", "5")):
                assert "detail" in component(schema, shape["$ref"])["required"], (label, code)


def test_every_operation_documents_the_errors_it_can_give(schema):
    for label, operation in operations(schema):
        codes = set(operation["responses"])
        assert "429" in codes and "Retry-After" in operation["responses"]["429"]["headers"], label
        if "requestBody" in operation:
            # 400: the body breaks the schema; 422: it has the schema's shape but cannot be done.
            assert {"400", "413", "415", "422"} <= codes, label
        parameters = operation.get("parameters", [])
        if any(parameter["in"] == "path" or parameter["name"] == "cursor" for parameter in parameters):
            assert "404" in codes, label  # a path naming nothing, or a cursor the list did not give out
        for cursor in (parameter for parameter in parameters if parameter["name"] == "cursor"):
            assert cursor["schema"]["pattern"] == CURSOR_PATTERN, label  # off the pattern: a 400
        if operation.get("security"):
            assert {"401", "403"} & codes, label
    moves = schema["paths"]["/api/games/{game_id}/moves/"]["post"]["responses"]
    assert {"200", "201", "400", "403", "404", "409", "422"} <= set(moves)
    assert "refused" in moves["422"]["description"]  # an illegal move: of the schema's shape, refused by the rules
    assert component(schema, moves["409"]["content"]["application/json"]["schema"]["$ref"])["properties"].keys() >= {
        "detail", "seq", "game"}


def test_a_query_parameter_naming_a_game_declares_the_slugs_it_accepts(schema):
    """The server refuses a game it does not have (400), so the schema must say which it has: a free string would
    call a request valid that the server rightly rejects (the fuzzer's ST202)."""
    from games import engines

    named = [(name, parameter) for name, operation in operations(schema)
             for parameter in operation.get("parameters", []) if parameter["in"] == "query"
             and parameter["name"] == "game"]
    assert named
    for name, parameter in named:
        assert set(parameter["schema"].get("enum", [])) - {""} == set(engines()), name


def test_component_names_are_unique_and_say_what_they_are(schema):
    names = set(schema["components"]["schemas"])
    assert not names & {"Input", "Output", "InputRequest", "OutputResponse"}
    assert not [name for name in names if name.endswith("Serializer")]
    assert {"Game", "GameCreateRequest", "MoveSubmitRequest", "MovePlayed", "LegalMoves", "History", "GameType",
            "Error", "MoveConflict", "Absence", "AbsenceRequest", "Profile"} <= names


def test_game_specific_json_is_documented_as_free_form_objects(schema):
    game = schema["components"]["schemas"]["Game"]["properties"]
    for name in ("view", "result", "options"):
        assert game[name]["type"] == "object" and game[name]["description"], name
    assert game["view"]["nullable"] is True
    move = schema["components"]["schemas"]["MoveSubmitRequest"]["properties"]["move"]
    assert move["type"] == "object" and "legal-moves" in move["description"]


class ThingApi(APIView):
    """An endpoint annotated its own way: a nested input serializer, an error described without a body."""

    class InputSerializer(serializers.Serializer):
        name = serializers.CharField()

    @extend_schema(request=InputSerializer, responses={204: None, 404: OpenApiResponse(description="No such thing.")})
    def post(self, request, thing_id: int):
        raise NotImplementedError  # only its schema is read


def test_an_endpoint_annotated_its_own_way_gets_a_unique_name_and_the_shared_error_answers():
    schema = SchemaGenerator(patterns=[path("api/things/<int:thing_id>/", ThingApi.as_view())]).get_schema(public=True)
    answers = schema["paths"]["/api/things/{thing_id}/"]["post"]["responses"]
    assert answers["404"]["description"] == "No such thing."
    for media_type in ("application/problem+json", "application/json"):  # a problem document, as JSON for who asks
        assert answers["404"]["content"][media_type]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert set(answers) == {"204", "400", "401", "403", "404", "406", "413", "415", "422", "429", "503"}
    assert "ThingRequest" in schema["components"]["schemas"]


def as_json_schema(node):
    """Rewrite OpenAPI 3.0's ``nullable`` as JSON Schema (the rest is the same)."""
    if isinstance(node, list):
        return [as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: as_json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


def examples_with_schemas(schema: dict):
    for label, operation in operations(schema):
        media = [("request", operation.get("requestBody", {}).get("content", {}).get("application/json"))]
        media += [(code, answer.get("content", {}).get("application/json"))
                  for code, answer in operation["responses"].items()]
        for place, content in media:
            for name, example in (content or {}).get("examples", {}).items():
                yield f"{label} {place} {name}", example["value"], content["schema"]


def test_every_example_matches_its_schema(schema):
    components = as_json_schema(schema["components"])
    checked = []
    for where, value, shape in examples_with_schemas(schema):
        jsonschema.Draft202012Validator({"components": components, **as_json_schema(shape)}).validate(value)
        checked.append(where)
    # Create a game, submit a move by text and by JSON, join: requests and answers.
    assert len(checked) >= 12, checked


def test_the_schema_is_the_same_for_everyone_and_holds_no_game(schema, started_game, alice):
    """The schema is generated from the code alone: a game in play changes nothing in it, whoever asks."""
    client = Client(HTTP_AUTHORIZATION=f"Token {api_token(alice)}")
    as_player = client.get(SCHEMA_URL)
    assert json.loads(as_player.content) == schema
    text = as_player.content.decode()
    assert started_game.invite_code not in text and started_game.seed not in text
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and started_game.invite_code not in docs.content.decode()


def test_the_event_stream_is_in_the_schema_though_another_process_serves_it(schema):
    stream = schema["paths"]["/api/stream/"]["get"]
    assert stream["operationId"] == "stream" and stream["tags"] == ["stream"]
    assert list(stream["responses"]["200"]["content"]) == ["text/event-stream"]
    assert {"401", "400", "429"} <= set(stream["responses"])
    parameters = {(parameter["in"], parameter["name"]) for parameter in stream["parameters"]}
    assert parameters == {("header", "Last-Event-ID"), ("query", "last_event_id"), ("query", "include")}
    for kind in ("game_started", "your_turn", "move_played", "message_posted", "game_finished", "deadline_near"):
        assert f"`{kind}`" in stream["description"]


def test_statuses_and_kinds_in_answers_are_open_enums_and_closed_in_requests(schema):
    """A value added later must not break a client generated from the schema (issue 42; docs/api.md, "Versioning")."""
    components = schema["components"]["schemas"]
    game_status = components["Game"]["properties"]["status"]
    assert "enum" not in game_status and game_status["type"] == "string"
    assert game_status["x-extensible-enum"] == ["open", "active", "finished", "aborted"]
    assert "enum" not in components["Webhook"]["properties"]["kinds"]["items"]
    assert "your_turn" in components["Webhook"]["properties"]["kinds"]["items"]["x-extensible-enum"]
    for name, field in (("WebhookDelivery", "state"), ("Invitation", "status"), ("Rematch", "status"),
                        ("Ending", "how"), ("MovePlayedMinimal", "status")):
        assert "enum" not in components[name]["properties"][field], (name, field)
        assert components[name]["properties"][field]["x-extensible-enum"], (name, field)
    # What a request sends stays closed: an unknown kind is refused (400), as the schema says.
    requested = components["WebhookCreateRequest"]["properties"]["kinds"]["items"]
    assert component(schema, requested["$ref"])["enum"][0] == "game_started"


def test_the_business_rules_a_schema_can_state_it_states(schema):
    """Issue 42: a webhook's scheme, the push keys' lengths, page or cursor; each answers 400 when broken."""
    components = schema["components"]["schemas"]
    assert components["WebhookCreateRequest"]["properties"]["url"]["pattern"].startswith("^\\s*[Hh][Tt][Tt][Pp][Ss]")
    keys = components["PushSubscriptionKeys"]["properties"]
    assert "{87}" in keys["p256dh"]["pattern"] and "{22}" in keys["auth"]["pattern"]
    for route in ("/api/ratings/", "/api/players/{username}/games/"):
        page = next(parameter for parameter in schema["paths"][route]["get"]["parameters"] if parameter["name"] == "page")
        assert "never both (400)" in page["description"], route
