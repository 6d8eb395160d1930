"""Following (issue 46): what a person may follow (a game they may see and do not play, a group they belong to, a
competition they may see), refused with a clear reason and nothing changed otherwise; the feed of the games their
watches cover, as any spectator sees them; changing and stopping a watch, one's own alone."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from tests.platform.competitions.conftest import started
from tests.platform.following.conftest import play_one, two_player
from turnbased.following import selectors, services
from turnbased.following.models import Notify, Watch
from turnbased.groups import services as group_services
from turnbased.kit.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed, NotFound
from turnbased.play import selectors as play_selectors
from turnbased.play import services as play_services
from turnbased.play.models import Visibility

pytestmark = pytest.mark.django_db


def _feed(user) -> list[int]:
    return [game.pk for game in selectors.feed(user)]


def test_carol_follows_a_public_game_and_her_feed_shows_it_as_a_spectator_reads_it(game, alice, bob, carol):
    watch, created = services.watch_make(user=carol, kind="game", target_id=game.pk)
    assert created and watch.notify == Notify.MOVES and watch.game_id == game.pk
    game = play_one(game, alice, bob)
    assert _feed(carol) == [game.pk]
    (row,) = selectors.feed_rows(list(selectors.feed(carol)))
    spectator_line = play_selectors.last_move_lines([game], AnonymousUser())[game.pk]
    assert row["line"] == spectator_line != ""
    # Following again changes only what it tells.
    again, created = services.watch_make(user=carol, kind="game", target_id=game.pk, notify="ends")
    assert not created and again.pk == watch.pk and again.notify == Notify.ENDS
    assert Watch.objects.filter(user=carol).count() == 1


def test_a_player_may_not_follow_their_own_game_nor_anyone_a_game_they_may_not_see(alice, bob, carol):
    game = two_player(alice, bob, visibility=Visibility.PRIVATE)
    with pytest.raises(Conflict, match="You play at this table"):
        services.watch_make(user=alice, kind="game", target_id=game.pk)
    with pytest.raises(GameNotFound):
        services.watch_make(user=carol, kind="game", target_id=game.pk)
    for wrong in (0, -3, 2**63, "7", None, True):
        with pytest.raises(GameNotFound):
            services.watch_make(user=carol, kind="game", target_id=wrong)
    with pytest.raises(InvalidRequest):
        services.watch_make(user=carol, kind="player", target_id=game.pk)
    with pytest.raises(InvalidRequest, match="notify must be one of"):
        services.watch_make(user=carol, kind="game", target_id=game.pk, notify="always")
    assert not Watch.objects.exists()


def test_a_finished_game_is_not_followed_and_leaves_the_feed_a_week_after_its_end(game, alice, bob, carol):
    services.watch_make(user=carol, kind="game", target_id=game.pk)
    play_services.resign_game(game_id=game.pk, user=alice)
    assert _feed(carol) == [game.pk], "ended this week: its result shows"
    other = two_player(alice, bob, seed="other")
    play_services.resign_game(game_id=other.pk, user=bob)
    with pytest.raises(Conflict, match="over"):
        services.watch_make(user=carol, kind="game", target_id=other.pk)
    game.refresh_from_db()
    game.finished_at = game.finished_at - selectors.FEED_KEEPS_ENDED
    game.save(update_fields=["finished_at"])
    assert _feed(carol) == []


def test_a_group_is_followed_by_its_members_and_its_private_tables_leave_the_feed_of_one_who_left(alice, bob, carol):
    club = group_services.group_create(user=alice, name="Thursday Club")
    group_services.join(user=bob, group_id=club.pk)
    with pytest.raises(NotAllowed, match="members"):
        services.watch_make(user=carol, kind="group", target_id=club.pk)
    with pytest.raises(NotFound):
        services.watch_make(user=carol, kind="group", target_id=club.pk + 1000)
    group_services.join(user=carol, group_id=club.pk)
    watch, _ = services.watch_make(user=carol, kind="group", target_id=club.pk)
    assert watch.notify == Notify.ENDS
    table = two_player(alice, bob, visibility=Visibility.PRIVATE, terms={"group": club.pk})
    outside = two_player(alice, bob, seed="not the club's")
    assert _feed(carol) == [table.pk], "the group's games alone"
    group_services.leave(user=carol, group_id=club.pk)
    assert _feed(carol) == [], "a private table of a group she left is no longer hers to see"
    assert outside.pk not in _feed(carol)


def test_a_competitions_games_are_followed_by_whoever_may_see_it(make_user, carol):
    organiser = make_user("organiser")
    people = [make_user(f"entrant{n}") for n in range(4)]
    competition = started(organiser, people)
    watch, _ = services.watch_make(user=carol, kind="competition", target_id=competition.pk)
    assert watch.kind == "competition"
    assert len(_feed(carol)) == 2, "both tables of its first round"
    assert _feed(people[0]) == []
    services.watch_make(user=people[0], kind="competition", target_id=competition.pk)
    assert len(_feed(people[0])) == 1, "the other table: her own is in her own list"


def test_changing_and_stopping_a_watch_are_its_owners_alone(game, carol, make_user):
    dave = make_user("dave")
    watch, _ = services.watch_make(user=carol, kind="game", target_id=game.pk)
    for action in (lambda: services.watch_change(watch_id=watch.pk, user=dave, notify="off"),
                   lambda: services.watch_remove(watch_id=watch.pk, user=dave)):
        with pytest.raises(NotFound):
            action()
    assert Watch.objects.get(pk=watch.pk).notify == Notify.MOVES
    with pytest.raises(InvalidRequest):
        services.watch_change(watch_id=watch.pk, user=carol, notify="")
    assert services.watch_change(watch_id=watch.pk, user=carol, notify="off").notify == Notify.OFF
    services.watch_remove(watch_id=watch.pk, user=carol)
    assert not Watch.objects.exists()
    with pytest.raises(NotFound):
        services.watch_remove(watch_id=watch.pk, user=carol)
    for wrong in (0, -1, 2**63, 2**64, "1", True, None):  # never a database error: a 404 as for any other id
        with pytest.raises(NotFound):
            selectors.watch_for(wrong, carol)


def test_a_person_follows_at_most_so_many(alice, bob, carol, monkeypatch):
    monkeypatch.setattr(selectors, "MOST_WATCHES", 2)
    games = [two_player(alice, bob, seed=f"g{n}") for n in range(3)]
    for game in games[:2]:
        services.watch_make(user=carol, kind="game", target_id=game.pk)
    with pytest.raises(Conflict, match="stop following"):
        services.watch_make(user=carol, kind="game", target_id=games[2].pk)
    services.watch_make(user=carol, kind="game", target_id=games[0].pk, notify="off")  # a change is no new watch
    assert Watch.objects.filter(user=carol).count() == 2
