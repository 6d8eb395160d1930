"""Fairness and the game record: the seed's commitment from the start, the seed at the end, and each viewer's record."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest
from django.test import Client

from games.record import seed_commitment
from tests.platform.conftest import SCRIPTED_CLASSIC_2P
from tests.platform.play.costs import measured, token_client
from turnbased.mail import delivery
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import services, store
from turnbased.play.models import Game

pytestmark = pytest.mark.django_db


SCHEMA = json.loads((Path(__file__).resolve().parents[3] / "docs" / "record-format.schema.json").read_text())


def commitment(game: Game) -> str:
    return seed_commitment(seed=game.seed, game_id=game.pk, engine=game.engine, engine_version=game.engine_version)


def record_of(game: Game, user) -> dict:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/api/games/{game.pk}/record/", HTTP_ACCEPT="text/html")  # as the page's link asks
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="love-letter-{game.pk}.json"'
    record = json.loads(response.content)
    jsonschema.Draft202012Validator(SCHEMA).validate(record)  # the documented format, partial or complete
    return record


@pytest.fixture
def priest_game(start_scripted_game, alice, bob):
    """Alice's Priest looks at bob's Guard: a private event only alice's seat may see."""
    deck = ["princess", "king", "countess", "baron", "priest", "guard", "handmaid", *SCRIPTED_CLASSIC_2P[7:]]
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2,
                                options={"deck": deck, "first_player": 0}, seed="the-secret-seed-of-this-game")
    services.join_game(game_id=game.pk, user=bob)
    services.submit_move(game_id=game.pk, user=alice, expected_seq=0, move={"card": "priest", "target": 1})
    game.refresh_from_db()
    return game


def test_the_api_publishes_the_commitment_from_the_start_and_the_seed_only_at_the_end(alice, bob, api_client_for):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=2)
    api = api_client_for(alice)
    answer = api.get(f"/api/games/{table.pk}/").json()
    assert answer["commitment"] is None and answer["seed"] is None  # nothing is committed before the start
    services.join_game(game_id=table.pk, user=bob)
    table.refresh_from_db()
    answer = api.get(f"/api/games/{table.pk}/").json()
    assert answer["commitment"] == {"scheme": "turnbased-seed-commitment/1", "algorithm": "sha256",
                                    "value": commitment(table)}
    assert answer["seed"] is None and table.seed not in json.dumps(answer)
    listed = api.get("/api/games/").json()["results"][0]
    assert listed["commitment"]["value"] == commitment(table) and listed["seed"] is None
    services.resign_game(game_id=table.pk, user=bob)
    answer = api.get(f"/api/games/{table.pk}/").json()
    assert answer["status"] == "finished"
    assert answer["seed"] == table.seed and answer["commitment"]["value"] == commitment(table)


def test_the_page_shows_the_commitment_in_play_and_the_seed_after_the_end(priest_game, alice, bob, carol):
    for user in (alice, bob, carol, None):
        client = Client()
        if user is not None:
            client.force_login(user)
        page = client.get(f"/games/{priest_game.pk}/").content.decode()
        assert commitment(priest_game) in page and "Fair shuffle" in page, user
        assert priest_game.seed not in page, user
        assert f"/api/games/{priest_game.pk}/record/" in page
    services.resign_game(game_id=priest_game.pk, user=bob)
    client = Client()
    page = client.get(f"/games/{priest_game.pk}/").content.decode()
    assert priest_game.seed in page and commitment(priest_game) in page
    assert f"/games/{priest_game.pk}/verify/" in page  # the end screen offers the check


