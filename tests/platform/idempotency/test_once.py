"""Idempotency-Key on every create of the API (turnbased/idempotency/once.py): the same request sent again under
its key is answered as the first was and makes nothing more; a key means one request, per account, kept 24 h."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.parsers import JSONParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient, APIRequestFactory

from games import get_engine
from tests.platform.conftest import PASSWORD, api_token, settings_error
from tests.platform.notifications.conftest import push_service, vapid_key  # noqa: F401  (fixtures)
from tests.platform.seats.conftest import taken_over
from turnbased.accounts.models import ApiToken, Profile
from turnbased.aftergame.models import Rematch
from turnbased.agreements.models import Proposal
from turnbased.agreements.services import takeback_ask
from turnbased.following.models import Watch
from turnbased.seats import services as seat_services
from turnbased.seats.models import SeatOffer
from turnbased.chat.models import Message
from turnbased.clocks.models import Absence
from turnbased.clocks.services import local_today
from turnbased.competitions.models import Competition, CompetitionInvitation, Entrant, EventTable
from turnbased.competitions.services import entries as competitions
from turnbased.competitions.services import rounds as competition_rounds
from turnbased.contacts.models import Block, Follow
from turnbased.groups import services as groups_services
from turnbased.groups.models import Group, Membership
from turnbased.groups.models import Invitation as GroupInvitation
from turnbased.idempotency import once
from turnbased.idempotency.models import IdempotentRequest
from turnbased.idempotency.tasks import prune_idempotency_keys
from turnbased.notifications.models import PushSubscription
from turnbased.play import services
from turnbased.play.models import Game, Invitation, Move, Seat, SeatChange
from turnbased.webhooks.models import Webhook

pytestmark = pytest.mark.django_db

# The creates that answer 201 and take no key, and why.
WITHOUT_KEY = {"account_create": "a sign-up is nobody's yet: a repeated one answers the same and mails the address "
                                 "once more, which the sign-up rate limits"}


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(user)}")
    return client


@dataclass
class Create:
    """One create of the API, ready to send: who sends what where, and how many of the things it makes exist."""

    client: APIClient
    path: str
    body: dict | None
    made: Callable[[], int]


def _game_in_play(alice, bob) -> Game:
    game = services.create_game(creator=alice, engine_slug="halali", players=2)
    services.join_game(game_id=game.pk, user=bob)
    return game


def _finished_game(alice, bob) -> Game:
    game = services.create_game(creator=alice, engine_slug="halali", players=2)
    services.join_game(game_id=game.pk, user=bob)
    services.resign_game(game_id=game.pk, user=bob)
    return game


def _creates(alice, bob, push_service, settings, carol=None) -> dict[str, Callable[[], Create]]:
    """Each create operation by id, set up on demand (a sequence of creates would otherwise set up each other)."""
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = settings.WEBHOOKS_ALLOW_HTTP = True

    def table() -> Game:
        return services.create_game(creator=alice, engine_slug="love-letter", players=3)

    def move() -> Create:
        game = services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="keys")
        services.join_game(game_id=game.pk, user=bob)
        game.refresh_from_db()
        player = alice if game.to_move == [0] else bob
        client = _client(player)
        legal = client.get(f"/api/games/{game.pk}/legal-moves/").json()
        return Create(client, f"/api/games/{game.pk}/moves/", {"expected_seq": legal["seq"],
                                                               "move": legal["moves"][0]["move"]},
                      lambda: Move.objects.filter(game=game).count())

    def rematch_accept() -> Create:
        game = _finished_game(alice, bob)
        _client(alice).post(f"/api/games/{game.pk}/rematch/")
        return Create(_client(bob), f"/api/games/{game.pk}/rematch/accept/", None,
                      Seat.objects.filter(user=bob).count)

    def forest_moved() -> Game:
        # Savernake Forest, alice's first turn played: it may be taken back (issue 46).
        game = services.create_game(creator=alice, engine_slug="savernake-forest", players=2, seed="t1")
        services.join_game(game_id=game.pk, user=bob)
        game.refresh_from_db()
        services.submit_move(game_id=game.pk, user=alice, expected_seq=0,
                             move=get_engine(game.engine).legal_moves(game.state, 0)[0])
        return game

    def takeback_answer() -> Create:
        game = forest_moved()
        proposal = takeback_ask(game_id=game.pk, user=alice)
        return Create(_client(bob), f"/api/games/{game.pk}/proposals/{proposal.pk}/answer/", {"accept": True},
                      lambda: Move.objects.filter(game=game).count())

    def seat_offered() -> tuple[Game, SeatOffer]:
        # Issue 46: a seat a bot took over, listed in the lobby by the player who stayed.
        game, late = taken_over(alice, bob, seed="keys")
        stayer = next(seat.user for seat in game.seats.all() if seat.index != late)
        return game, seat_services.offer_make(game_id=game.pk, user=stayer, seat=late)

    def seat_offer_make() -> Create:
        game, late = taken_over(alice, bob, seed="keys")
        stayer = next(seat.user for seat in game.seats.all() if seat.index != late)
        return Create(_client(stayer), f"/api/games/{game.pk}/seat-offers/", {"seat": late},
                      SeatOffer.objects.count)

    def seat_offer_accept() -> Create:
        game, offer = seat_offered()
        return Create(_client(carol), f"/api/seat-offers/{offer.pk}/accept/", None,
                      lambda: SeatChange.objects.filter(game=game).count())

    def message() -> Create:
        game = table()
        return Create(_client(alice), f"/api/games/{game.pk}/messages/", {"text": "hello"}, Message.objects.count)

    return {
        "games_create": lambda: Create(_client(alice), "/api/games/", {"game": "love-letter", "players": 2},
                                       Game.objects.count),
        "games_join": lambda: (lambda game: Create(_client(bob), f"/api/games/{game.pk}/join/", {},
                                                   lambda: Seat.objects.filter(game=game, user=bob).count()))(table()),
        "games_invitations_create": lambda: (lambda game: Create(
            _client(alice), f"/api/games/{game.pk}/invitations/", {"username": "bob"}, Invitation.objects.count))(
            table()),
        "messages_create": message,
        "moves_create": move,
        "tokens_create": lambda: Create(_client(alice), "/api/tokens/", {"name": "laptop"}, ApiToken.objects.count),
        "auth_token_create": lambda: Create(APIClient(), "/api/auth/token/",
                                            {"username": "alice", "password": PASSWORD}, ApiToken.objects.count),
        "webhooks_create": lambda: Create(_client(alice), "/api/webhooks/", {"url": "http://127.0.0.1:9999/hook"},
                                          Webhook.objects.count),
        "rematch_create": lambda: (lambda game: Create(_client(alice), f"/api/games/{game.pk}/rematch/", None,
                                                       Rematch.objects.count))(_finished_game(alice, bob)),
        "rematch_accept": rematch_accept,
        # Issue 46: a takeback asked, and the answer that carries it.
        "takeback_ask": lambda: (lambda game: Create(_client(alice), f"/api/games/{game.pk}/takebacks/", None,
                                                     Proposal.objects.count))(forest_moved()),
        "proposal_answer": takeback_answer,
        "seat_offer_make": seat_offer_make,
        # Following: carol follows alice and bob's game.
        "watch_make": lambda: (lambda game: Create(_client(carol), "/api/watches/", {"kind": "game", "target": game.pk},
                                                   Watch.objects.count))(_game_in_play(alice, bob)),
        "seat_offer_accept": seat_offer_accept,
        # Agreements by vote: a draw proposed.
        "proposal_make": lambda: (lambda game: Create(_client(alice), f"/api/games/{game.pk}/proposals/",
                                                      {"kind": "draw"}, Proposal.objects.count))(forest_moved()),
        "absences_create": lambda: (lambda day: Create(
            _client(alice), "/api/absences/", {"starts_on": str(day), "ends_on": str(day + timedelta(days=2))},
            Absence.objects.count))(local_today(alice) + timedelta(days=3)),
        "me_push_subscriptions_create": lambda: Create(_client(alice), "/api/me/push-subscriptions/",
                                                       push_service.device("phone").subscription(),
                                                       PushSubscription.objects.count),
        "me_bot_create": lambda: Create(_client(alice), "/api/me/bot/", None,
                                        Profile.objects.filter(is_bot_account=True).count),
        "following_create": lambda: Create(_client(alice), "/api/me/following/", {"username": "bob"},
                                           Follow.objects.count),
        "blocked_create": lambda: Create(_client(alice), "/api/me/blocked/", {"username": "bob"}, Block.objects.count),
        # Issue 44: groups.
        "groups_create": lambda: Create(_client(alice), "/api/groups/", {"name": "Once club"}, Group.objects.count),
        "group_members_create": lambda: (lambda group: Create(
            _client(bob), f"/api/groups/{group.pk}/members/", {}, Membership.objects.count))(
            groups_services.group_create(user=alice, name="Open club")),
        "group_invitations_create": lambda: (lambda group: Create(
            _client(alice), f"/api/groups/{group.pk}/invitations/", {"username": "bob"},
            GroupInvitation.objects.count))(groups_services.group_create(user=alice, name="Inviting club")),
        # Issue 45: competitions.
        "competitions_create": lambda: Create(_client(alice), "/api/competitions/", _competition_settings("Once cup"),
                                              Competition.objects.count),
        "competition_entry_create": lambda: (lambda competition: Create(
            _client(bob), f"/api/competitions/{competition.pk}/entry/", None, Entrant.objects.count))(
            competitions.competition_create(user=alice, settings=_competition_settings("Open cup"))),
        "competition_invitations_create": lambda: (lambda competition: Create(
            _client(alice), f"/api/competitions/{competition.pk}/invitations/", {"username": "bob"},
            CompetitionInvitation.objects.count))(competitions.competition_create(
                user=alice, settings={**_competition_settings("Inviting cup"), "entry": "invitation"})),
        "competition_challenges_create": lambda: (lambda ladder: Create(
            _client(ladder[1]), f"/api/competitions/{ladder[0].pk}/challenges/", {"username": ladder[2].username},
            EventTable.objects.count))(_running_ladder(alice, bob)),
    }


def _running_ladder(alice, bob):
    """A ladder of alice and bob, started: return it, the one below (who may challenge) and the one above."""
    ladder = competitions.competition_create(user=alice, settings={**_competition_settings("Once ladder"),
                                                                   "ladder": {}})
    for person in (alice, bob):
        competitions.competition_enter(user=person, competition_id=ladder.pk)
    Competition.objects.filter(pk=ladder.pk).update(starts_at=timezone.now())
    competition_rounds.competition_start(competition_id=ladder.pk)
    below, above = sorted((alice, bob), key=lambda person: -ladder.entrants.get(user=person).standings.get().place)
    return ladder, below, above


def _competition_settings(name: str) -> dict:
    return {"name": name, "game": "love-letter", "time_control": {"kind": "per_move", "days_per_move": 3},
            "starts_at": (timezone.now() + timedelta(days=3)).isoformat()}


def _operations() -> dict[str, dict]:
    schema = json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True), default=str))
    return {operation["operationId"]: operation for item in schema["paths"].values()
            for method, operation in item.items() if method == "post"}


KEYED = sorted(operation_id for operation_id, operation in _operations().items()
               if any(parameter["name"] == once.HEADER for parameter in operation.get("parameters", [])))


def test_every_create_takes_a_key_and_every_201_says_where_it_made_its_thing():
    for operation_id, operation in _operations().items():
        if "201" not in operation["responses"]:
            continue
        assert "Location" in operation["responses"]["201"].get("headers", {}), operation_id
        if operation_id not in WITHOUT_KEY:
            assert operation_id in KEYED, f"{operation_id} answers 201 and takes no Idempotency-Key"
            assert once.REPLAYED_HEADER in operation["responses"]["201"]["headers"], operation_id
            assert {"400", "422"} <= set(operation["responses"]), operation_id
    assert len(KEYED) >= 13, KEYED


def _send(create: Create, key: str, body: dict | None = None):
    return create.client.post(create.path, create.body if body is None else body, format="json",
                              HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.parametrize("operation_id", KEYED)
def test_a_create_sent_again_under_its_key_is_answered_the_same_and_makes_nothing(operation_id, alice, bob,
                                                                                  push_service, settings, carol):
    create = _creates(alice, bob, push_service, settings, carol)[operation_id]()
    before = create.made()
    first = _send(create, "retry-after-a-timeout")
    assert 200 <= first.status_code < 300, first.json()
    assert create.made() == before + 1 and once.REPLAYED_HEADER not in first
    again = _send(create, "retry-after-a-timeout")
    assert again[once.REPLAYED_HEADER] == "true"
    assert create.made() == before + 1
    if operation_id == "moves_create":  # a move's log keeps its key: the replay is its documented 200
        assert (again.status_code, again.json()["seq"], again.json()["replayed"]) == (200, first.json()["seq"], True)
        return
    assert (again.status_code, again.json(), again.get("Location")) == (
        first.status_code, first.json(), first.get("Location"))
    # Another key is another request.
    other = _send(create, "a-second-request")
    assert other.status_code < 500 and once.REPLAYED_HEADER not in other


def test_the_same_key_for_another_request_is_refused_and_makes_nothing(alice):
    client = _client(alice)
    first = client.post("/api/games/", {"game": "love-letter", "players": 2}, format="json", HTTP_IDEMPOTENCY_KEY="k1")
    assert first.status_code == 201
    for path, body in (("/api/games/", {"game": "love-letter", "players": 3}), ("/api/tokens/", {"name": "x"})):
        refused = client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY="k1")
        assert refused.status_code == 422, refused.json()
        assert "Idempotency-Key" in refused.json()["errors"]
    assert Game.objects.count() == 1 and ApiToken.objects.filter(name="x").count() == 0
    # The same body with other spacing and key order is the same request.
    same = client.generic("POST", "/api/games/", '{ "players": 2,   "game": "love-letter" }',
                          content_type="application/json", HTTP_IDEMPOTENCY_KEY="k1")
    assert same.status_code == 201 and same.json()["id"] == first.json()["id"]


@pytest.mark.parametrize("key", ["", "has space", "x" * 101, "ünicode", "tab\there"])
def test_a_malformed_key_is_refused_and_nothing_is_made(alice, key):
    answer = _client(alice).post("/api/tokens/", {"name": "x"}, format="json", HTTP_IDEMPOTENCY_KEY=key)
    # A key that is not ASCII text is refused as a header that is not text (issue 42), naming it all the same.
    assert answer.status_code == 400 and "Idempotency-Key" in answer.json()["detail"]
    assert not ApiToken.objects.filter(name="x").exists() and not IdempotentRequest.objects.exists()


def test_a_refused_request_keeps_nothing_so_the_same_key_may_be_tried_again(alice):
    client = _client(alice)
    refused = client.post("/api/games/", {"game": "love-letter", "players": 9}, format="json",
                          HTTP_IDEMPOTENCY_KEY="try")
    assert refused.status_code == 422 and not IdempotentRequest.objects.exists()
    made = client.post("/api/games/", {"game": "love-letter", "players": 9}, format="json", HTTP_IDEMPOTENCY_KEY="try")
    assert made.status_code == 422  # tried again, refused again: not a replay of the refusal
    assert once.REPLAYED_HEADER not in made


def test_keys_belong_to_their_account(alice, bob):
    for user in (alice, bob):
        answer = _client(user).post("/api/tokens/", {"name": "same"}, format="json", HTTP_IDEMPOTENCY_KEY="shared")
        assert answer.status_code == 201 and once.REPLAYED_HEADER not in answer
    assert ApiToken.objects.filter(name="same").count() == 2


def test_neither_the_key_nor_the_answer_is_kept_readable(alice):
    answer = _client(alice).post("/api/tokens/", {"name": "secret"}, format="json",
                                 HTTP_IDEMPOTENCY_KEY="my-own-key-123")
    row = IdempotentRequest.objects.get()
    stored = json.dumps([row.key_digest, row.request_digest]).encode() + bytes(row.sealed_answer)
    assert answer.json()["token"].encode() not in stored and b"my-own-key-123" not in stored
    assert b"secret" not in stored


def test_a_key_is_kept_a_day_then_pruned(alice):
    client = _client(alice)
    client.post("/api/tokens/", {"name": "old"}, format="json", HTTP_IDEMPOTENCY_KEY="old")
    client.post("/api/tokens/", {"name": "new"}, format="json", HTTP_IDEMPOTENCY_KEY="new")
    IdempotentRequest.objects.filter(created_at__gt=timezone.now() - timedelta(minutes=1)).order_by("pk").filter(
        pk=IdempotentRequest.objects.order_by("pk").first().pk).update(created_at=timezone.now() - timedelta(hours=25))
    assert prune_idempotency_keys() == 1 and prune_idempotency_keys() == 0
    # The pruned key names a new request; the kept one still replays.
    assert client.post("/api/tokens/", {"name": "old"}, format="json",
                       HTTP_IDEMPOTENCY_KEY="old").get(once.REPLAYED_HEADER) is None
    assert client.post("/api/tokens/", {"name": "new"}, format="json",
                       HTTP_IDEMPOTENCY_KEY="new")[once.REPLAYED_HEADER] == "true"


def test_a_move_takes_the_key_in_its_body_or_the_header_but_not_two_different_ones(started_game, alice, bob):
    game = started_game
    player = _client(alice if game.to_move == [0] else bob)
    legal = player.get(f"/api/games/{game.pk}/legal-moves/").json()
    body = {"expected_seq": legal["seq"], "move": legal["moves"][0]["move"], "idempotency_key": "body-key"}
    refused = player.post(f"/api/games/{game.pk}/moves/", body, format="json", HTTP_IDEMPOTENCY_KEY="other-key")
    assert refused.status_code == 422 and Move.objects.filter(game=game).count() == 0
    played = player.post(f"/api/games/{game.pk}/moves/", body, format="json", HTTP_IDEMPOTENCY_KEY="body-key")
    assert played.status_code == 201
    again = player.post(f"/api/games/{game.pk}/moves/", {k: v for k, v in body.items() if k != "idempotency_key"},
                        format="json", HTTP_IDEMPOTENCY_KEY="body-key")
    assert (again.status_code, again[once.REPLAYED_HEADER]) == (200, "true")
    assert Move.objects.filter(game=game).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_second_request_with_the_key_waits_for_the_first_then_replays_it(alice):
    """The second request's INSERT waits on the key's unique index while the first is in flight, whatever
    the first does meanwhile; when the first commits, the second answers its answer and runs nothing."""
    first_running, first_may_finish = threading.Event(), threading.Event()
    runs: list[str] = []
    answers: dict[str, Response] = {}

    def request() -> Request:
        return Request(APIRequestFactory().post("/api/tokens/", {"name": "x"}, format="json"), parsers=[JSONParser()])

    def work(name: str) -> Callable[[], Response]:
        def run() -> Response:
            runs.append(name)
            if name == "first":
                first_running.set()
                assert first_may_finish.wait(20)
            return Response({"made": name}, status=201, headers={"Location": f"/api/things/{name}/"})
        return run

    def send(name: str) -> None:
        try:
            answers[name] = once.run_once(request(), alice, "one-key", work(name))
        finally:
            connection.close()

    first = threading.Thread(target=send, args=("first",))
    first.start()
    assert first_running.wait(20)
    second = threading.Thread(target=send, args=("second",))
    second.start()
    second.join(1.0)
    assert second.is_alive(), "the second request did not wait for the first"
    first_may_finish.set()
    first.join(20)
    second.join(20)
    assert not first.is_alive() and not second.is_alive()
    assert runs == ["first"]
    assert answers["first"].data == answers["second"].data == {"made": "first"}
    assert answers["second"].status_code == 201 and answers["second"]["Location"] == "/api/things/first/"
    assert answers["second"][once.REPLAYED_HEADER] == "true" and once.REPLAYED_HEADER not in answers["first"]


def test_less_than_a_day_of_keys_is_refused_at_start():
    assert "IDEMPOTENCY_KEEP_HOURS=23" in settings_error(IDEMPOTENCY_KEEP_HOURS="23")
