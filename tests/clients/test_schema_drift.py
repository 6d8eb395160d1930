"""The client library and the API's schema cannot drift apart.

The schema is generated here from the code, as ``/api/schema/`` serves it. Every operation in it
must have exactly one method of ``turnbased_client.Client`` (its ``@operation`` mark), calling the
same method and path with the same path, query and body parameters, sending If-None-Match where
the operation reads it and an Idempotency-Key where it takes one, and typed with the answer's shape
field by field. So a new endpoint, a renamed field or a changed answer fails here until the client
follows.
"""

from __future__ import annotations

import inspect
import json
import types
import typing
from collections.abc import Iterator, Mapping
from typing import Any, Literal, get_args, get_origin, get_type_hints

import httpx
import pytest
from django.urls import path
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.views import APIView

from turnbased_client import StreamEvent
from turnbased_client import client as client_module
from turnbased_client.client import NOT_OPERATIONS, Client
from turnbased_client.core import UNSET, Operation, Unset, operation, operations

METHODS = ("get", "put", "post", "patch", "delete")
# A list method walks every page itself (Client.iter_results follows ``next``): it takes no cursor.
PAGE_PARAMETERS = {"cursor"}
# A deprecated parameter (docs/api.md, "Deprecated now") is left out: the client uses what replaces it.
SCALARS = {"integer": int, "number": float, "boolean": bool, "string": str}


@pytest.fixture(scope="module")
def schema() -> dict:
    # Through JSON, as a client reads it (the generator's dict holds lazy strings).
    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))


def schema_operations(schema: dict) -> dict[str, dict]:
    """Return each operation by its id, with its method, path, parameters, body fields and answer."""
    found = {}
    for route, item in schema["paths"].items():
        for method in METHODS:
            if method not in item:
                continue
            spec = item[method]
            parameters = spec.get("parameters", [])
            body = spec.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            answers = {code: answer for code, answer in spec["responses"].items() if code.startswith("2")}
            found[spec["operationId"]] = {
                "method": method.upper(), "path": route,
                "path_parameters": {p["name"] for p in parameters if p["in"] == "path"},
                "query": {p["name"]: p for p in parameters if p["in"] == "query"},
                "deprecated": {p["name"] for p in parameters if p["in"] == "query" and p.get("deprecated")},
                "conditional": any(p["in"] == "header" and p["name"] == "If-None-Match" for p in parameters),
                "idempotent": any(p["in"] == "header" and p["name"] == "Idempotency-Key" for p in parameters),
                "body": resolve(schema, body) if body else None,
                "answer": answer_schema(answers),
                "streams": any("text/event-stream" in answer.get("content", {}) for answer in answers.values()),
            }
    return found


def answer_schema(answers: dict) -> dict | None:
    """Return the schema of the operation's success answer; None when it has no body (204)."""
    for code in sorted(answers):
        content = answers[code].get("content", {}).get("application/json")
        if content:
            return content["schema"]
    return None


def resolve(schema: dict, node: dict) -> dict:
    """Follow a ``$ref`` (or a single ``allOf``), keeping the referring node's ``nullable``."""
    while "$ref" in node or ("allOf" in node and len(node["allOf"]) == 1):
        reference = node["$ref"] if "$ref" in node else node["allOf"][0]["$ref"]
        target = schema["components"]["schemas"][reference.rsplit("/", 1)[1]]
        node = {**target, "nullable": node.get("nullable", False) or target.get("nullable", False)}
    return node