def test_a_players_record_in_play_holds_only_what_their_seat_may_see(priest_game, alice, bob):
    mine = record_of(priest_game, alice)
    assert mine["format"] == "turnbased-record" and mine["format_version"] == 1
    assert mine["complete"] is False and mine["viewer_seat"] == 0 and mine["seed"] is None
    assert mine["commitment"]["value"] == commitment(priest_game)
    assert mine["game"]["options"]["edition"] == "classic" and "deck" not in mine["game"]["options"]  # it is secret
    assert [player["name"] for player in mine["players"]] == ["alice", "bob"]
    (move,) = mine["moves"]
    assert "move" not in move and move["notation"] == "priest bob" and move["seat"] == 0
    assert any(event["kind"] == "priest_saw" for event in move["events"])
    assert any("Guard" in line for line in move["lines"])

    theirs = record_of(priest_game, bob)
    assert theirs["viewer_seat"] == 1 and theirs["seed"] is None
    (move,) = theirs["moves"]
    assert move["notation"] is None and "move" not in move  # alice's notation is hers
    assert all(event["visible_to"] is None or 1 in event["visible_to"] for event in move["events"])
    assert "priest_saw" not in json.dumps(theirs) and "card: Guard" not in " ".join(move["lines"])
    assert any(event["visible_to"] == [1] for event in move["events"])  # bob's own draw is his


def test_a_spectators_record_in_play_is_public_only(priest_game, carol):
    for user in (carol, None):
        record = record_of(priest_game, user)
        assert record["viewer_seat"] is None and record["complete"] is False and record["seed"] is None
        text = json.dumps(record)
        assert "priest_saw" not in text and priest_game.seed not in text and '"deck"' not in text
        assert all(move["notation"] is None for move in record["moves"])
        assert all(event["visible_to"] is None for move in record["moves"] for event in move["events"])


def test_after_the_end_everyone_reads_the_complete_record(priest_game, alice, bob, carol):
    services.resign_game(game_id=priest_game.pk, user=bob)
    priest_game.refresh_from_db()
    records = [record_of(priest_game, user) for user in (alice, bob, carol, None)]
    for record in records:
        assert record["complete"] is True and record["viewer_seat"] is None
        assert record["seed"] == priest_game.seed and record["result"] == priest_game.result
        assert record["game"]["options"]["deck"] == priest_game.options["deck"]  # every option the engine got
        assert [move["move"] for move in record["moves"]] == [{"card": "priest", "target": 1}, {"resign": True}]
        assert record["moves"][0]["notation"] == "priest bob"
        assert any(event["kind"] == "priest_saw" for event in record["moves"][0]["events"])
        assert record["game"]["status"] == "finished" and record["game"]["id"] == priest_game.pk
    assert len({json.dumps({**record, "exported_at": None}, sort_keys=True) for record in records}) == 1


def test_a_private_games_record_is_no_one_elses(start_scripted_game, alice, bob, carol):
    game = start_scripted_game(alice, bob, visibility="private")
    for user in (carol, None):
        client = Client()
        if user is not None:
            client.force_login(user)
        for path in (f"/api/games/{game.pk}/record/", f"/api/games/{game.pk}/verify/", f"/games/{game.pk}/verify/"):
            assert client.get(path).status_code == 404, (user, path)
    assert record_of(game, bob)["viewer_seat"] == 1
    assert Client().get("/api/games/999999/record/").status_code == 404


def test_an_open_table_has_an_empty_record_with_no_commitment(alice):
    table = services.create_game(creator=alice, engine_slug="love-letter", players=3)
    record = record_of(table, alice)
    assert record["commitment"] is None and record["moves"] == [] and record["game"]["started_at"] is None
    assert [player["name"] for player in record["players"]] == ["alice"]


