"""orjson on the hot paths reads and writes exactly what Python's json and DRF's renderer would."""

from __future__ import annotations

import datetime
import decimal
import json
import uuid

import pytest
from django.utils.translation import gettext_lazy
from rest_framework import renderers

from turnbased.kit.db import json_codec
from turnbased.play import services, store
from turnbased.play.models import Game, Move

WIDE = 2**70 + 1  # wider than 64 bits: orjson would read it back as a float and refuses to write it

SAMPLES = [
    {"seat": 0, "cards": ["guard", "priest"], "nested": {"a": [1, 2.5, None, True, False]}, "text": "ünïcødé ✓"},
    {"wide": WIDE, "negative": -WIDE, "in a list": [WIDE, 1]},
    {1: "an integer key", "2": "a string key"},
    [],
    "just text",
    12345678901234567890123,  # a bare wide number
    {"almost wide": 999_999_999_999_999_999, "hex seed": "fdc828ca65ab4ace7ac80962ca149207"},
]


@pytest.mark.parametrize("value", SAMPLES, ids=range(len(SAMPLES)))
def test_dumps_and_loads_give_what_json_gives(value):
    text = json_codec.dumps(value)
    assert json.loads(text) == json.loads(json.dumps(value))
    assert json_codec.loads(text) == json.loads(json.dumps(value))
    assert json_codec.loads(text.encode()) == json.loads(json.dumps(value))


def test_a_wide_integer_keeps_every_digit():
    assert json_codec.loads(f'{{"n": {WIDE}}}') == {"n": WIDE}
    assert type(json_codec.loads(f"[{WIDE}]")[0]) is int
    assert json_codec.dumps([WIDE]) == f"[{WIDE}]"


@pytest.mark.django_db
def test_the_snapshot_and_the_log_round_trip_through_postgresql(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    (seat,) = game.to_move
    move = store.engine_of(game).legal_moves(game.state, seat)[0]
    services.submit_move(game_id=game.pk, user=(alice, bob)[seat], expected_seq=0, move=move)
    logged = Move.objects.get(game=game)
    assert logged.move == move and logged.events and all(isinstance(event, dict) for event in logged.events)
    assert json.loads(json.dumps(logged.events)) == logged.events
    assert store.replay(Game.objects.get(pk=game.pk)) == Game.objects.get(pk=game.pk).state

    stored = {"wide": WIDE, "text": "ünïcødé \u2028", "list": [1, 2.5, None], "keys": {"1": True}}
    Game.objects.filter(pk=game.pk).update(state=stored)
    assert Game.objects.get(pk=game.pk).state == stored
    game = Game.objects.get(pk=game.pk)
    game.state = {**stored, "more": [WIDE]}
    game.save(update_fields=["state"])
    assert Game.objects.get(pk=game.pk).state == {**stored, "more": [WIDE]}
    # a lookup into the JSON still works as the ORM's own field does
    assert Game.objects.filter(pk=game.pk, state__text="ünïcødé \u2028").exists()
    assert Game.objects.filter(pk=game.pk, state__wide=WIDE).exists()
    assert list(Game.objects.filter(pk=game.pk).values_list("state__list", flat=True)) == [[1, 2.5, None]]


ANSWER = {
    "when": datetime.datetime(2026, 12, 1, 16, 17, 50, 123456, tzinfo=datetime.timezone.utc),
    "day": datetime.date(2026, 12, 1),
    "time": datetime.time(9, 30, 15, 250000),
    "took": datetime.timedelta(days=1, seconds=3),
    "price": decimal.Decimal("1.50"),
    "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
    "label": gettext_lazy("Your turn"),
    "pair": (1, 2),
    "line breaks": "a\u2028b\u2029c",
    "keys": {3: "three"},
    "nothing": None,
}


@pytest.mark.parametrize("data", [ANSWER, [ANSWER, ANSWER], {"results": [], "next": None}, {**ANSWER, "wide": WIDE}],
                         ids=["dict", "list", "page", "a wide integer"])
def test_the_renderer_writes_what_drf_writes(data):
    drf = renderers.JSONRenderer().render(data, "application/json", {})
    assert json_codec.JSONRenderer().render(data, "application/json", {}) == drf


def test_the_renderer_indents_as_drf_when_asked():
    drf = renderers.JSONRenderer().render(ANSWER, "application/json; indent=2", {})
    assert json_codec.JSONRenderer().render(ANSWER, "application/json; indent=2", {}) == drf
    assert json_codec.JSONRenderer().render(None, "application/json", {}) == b""


def test_api_answers_and_the_snapshot_use_the_fast_codec():
    from rest_framework.settings import api_settings

    assert api_settings.DEFAULT_RENDERER_CLASSES[0] is json_codec.JSONRenderer
    for model, name in ((Game, "state"), (Move, "move"), (Move, "events")):
        assert isinstance(model._meta.get_field(name), json_codec.FastJSONField), (model, name)
