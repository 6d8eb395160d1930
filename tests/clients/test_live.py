"""The client library against the live test server: real HTTP, real accounts, real games.

One test plays the way a client author would (sign up, confirm, get a token, create a table,
play, read the history, talk); another calls every operation of the client once and checks that
each answered as documented, so a method that builds its request wrongly fails here even when
its declaration matches the schema.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

import pytest
from django.test import Client as PageClient

from tests.clients.conftest import PASSWORD, RecordingTransport
from turnbased_client import ApiError, Client
from turnbased_client.core import operations

pytestmark = pytest.mark.django_db(transaction=True)


def mover_and_other(game: dict, by_seat: dict[int, Client]) -> tuple[Client, Client]:
    mover = game["to_move"][0]
    return by_seat[mover], by_seat[1 - mover]


def seats(game: dict, clients: dict[str, Client]) -> dict[int, Client]:
    return {seat["index"]: clients[seat["username"]] for seat in game["seats"]}


def test_sign_up_get_a_token_play_read_the_history_and_talk(connect, player, mailoutbox):
    anonymous = connect()
    assert "Check your email" in anonymous.create_account("ann", "ann@example.com", PASSWORD)["detail"]
    with pytest.raises(ApiError) as unconfirmed:
        anonymous.obtain_token("ann", PASSWORD)
    assert unconfirmed.value.status == 403 and "Confirm your email address" in unconfirmed.value.detail
    (message,) = [message for message in mailoutbox if message.to == ["ann@example.com"]]
    confirm = re.search(r"https?://[^/\s]+(/accounts/confirm-email/\S+/)", message.body).group(1)
    assert PageClient().post(confirm).status_code == 302
    token = anonymous.obtain_token("ann@example.com", PASSWORD, name="my client")
    assert token["name"] == "my client" and token["expiry"] is not None
    recorded = RecordingTransport()
    ann, bob = connect(token["token"], transport=recorded), player("bob")

    table = ann.create_game("love-letter", players=2)
    assert (table["status"], table["my_seat"]) == ("open", 0)
    game = bob.join(table["id"])
    assert game["status"] == "active" and game["my_seat"] == 1
    by_seat = seats(game, {"ann": ann, "bob": bob})
    mover, other = mover_and_other(game, by_seat)
    assert [turn["game"] for turn in mover.turns()] == [game["id"]] and other.turns() == []

    legal = mover.legal_moves(game["id"])
    played = mover.submit_move(game["id"], expected_seq=legal["seq"], text=legal["moves"][0]["text"])
    assert (played["seq"], played["replayed"], played["text"]) == (1, False, legal["moves"][0]["text"])

    mover = by_seat[played["to_move"][0]]  # the other player, or the same one after a round's end (the mover's answer)
    answer = mover.legal_moves(game["id"])["moves"][0]["text"]
    first = mover.submit_move(game["id"], expected_seq=1, text=answer, idempotency_key="answer-1")
    again = mover.submit_move(game["id"], expected_seq=1, text=answer, idempotency_key="answer-1")
    assert (first["seq"], first["replayed"], again["seq"], again["replayed"]) == (2, False, 2, True)
    with pytest.raises(ApiError) as stale:
        mover.submit_move(game["id"], expected_seq=1, text=answer)
    assert stale.value.status == 409 and stale.value.current_seq == 2 and stale.value.body["game"]["seq"] == 2
    with pytest.raises(ApiError) as refused:
        by_seat[first["to_move"][0]].submit_move(game["id"], expected_seq=2, text="xyzzy plugh")
    assert refused.value.status == 422 and refused.value.detail  # of the schema's shape, naming no move

    history = ann.history(game["id"])
    assert history["seq"] == 2 and {entry["seq"] for entry in history["results"]} == {1, 2}
    assert all(entry["text"] for entry in history["results"])
    assert {entry["seq"] for entry in ann.history(game["id"], since=1)["results"]} == {2}

    # Nothing changed since the last read: the server answers 304 and the client its kept copy.
    before = ann.game(game["id"])
    assert ann.game(game["id"]) == before
    assert recorded.exchanges[-1] == ("GET", f"/api/games/{game['id']}/", 304)

    said = ann.send_message(game["id"], "Good luck, bob!")
    assert said["author"] == "ann"
    assert [message["text"] for message in bob.messages(game["id"])] == ["Good luck, bob!"]
    assert "Love Letter" in ann.position_text(game["id"])["position"]

    with pytest.raises(ApiError) as unknown:
        ann.game(game["id"] + 1000)
    assert unknown.value.status == 404 and unknown.value.detail
    with pytest.raises(ApiError) as bad_token:
        connect("not-a-token").games()
    assert bad_token.value.status == 401


def operation_of(method: str, path: str) -> str:
    """Return the id of the client's operation a request called."""
    # The fewest path parameters first: /api/games/open/ is not the game "open".
    for op_id, (_, op) in sorted(operations(Client).items(), key=lambda item: len(item[1][1].path_parameters)):
        pattern = re.sub(r"\{[^}]+\}", "[^/]+", op.path)
        if op.method == method and re.fullmatch(pattern, path):
            return op_id
    raise AssertionError(f"{method} {path} is no operation of the client")


