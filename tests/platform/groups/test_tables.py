"""A group's tables: made by the members the group allows, seen, listed and joined by its members alone (its
invite link opens nothing to anyone else), invited to by members only; a deleted group's tables play on."""

from __future__ import annotations

import pytest

from turnbased.groups import selectors, services
from turnbased.groups.models import GroupTable
from turnbased.kit.errors import Conflict, GameNotFound, InvalidRequest, NotAllowed, NotFound, Unprocessable
from turnbased.play import selectors as play_selectors
from turnbased.play import services as play_services
from turnbased.play.invitation_selectors import is_invited
from turnbased.play.models import Game, GameStatus, Visibility

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(alice, bob):
    group = services.group_create(user=alice, name="Thursday Club")
    services.join(user=bob, group_id=group.pk)
    return group


def _table(creator, group, **extra) -> Game:
    return play_services.create_game(creator=creator, engine_slug="love-letter", players=3,
                                     visibility=Visibility.PRIVATE, terms={"group": group.pk}, **extra)


def test_members_see_and_join_a_groups_table_and_nobody_else_does(club, alice, bob, carol):
    game = _table(alice, club)
    assert GroupTable.objects.get(game=game).group_id == club.pk
    assert list(selectors.open_tables(club)) == [game]
    assert play_selectors.viewer_of(game.pk, bob).seat is None  # a member sees it before joining
    play_services.join_game(game_id=game.pk, user=bob)
    with pytest.raises(GameNotFound):
        play_selectors.viewer_of(game.pk, carol)
    with pytest.raises(GameNotFound):  # the invite link shared outside the group opens nothing
        play_selectors.viewer_of(game.pk, carol, invite_code=game.invite_code)
    with pytest.raises(GameNotFound):
        play_services.join_game(game_id=game.pk, user=carol, invite_code=game.invite_code)
    assert game not in play_selectors.open_tables(carol)
    assert game.seats.count() == 2


def test_a_groups_table_invites_members_alone(club, alice, bob, carol):
    game = _table(alice, club)
    with pytest.raises(Conflict, match="not a member of the group"):
        play_services.invitation_create(game_id=game.pk, user=alice, username="carol")
    assert not is_invited(game, carol)
    play_services.invitation_create(game_id=game.pk, user=alice, username="bob")
    assert is_invited(game, bob)


def test_who_may_make_the_groups_tables(club, alice, bob, carol):
    with pytest.raises(NotAllowed, match="members"):
        _table(carol, club)
    services.group_update(user=alice, group_id=club.pk, tables_by="admins")
    with pytest.raises(NotAllowed, match="admins"):
        _table(bob, club)
    with pytest.raises(Unprocessable, match="private"):
        play_services.create_game(creator=alice, engine_slug="love-letter", terms={"group": club.pk})
    with pytest.raises(NotFound):
        _table(alice, type(club)(pk=club.pk + 100))
    with pytest.raises(InvalidRequest, match="Unknown table terms"):
        play_services.create_game(creator=alice, engine_slug="love-letter", terms={"league": 1})
    assert not Game.objects.exists()  # every refusal made nothing


def test_a_member_who_leaves_keeps_their_seat_and_loses_the_rest(club, alice, bob, carol):
    game = _table(alice, club)
    other = _table(alice, club)
    play_services.join_game(game_id=game.pk, user=bob)
    services.leave(user=bob, group_id=club.pk)
    assert play_selectors.viewer_of(game.pk, bob).seat == 1
    with pytest.raises(GameNotFound):
        play_selectors.viewer_of(other.pk, bob)


def test_a_deleted_groups_tables_play_on_with_their_players(club, alice, bob, carol):
    game = _table(alice, club)
    play_services.join_game(game_id=game.pk, user=bob)
    services.join(user=carol, group_id=club.pk)
    services.group_delete(user=alice, group_id=club.pk)
    play_services.start_game(game_id=game.pk, user=alice)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and not GroupTable.objects.exists()
    assert play_selectors.viewer_of(game.pk, bob).seat == 1
    with pytest.raises(GameNotFound):  # a private table of the people at it
        play_selectors.viewer_of(game.pk, carol)