def type_problems(schema: dict, node: dict, hint: Any, where: str) -> list[str]:
    """Say where the Python type ``hint`` differs from the schema ``node``, field by field."""
    node = resolve(schema, node)
    members = get_args(hint) if get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    nullable = type(None) in members
    members = tuple(member for member in members if member is not type(None))
    if nullable != bool(node.get("nullable")):
        return [f"{where}: nullable is {bool(node.get('nullable'))} in the schema, {nullable} in the client"]
    if "oneOf" in node:  # one of several answers (a lean one the request may ask for): a Union, in the same order
        if len(node["oneOf"]) != len(members):
            return [f"{where}: one of {len(node['oneOf'])} answers in the schema, {hint} in the client"]
        return [problem for index, (option, member) in enumerate(zip(node["oneOf"], members))
                for problem in type_problems(schema, option, member, f"{where}|{index}")]
    hint = members[0] if len(members) == 1 else typing.Union[members]  # noqa: UP007
    kind = node.get("type")
    if "enum" in node:
        values = {value for value in node["enum"] if value is not None}
        if get_origin(hint) is not Literal or set(get_args(hint)) != values:
            return [f"{where}: the schema's choices are {sorted(values, key=str)}, the client's type is {hint}"]
        return []
    if kind == "object" and node.get("additionalProperties") is False and is_keyed_map(node):
        # Named keys that all hold one kind of value (a new table's seats to bots): a mapping in the client.
        maps = [member for member in members if get_origin(member) in (dict, Mapping)]
        if len(maps) != len(members):
            return [f"{where}: a map with named keys in the schema, {hint} in the client"]
        value = next(iter(node["properties"].values()))
        return [problem for member in maps for problem in type_problems(schema, value, get_args(member)[1], f"{where}[]")]
    if kind == "object" and "properties" in node:
        if not typing.is_typeddict(hint):
            return [f"{where}: an object with fields in the schema, {hint} in the client"]
        fields, required = set(node["properties"]), set(node.get("required", []))
        problems = [f"{where}: fields {sorted(fields)} in the schema, {sorted(hint.__annotations__)} in the client"
                    ] if fields != set(hint.__required_keys__ | hint.__optional_keys__) else []
        if not problems and required != set(hint.__required_keys__):
            problems.append(f"{where}: always present {sorted(required)} in the schema, "
                            f"{sorted(hint.__required_keys__)} in the client")
        hints = get_type_hints(hint)
        for name in sorted(fields & set(hints)):
            problems += type_problems(schema, node["properties"][name], hints[name], f"{where}.{name}")
        return problems
    if kind == "object":
        values = node.get("additionalProperties", {})
        if get_origin(hint) is not dict or get_args(hint)[0] is not str:
            return [f"{where}: a free-form object in the schema, {hint} in the client"]
        if values in ({}, True):
            return [] if get_args(hint)[1] is Any else [f"{where}: any values in the schema, {hint} in the client"]
        return type_problems(schema, values, get_args(hint)[1], f"{where}[]")
    if kind == "array":
        if get_origin(hint) is not list:
            return [f"{where}: an array in the schema, {hint} in the client"]
        return type_problems(schema, node["items"], get_args(hint)[0], f"{where}[]")
    expected = SCALARS.get(kind, Any)
    return [] if hint is expected else [f"{where}: {kind or 'any'} in the schema, {hint} in the client"]


def is_keyed_map(node: dict) -> bool:
    """Tell whether an object's properties are all of one schema: a map whose possible keys the schema names."""
    return len({json.dumps(value, sort_keys=True) for value in node.get("properties", {}).values()}) == 1


def listed_items(schema: dict, answer: dict, listed: str, where: str) -> tuple[dict | None, list[str]]:
    """Return the items' schema of a list answer: an array, an array under ``listed``, or a page of results."""
    node = resolve(schema, answer)
    if node.get("type") == "array":
        return node["items"], []
    properties = node.get("properties", {})
    if {"next", "results"} <= set(properties):
        return properties["results"]["items"], []
    if listed and properties.get(listed, {}).get("type") == "array":
        return properties[listed]["items"], []
    return None, [f"{where}: the client reads a list{f' under {listed!r}' if listed else ''}; the answer has none"]