def _play_first(client, game_id: int) -> None:
    legal = client.legal_moves(game_id)
    client.submit_move(game_id, expected_seq=legal["seq"], move=legal["moves"][0]["move"])


def _takeback_asked_withdrawn_and_agreed(ann, bob) -> None:
    """Savernake Forest (a turn inside a round may be taken back): asked and withdrawn, then asked and agreed."""
    forest = bob.join(ann.create_game("savernake-forest")["id"])
    people = {"ann": ann, "bob": bob}
    by_seat = seats(forest, people)
    first, second = mover_and_other(forest, by_seat)
    _play_first(first, forest["id"])
    asked = first.ask_takeback(forest["id"])
    assert asked["status"] == "open" and second.proposals(forest["id"])["waiting"]["id"] == asked["id"]
    assert first.withdraw_proposal(forest["id"], asked["id"])["status"] == "withdrawn"
    _play_first(second, forest["id"])  # the round's last turn
    now = first.game(forest["id"])
    mover, other = mover_and_other(now, by_seat)
    _play_first(mover, forest["id"])  # the next round's first turn
    asked = mover.ask_takeback(forest["id"])
    assert other.answer_proposal(forest["id"], asked["id"], accept=True)["status"] == "accepted"
    assert mover.game(forest["id"])["seq"] == now["seq"] + 2
    assert "draw" in other.proposals(forest["id"])["offered"]
    drawn = other.propose(forest["id"], "draw")
    assert drawn["kind"] == "draw" and mover.answer_proposal(forest["id"], drawn["id"], accept=False)["status"] == \
        "declined"
    assert mover.game(forest["id"])["status"] == "active"
    other.resign(forest["id"])  # off everyone's turns again


def _seats_offered_declined_withdrawn_and_taken(ann, bob, newcomer) -> None:
    from django.contrib.auth import get_user_model

    from tests.platform.seats.conftest import taken_over

    people = get_user_model().objects.in_bulk(field_name="username")
    for step in ("withdrawn", "declined", "taken"):
        game, late = taken_over(people["ann"], people["bob"], seed=f"live-{step}")
        stayer = {"ann": ann, "bob": bob}[next(seat.user.username for seat in game.seats.all() if seat.index != late)]
        named = {} if step == "withdrawn" else {"username": "taker"}
        offer = stayer.offer_seat(game.pk, late, **named)
        assert newcomer.seat_offer(offer["id"])["status"] == "open"
        assert offer["id"] in [row["id"] for row in newcomer.seat_offers()["offers"]]
        if step == "withdrawn":
            assert stayer.withdraw_seat_offer(offer["id"])["status"] == "withdrawn"
        elif step == "declined":
            assert newcomer.decline_seat(offer["id"])["status"] == "declined"
        else:
            assert newcomer.take_seat(offer["id"])["status"] == "taken"
            assert newcomer.game(game.pk)["my_seat"] == late


def _a_game_followed(ann, bob, follower) -> None:
    from django.contrib.auth import get_user_model

    from tests.platform.following.conftest import play_one, two_player

    people = get_user_model().objects.in_bulk(field_name="username")
    game = play_one(two_player(people["ann"], people["bob"], seed="live-following"), people["ann"], people["bob"])
    watch = follower.add_watch("game", game.pk)
    assert watch["notify"] == "moves" and follower.watch(watch["id"]) == watch
    assert [row["id"] for row in follower.watches()["watches"]] == [watch["id"]]
    assert follower.change_watch(watch["id"], "ends")["notify"] == "ends"
    (row,) = follower.followed_games()
    assert row["id"] == game.pk and row["last_move"]
    follower.remove_watch(watch["id"])
    assert follower.watches()["watches"] == []