def test_the_check_waits_for_the_end(priest_game, alice):
    client = Client()
    client.force_login(alice)
    response = client.get(f"/api/games/{priest_game.pk}/verify/")
    assert response.status_code == 409 and "revealed when the game ends" in response.json()["detail"]
    page = client.get(f"/games/{priest_game.pk}/verify/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "revealed when the game ends" in text and priest_game.seed not in text and commitment(priest_game) in text


def _sent(game: Game, user, kind: str, mailoutbox):
    row = Notification.objects.get(game=game, user=user, kind=kind)
    assert delivery.deliver(row.pk) == "sent"
    return mailoutbox[-1]


def test_the_start_email_carries_the_commitment_and_the_end_email_the_seed(alice, bob, mailoutbox):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="a-seed-to-reveal-later")
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    waiting = game.seats.get(index=1 - game.to_move[0]).user  # the one who gets the start email, not a turn email
    started = _sent(game, waiting, NotificationKind.GAME_STARTED, mailoutbox)
    html = started.alternatives[0][0]
    assert commitment(game) in started.body and commitment(game) in html
    assert game.seed not in started.body and game.seed not in html
    mover = game.seats.get(index=game.to_move[0]).user  # whose first turn email stands in for the start email
    turn = _sent(game, mover, NotificationKind.YOUR_TURN, mailoutbox)
    assert commitment(game) in turn.body and game.seed not in turn.body
    services.resign_game(game_id=game.pk, user=bob)
    ended = _sent(game, alice, NotificationKind.GAME_FINISHED, mailoutbox)
    assert game.seed in ended.body and game.seed in ended.alternatives[0][0] and commitment(game) in ended.body
    assert f"/api/games/{game.pk}/record/" in ended.body and f"/games/{game.pk}/verify/" in ended.body


RECORD_BUDGET = 5  # the token and its user (and the token's last use), the game, its seats, the log


@pytest.mark.parametrize("finish", [False, True], ids=["in play", "over"])
def test_a_record_costs_the_same_statements_whatever_the_games_length(finish, make_user):
    """The log is read in one query: a record at seq 40 costs what one at seq 2 does."""
    users = [make_user(f"long{index}") for index in range(4)]
    costs = {}
    for length in (2, 40):
        game = services.create_game(creator=users[0], engine_slug="love-letter", players=4, seed=f"long-{length}")
        for user in users[1:]:
            services.join_game(game_id=game.pk, user=user)
        game.refresh_from_db()
        rng = random.Random(length)
        engine = store.engine_of(game)
        while game.seq < length:
            seat = game.to_move[0]
            services.submit_move(game_id=game.pk, user=users[seat], expected_seq=game.seq,
                                 move=rng.choice(engine.legal_moves(game.state, seat)))
            game.refresh_from_db()
        if finish:
            for user in users[1:]:
                services.resign_game(game_id=game.pk, user=user)
        api = token_client(users[0])
        api.get("/api/games/")  # the token's first use is noted once: measure what every later read costs
        cost, response = measured(lambda: api.get(f"/api/games/{game.pk}/record/"))
        assert response.status_code == 200 and len(response.json()["moves"]) >= length
        costs[length] = cost
    assert costs[2].statements == costs[40].statements <= RECORD_BUDGET, {n: c.sql for n, c in costs.items()}


def test_a_finished_game_checks_out_on_the_server_and_a_changed_seed_does_not(alice, bob, carol):
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="checked-seed")
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    for _ in range(3):
        seat = game.to_move[0]
        move = store.engine_of(game).legal_moves(game.state, seat)[0]
        services.submit_move(game_id=game.pk, user=[alice, bob][seat], expected_seq=game.seq, move=move)
        game.refresh_from_db()
    services.resign_game(game_id=game.pk, user=bob)
    client = Client()
    client.force_login(carol)
    answer = client.get(f"/api/games/{game.pk}/verify/").json()
    assert answer["ok"] is True and answer["seed"] == "checked-seed" and answer["game"] == game.pk
    names = [check["name"] for check in answer["checks"]]
    assert {"commitment", "moves", "events", "result"} <= set(names)
    assert all(check["passed"] for check in answer["checks"])
    page = Client().get(f"/games/{game.pk}/verify/").content.decode()
    assert "Every check passed" in page and "checked-seed" in page and "commitment" in page
    # A seed changed after the fact no longer replays the logged shuffles (and the kept report is not reused).
    Game.objects.filter(pk=game.pk).update(seed="another-seed")
    answer = client.get(f"/api/games/{game.pk}/verify/").json()
    assert answer["ok"] is False and any(not check["passed"] for check in answer["checks"])
    assert "does not check out" in Client().get(f"/games/{game.pk}/verify/").content.decode()