def drift(schema: dict, client_class: type) -> list[str]:
    """Return every difference between the schema's operations and the client's methods."""
    served, called = schema_operations(schema), operations(client_class)
    problems = [f"{op_id} ({served[op_id]['method']} {served[op_id]['path']}): no client method"
                for op_id in sorted(set(served) - set(called))]
    problems += [f"{name}: calls {op_id}, which the schema does not have" for op_id, (name, _) in sorted(called.items())
                 if op_id not in served]
    for op_id in sorted(set(served) & set(called)):
        name, op = called[op_id]
        problems += method_problems(schema, served[op_id], op, getattr(client_class, name), name)
    public = {name for name, value in vars(client_class).items() if callable(value) and not name.startswith("_")}
    problems += [f"{name}: a public method that is neither an operation nor in NOT_OPERATIONS"
                 for name in sorted(public - {name for name, _ in called.values()} - set(NOT_OPERATIONS))]
    return problems


def method_problems(schema: dict, served: dict, op: Operation, method, name: str) -> list[str]:
    where = f"{name} ({op.operation_id})"
    problems = []
    if (op.method, op.path) != (served["method"], served["path"]):
        problems.append(f"{where}: {op.method} {op.path} in the client, {served['method']} {served['path']} served")
    parameters = inspect.signature(method).parameters
    positional = [p for p in list(parameters)[1:] if parameters[p].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD]
    if set(op.path_parameters) != served["path_parameters"] or not set(op.path_parameters) <= set(positional):
        problems.append(f"{where}: path parameters {sorted(served['path_parameters'])} served, "
                        f"{list(op.path_parameters)} declared, {positional} taken")
    served_query = set(served["query"]) - (PAGE_PARAMETERS if op.listed is not None else set())
    deprecated = served_query & served["deprecated"]
    if set(op.query) != served_query - deprecated:
        problems.append(f"{where}: query {sorted(served['query'])} served"
                        f"{f' ({sorted(deprecated)} deprecated)' if deprecated else ''}, "
                        f"{sorted(op.query)} in the client")
    body_fields = set((served["body"] or {}).get("properties", {}))
    if set(op.body) != body_fields:
        problems.append(f"{where}: body fields {sorted(body_fields)} served, {sorted(op.body)} in the client")
    problems += [f"{where}: sends {field} but takes no parameter of that name"
                 for field in (*op.query, *op.body) if field not in parameters]
    if op.conditional != served["conditional"]:
        problems.append(f"{where}: If-None-Match is {served['conditional']} served, {op.conditional} in the client")
    if op.idempotent != served["idempotent"]:
        problems.append(f"{where}: Idempotency-Key is {served['idempotent']} served, {op.idempotent} in the client")
    hints = get_type_hints(method)
    returned = hints["return"]
    if served["streams"]:  # Server-Sent Events: the method yields them
        return problems + ([] if get_origin(returned) is Iterator else [
            f"{where}: an event stream served, returns {returned}"])
    if served["answer"] is None:
        return problems + ([] if returned is type(None) else [f"{where}: no body served, returns {returned}"])
    if op.gathered:  # a page with keys of its own: returned whole, every page's results in it
        if not {"next", "results"} <= set(resolve(schema, served["answer"]).get("properties", {})):
            return problems + [f"{where}: gathers pages, but the answer is not a page"]
    elif op.listed is not None:
        items, listed_problems = listed_items(schema, served["answer"], op.listed, where)
        if listed_problems:
            return problems + listed_problems
        if get_origin(returned) is not list:
            return problems + [f"{where}: returns {returned} for a list answer"]
        return problems + type_problems(schema, items, get_args(returned)[0], f"{where} -> []")
    problems += type_problems(schema, served["answer"], returned, f"{where} ->")
    # Objects sent in the body (a new table's clock) are typed as the schema says too.
    for field in sorted(set(op.body) & body_fields & set(hints)):
        node = served["body"]["properties"][field]
        if "properties" in resolve(schema, node):
            problems += type_problems(schema, node, without_unset(hints[field]), f"{where} <- {field}")
    return problems