def test_every_operation_of_the_client_answers_from_the_live_server(connect, make_account, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = settings.WEBHOOKS_ALLOW_HTTP = True  # a loopback receiver
    make_account("ann")
    recorded = RecordingTransport()
    anonymous = connect(transport=recorded)
    assert {kind["game"] for kind in anonymous.game_types()} >= {"love-letter", "halali"}
    anonymous.create_account("newcomer", "newcomer@example.com", PASSWORD)
    ann = connect(anonymous.obtain_token("ann", PASSWORD)["token"], transport=recorded)
    make_account("bob")
    bob = connect(anonymous.obtain_token("bob", PASSWORD)["token"], transport=recorded)

    spare = ann.create_token("spare", expires_in_days=None)
    assert spare["expiry"] is None and any(token["current"] for token in ann.tokens())
    assert ann.api_token(spare["id"])["name"] == "spare"
    ann.revoke_token(spare["id"])
    assert spare["id"] not in [token["id"] for token in ann.tokens()]
    assert ann.update_me(time_zone="Europe/London")["time_zone"] == ann.me()["time_zone"] == "Europe/London"
    day = (date.today() + timedelta(days=10)).isoformat()
    absence = ann.declare_absence(day, day)
    assert [row["id"] for row in ann.absences()["results"]] == [absence["id"]] == [ann.absence(absence["id"])["id"]]
    ann.withdraw_absence(absence["id"])
    ann.end_absence()

    # A private table: an invitation by name, one declined, a join with the code, a leave, an abort.
    private = ann.create_game("halali", visibility="private")
    invitation = ann.invite(private["id"], "bob")
    assert invitation["status"] == ann.invitation(private["id"], invitation["id"])["status"] == "pending"
    assert [row["game"] for row in bob.my_invitations()] == [private["id"]]
    bob.decline_invitation(private["id"])
    assert ann.game_invitations(private["id"])[0]["status"] == "declined"
    code = private["invite_url"].rstrip("/").rsplit("/", 1)[1]
    assert bob.game(private["id"], invite=code)["id"] == private["id"]
    waiting = ann.create_game("love-letter", players=3)
    bob.join(waiting["id"])
    bob.leave(waiting["id"])
    assert ann.abort(waiting["id"])["status"] == "aborted"

    # A game played, resigned, checked and rematched; a second rematch declined.
    game = bob.join(private["id"], invite_code=code)
    by_seat = seats(game, {"ann": ann, "bob": bob})
    mover, _ = mover_and_other(game, by_seat)
    legal = mover.legal_moves(game["id"])
    mover.submit_move(game["id"], expected_seq=legal["seq"], move=legal["moves"][0]["move"])
    assert mover.position(game["id"], 1)["mover"] == game["to_move"][0]
    assert mover.history(game["id"])["seq"] == 1 and mover.position_text(game["id"])["seq"] == 1
    assert ann.messages(game["id"], after=0, page_size=5) == []
    said = ann.send_message(game["id"], "hello")
    assert bob.message(game["id"], said["id"])["text"] == "hello"
    assert ann.keep_notes(game["id"], "bob bluffs")["text"] == ann.notes(game["id"])["text"] == "bob bluffs"
    spot = ann.notes(game["id"])["spots"][0]["spot"]
    marked = ann.keep_notes(game["id"], marks=[{"spot": spot, "symbol": "question", "label": "Priest?"}])
    assert marked["text"] == "bob bluffs" and marked["marks"][0]["label"] == "Priest?"
    assert bob.notes(game["id"])["text"] == "" and [note["text"] for note in ann.my_notes()] == ["bob bluffs"]
    ann.delete_notes(game["id"])
    assert ann.my_notes() == []
    _takeback_asked_withdrawn_and_agreed(ann, bob)
    assert ann.record(game["id"])["complete"] is False
    finished = bob.resign(game["id"])
    assert finished["status"] == "finished" and finished["ending"]["how"] == "resignation"
    assert ann.verify(game["id"])["ok"] is True
    told = ann.game_summary(game["id"])
    assert told["moves"] == sum(row["moves"] + row["bot_moves"] for row in told["seats"])
    assert ann.propose_rematch(game["id"])["status"] == "waiting"
    assert bob.rematch(game["id"])["awaited"] == ["bob"]
    rematch = bob.accept_rematch(game["id"])
    assert rematch["status"] == "started"
    other = ann.create_game("halali", players=2)
    bob.join(other["id"])
    bob.resign(other["id"])
    ann.propose_rematch(other["id"])
    assert bob.decline_rematch(other["id"])["status"] == "declined"

    assert [row["username"] for row in ann.people_i_played_with()] == ["bob"]
    assert {row["game"] for row in ann.games(page_size=1)} >= {"halali", "love-letter"}  # every page
    assert [row["id"] for row in bob.open_games()] == []  # ann's open tables are private or taken
    assert ann.player("bob")["username"] == "bob"
    assert ann.player_games("bob", game="halali")["count"] == 2
    assert ann.ratings("halali", players=2)["game"] == "halali"

    gated = ann.create_game("love-letter", players=2, requirements={"min_finished": 50})
    assert bob.requirements(gated["id"])["unmet"].startswith("This table asks for at least 50 finished games")
    table = ann.create_game("love-letter", players=3)
    assert bob.requirements(table["id"]) == {"asked": None, "worded": [], "unmet": None}
    bob.join(table["id"])
    assert ann.start(table["id"])["status"] == "active"
    assert {turn["game"] for turn in ann.turns() + bob.turns()} == {rematch["game"], table["id"]}
    # Where one stands under the limits on games waiting (off on the tests' server: nothing to say).
    mine = bob.waiting()
    assert mine["waiting"]["total"] == mine["waiting"]["turns"] + mine["waiting"]["invitations"] + mine["waiting"]["tables"]
    assert (mine["may_join"], mine["may_create"], mine["worded"]) == (None, True, "")

    # A stream read through the web process: the events already waiting, then the answer ends.
    assert next(bob.stream_events(last_event_id=0, reconnect=False)).kind == "game_started"

    # Friends and blocks: followed, listed, friends' tables and games read, unfollowed; blocked and unblocked.
    assert ann.follow("bob")["username"] == "bob" and [row["username"] for row in ann.following()] == ["bob"]
    assert isinstance(ann.friends_tables(), list) and isinstance(ann.friends_games(), list)
    ann.unfollow("bob")
    assert ann.block("bob")["username"] == "bob" and [row["username"] for row in ann.blocked()] == ["bob"]
    ann.unblock("bob")
    assert ann.following() == [] and ann.blocked() == []

    # Groups: made, found, invited to, joined, asked to join, a table kept for it, roles, handed over, deleted.
    club = ann.create_group("Live club", entry="request", description="Slow games.")
    assert [row["id"] for row in bob.groups(q="live")] == [club["id"]] and bob.group(club["id"])["my_role"] is None
    assert bob.join_group(club["id"])["status"] == "requested"
    assert [row["username"] for row in ann.group_requests(club["id"])] == ["bob"]
    ann.decline_group_request(club["id"], "bob")
    bob.join_group(club["id"])
    assert ann.accept_group_request(club["id"], "bob")["role"] == "member"
    bob.remove_group_member(club["id"], "bob")  # leaves
    assert ann.invite_to_group(club["id"], "bob")["invitee"] == "bob"
    assert ann.group_invitation(club["id"], "bob")["inviter"] == "ann"
    assert [row["invitee"] for row in ann.group_invitations(club["id"])] == ["bob"]
    ann.withdraw_group_invitation(club["id"], "bob")
    ann.invite_to_group(club["id"], "bob")
    assert [row["group"]["id"] for row in bob.my_group_invitations()] == [club["id"]]
    bob.decline_group_invitation(club["id"])
    ann.update_group(club["id"], entry="open")
    assert bob.join_group(club["id"])["status"] == "member"
    assert bob.group_member(club["id"], "bob")["role"] == "member"
    assert ann.set_group_role(club["id"], "bob", "admin")["role"] == "admin"
    club_table = bob.create_game("love-letter", players=2, group=club["id"])
    assert [row["id"] for row in ann.group_tables(club["id"])] == [club_table["id"]]
    assert [row["username"] for row in ann.group_members(club["id"])] == ["ann", "bob"]
    assert ann.hand_over_group(club["id"], "bob")["role"] == "owner"
    assert [row["my_role"] for row in ann.my_groups()] == ["admin"]
    ann.remove_group_member(club["id"], "ann")
    other_club = ann.create_group("Invite-only club", entry="invitation")
    ann.invite_to_group(other_club["id"], "bob")
    assert bob.accept_group_invitation(other_club["id"])["role"] == "member"
    bob.join_group(club["id"])
    ann.join_group(club["id"])
    bob.remove_group_member(club["id"], "ann")
    bob.delete_group(club["id"])
    ann.delete_group(other_club["id"])
    assert bob.my_groups() == []

    # Competitions: made, found, entered, invited to, read (standings, rounds), withdrawn from, an entrant removed,
    # called off.
    starts = (datetime.now(timezone.utc) + timedelta(days=3)).isoformat()
    cup = ann.create_competition("Live cup", "love-letter", {"kind": "per_move", "days_per_move": 3},
                                 starts_at=starts, stages=[{"format": "swiss", "rounds": 3}])
    assert [row["id"] for row in bob.competitions(game="love-letter", stage_format="swiss")] == [cup["id"]]
    assert bob.competition(cup["id"])["may_enter"] is True
    assert bob.enter_competition(cup["id"])["status"] == "active"
    assert [row["username"] for row in ann.competition_entrants(cup["id"])] == ["bob"]
    assert [row["id"] for row in bob.my_competitions()] == [cup["id"]]
    assert bob.competition_standings(cup["id"]) == {"stages": []}
    assert bob.competition_rounds(cup["id"]) == {"rounds": []}
    assert ann.invite_to_competition(cup["id"], "bob")["username"] == "bob"
    bob.withdraw_from_competition(cup["id"])
    bob.enter_competition(cup["id"])
    ann.remove_competition_entrant(cup["id"], "bob")
    assert ann.cancel_competition(cup["id"])["status"] == "cancelled"
    # A ladder, started as the minute sweep would start it: the lower of the two challenges the higher.
    ladder = ann.create_competition("Live ladder", "love-letter", {"kind": "per_move", "days_per_move": 3},
                                    starts_at=starts, ladder={"reach": 2})
    bob.enter_competition(ladder["id"])
    ann.enter_competition(ladder["id"])
    from django.utils import timezone as django_timezone

    from turnbased.competitions.models import Competition
    from turnbased.competitions.services import rounds

    Competition.objects.filter(pk=ladder["id"]).update(starts_at=django_timezone.now())
    rounds.competition_start(competition_id=ladder["id"])
    top, second = [row["username"] for row in bob.competition_standings(ladder["id"])["stages"][0]["rows"]]
    challenge = {"ann": ann, "bob": bob}[second].challenge(ladder["id"], top)
    assert challenge["challenger"] == second and challenge["players"] == [second, top]

    # Webhooks: registered, read, changed, pinged, their secret rotated, deleted.
    hook = ann.create_webhook("http://127.0.0.1:1025/hook", kinds=["your_turn"])
    assert hook["secret"] and [row["id"] for row in ann.webhooks()] == [hook["id"]]
    assert ann.update_webhook(hook["id"], kinds=["your_turn", "game_finished"])["kinds"] == ["your_turn",
                                                                                           "game_finished"]
    assert ann.webhook(hook["id"])["active"] is True
    assert ann.ping_webhook(hook["id"])["kind"] == "ping"
    assert [row["kind"] for row in ann.webhook_deliveries(hook["id"])] == ["ping"]
    assert ann.rotate_webhook_secret(hook["id"])["secret"] != hook["secret"]
    assert ann.update_webhook(hook["id"], active=False)["active"] is False
    ann.delete_webhook(hook["id"])

    # A device told of my turns (issue 25): subscribed with a browser's keys, read, listed, forgotten.
    from tests.platform.notifications.push_service import Device

    phone = Device(name="phone", endpoint="https://fcm.googleapis.com/fcm/send/live-test").subscription()
    device = ann.subscribe_push(phone["endpoint"], phone["keys"])
    assert ann.push_subscription(device["id"]) == device
    assert [row["id"] for row in ann.push_subscriptions()] == [device["id"]]
    ann.forget_push_subscription(device["id"])

    # Seats changing hands (issue 46): a seat a bot took over, listed and withdrawn, named and declined, taken.
    make_account("taker")
    _seats_offered_declined_withdrawn_and_taken(ann, bob, connect(anonymous.obtain_token("taker", PASSWORD)["token"],
                                                                  transport=recorded))

    # Following games (issue 46): the taker follows a game of ann and bob, finds it in the feed, changes and stops.
    _a_game_followed(ann, bob, connect(anonymous.obtain_token("taker", PASSWORD)["token"], transport=recorded))

    # A bot account: one that never shared a table becomes one.
    make_account("robo")
    robo = connect(anonymous.obtain_token("robo", PASSWORD)["token"], transport=recorded)
    assert robo.bot_account()["eligible"] is True and robo.become_bot_account()["bot_account"] is True

    called = {operation_of(method, path) for method, path, status in recorded.exchanges if status < 400}
    assert set(operations(Client)) - called == set(), sorted(set(operations(Client)) - called)