def without_unset(hint: Any) -> Any:
    """Return a parameter's type without ``Unset`` (the value that leaves the field out)."""
    members = get_args(hint) if get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
    return typing.Union[tuple(member for member in members if member is not Unset)]  # noqa: UP007


def test_every_operation_of_the_schema_is_a_client_method_exactly_as_served(schema):
    assert drift(schema, Client) == []
    assert len(operations(Client)) == len(schema_operations(schema)) >= 40


def sample_arguments(method, op: Operation) -> tuple[list, dict]:
    """Return arguments for every parameter of a method: a made-up value of roughly the right kind."""
    positional, keywords = [], {}
    for name, parameter in list(inspect.signature(method).parameters.items())[1:]:
        value: Any = {"1": "random"} if "Mapping" in str(parameter.annotation) else (
            "someone" if name == "username" else 7)
        if parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
            positional.append(value)
        else:
            keywords[name] = value
    return positional, keywords


@pytest.mark.parametrize("operation_id", sorted(operations(Client)))
def test_each_method_sends_the_request_it_declares(operation_id):
    name, op = operations(Client)[operation_id]
    seen: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.headers.get("Accept") == "text/event-stream":
            return httpx.Response(200, text="data: {}\n\n")
        if request.method in ("DELETE",) or op.operation_id in ("games_leave", "absences_end",
                                                                 "games_invitations_decline"):
            return httpx.Response(204)
        page = {"next": None, "previous": None, "results": []}
        return httpx.Response(200, json=page if op.listed is not None else {})

    api = Client("http://testserver", token="key", transport=httpx.MockTransport(answer))
    positional, keywords = sample_arguments(getattr(Client, name), op)
    answered = getattr(api, name)(*positional, **keywords)
    if isinstance(answered, Iterator):
        next(answered)  # a stream sends its request when the first event is asked for
    (request,) = seen
    filled = op.path.format(**{parameter: value for parameter, value in zip(op.path_parameters, positional)})
    assert (request.method, request.url.path) == (op.method, filled)
    assert set(request.url.params) == set(op.query)
    sent = json.loads(request.content) if request.content else None
    assert (set(sent) if sent is not None else set()) == set(op.body)
    assert request.headers["Authorization"] == "Token key"


# -- the check can fail: each kind of drift is caught ------------------------------------------------
class GadgetApi(APIView):
    class InputSerializer(serializers.Serializer):
        colour = serializers.CharField()

    class OutputSerializer(serializers.Serializer):
        colour = serializers.CharField()

    @extend_schema(operation_id="gadgets_create", request=InputSerializer, responses={201: OutputSerializer})
    def post(self, request, gadget_id: int):
        raise NotImplementedError  # only its schema is read


def test_a_new_endpoint_without_a_client_method_is_caught():
    schema = json.loads(json.dumps(SchemaGenerator(patterns=[path("api/gadgets/<int:gadget_id>/",
                                                                    GadgetApi.as_view())]).get_schema(public=True),
                                   default=str))
    assert drift(schema, Client)[0] == "gadgets_create (POST /api/gadgets/{gadget_id}/): no client method"


def test_a_renamed_body_field_a_wrong_answer_type_and_an_unknown_operation_are_caught(schema):
    class Drifted(Client):
        @operation("account_create", "POST", "/api/accounts/", body=("username", "mail", "password"))
        def create_account(self, username: str, mail: str, password: str) -> client_module.Token:
            raise NotImplementedError

        @operation("games_fly", "POST", "/api/games/{game_id}/fly/")
        def fly(self, game_id: int) -> None:
            raise NotImplementedError

        def wander(self) -> None:
            raise NotImplementedError

    problems = "\n".join(drift(schema, Drifted))
    assert "create_account (account_create): body fields ['email', 'password', 'username'] served" in problems
    assert "create_account (account_create) ->: fields ['detail'] in the schema" in problems
    assert "fly: calls games_fly, which the schema does not have" in problems
    assert "wander: a public method that is neither an operation nor in NOT_OPERATIONS" in problems


def test_a_field_of_a_changed_type_or_nullability_is_caught(schema):
    node = {"type": "object", "required": ["seq"], "properties": {"seq": {"type": "string"}}}
    assert type_problems(schema, node, client_module.History, "h")[0].startswith("h: fields ['seq'] in the schema")
    nullable = {"type": "integer", "nullable": True}
    assert type_problems(schema, nullable, int, "n") == ["n: nullable is True in the schema, False in the client"]
    assert type_problems(schema, {"type": "string", "enum": ["open", "shut"]}, client_module.Visibility, "e")
    assert UNSET is Unset.UNSET


class PagedTokensApi(APIView):
    @extend_schema(operation_id="tokens_list", parameters=[OpenApiParameter("cursor", str),
                                                           OpenApiParameter("page_size", int),
                                                           OpenApiParameter("page", int, deprecated=True)],
                   responses={200: serializers.ListSerializer(child=serializers.CharField())})
    def get(self, request):
        raise NotImplementedError

    @extend_schema(operation_id="tokens_create", parameters=[OpenApiParameter("cursor", str)],
                   request=None, responses={201: None})
    def post(self, request):
        raise NotImplementedError


class StreamApi(APIView):
    @extend_schema(operation_id="stream_retrieve", responses={(200, "text/event-stream"): OpenApiTypes.STR})
    def get(self, request):
        raise NotImplementedError


def generated(*routes) -> dict:
    return json.loads(json.dumps(SchemaGenerator(patterns=list(routes)).get_schema(public=True), default=str))


def test_a_list_method_need_not_take_the_cursor_it_follows_but_any_other_method_must():
    problems = drift(generated(path("api/tokens/", PagedTokensApi.as_view())), Client)
    assert not [line for line in problems if line.startswith("tokens (") and "query" in line]
    assert "create_token (tokens_create): query ['cursor'] served, [] in the client" in problems


def test_a_deprecated_parameter_is_left_out_but_taking_it_is_drift():
    class Deprecated(Client):
        @operation("tokens_list", "GET", "/api/tokens/", query=("page_size", "page"), listed="")
        def tokens(self, *, page_size: int | Unset = UNSET, page: int | Unset = UNSET) -> list[client_module.Token]:
            raise NotImplementedError

    schema = generated(path("api/tokens/", PagedTokensApi.as_view()))
    assert not [line for line in drift(schema, Client) if line.startswith("tokens (") and "query" in line]
    assert ("tokens (tokens_list): query ['cursor', 'page', 'page_size'] served (['page'] deprecated), "
            "['page', 'page_size'] in the client") in drift(schema, Deprecated)


def test_a_page_with_keys_of_its_own_is_returned_whole_as_the_schema_types_it(schema):
    class Gathering(Client):
        @operation("history_list", "GET", "/api/games/{game_id}/history/", query=("since", "page_size"),
                   conditional=True, gathered=True)
        def history(self, game_id: int, *, since: int | Unset = UNSET,
                    page_size: int | Unset = UNSET) -> client_module.Turn:
            raise NotImplementedError

    assert [line for line in drift(schema, Gathering) if line.startswith("history (")][0].startswith(
        "history (history_list) ->: fields ['next', 'previous', 'results', 'seq'] in the schema")


def test_an_event_stream_is_a_method_that_yields_events():
    schema = generated(path("api/stream/", StreamApi.as_view()))
    assert "stream_retrieve (GET /api/stream/): no client method" in drift(schema, Client)

    class Streaming(Client):
        @operation("stream_retrieve", "GET", "/api/stream/")
        def stream_events(self, last_event_id: str | None = None) -> Iterator[StreamEvent]:
            return super().stream_events(last_event_id)

    assert not [line for line in drift(schema, Streaming) if "stream" in line]
    seen = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, text="data: {}\n\n")

    assert next(Streaming("http://t.test", transport=httpx.MockTransport(answer)).stream_events()).data == {}
    assert seen[0].url.path == "/api/stream/"
