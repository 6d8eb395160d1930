"""The core tells what happened (``play.facts``) and the features react, in the change's transaction (issue 43).

The features' reactions are registered by their apps; a fact told reaches them in the order the apps are installed;
what a reaction writes commits with the change and rolls back with it (a rating with its game's end).
"""

from __future__ import annotations

import pytest
from django.apps import apps

from tests.platform.ratings.conftest import ready_to_end
from turnbased.aftergame import reactions as aftergame_reactions
from turnbased.competitions import reactions as competition_reactions
from turnbased.entry import reactions as entry_reactions
from turnbased.following import reactions as following_reactions
from turnbased.notifications import reactions as notification_reactions
from turnbased.notifications.models import Notification, NotificationKind
from turnbased.play import facts, services
from turnbased.play.models import Game, GameStatus, Move
from turnbased.ratings import reactions as rating_reactions
from turnbased.ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


def test_the_features_react_to_the_facts_in_the_order_their_apps_are_installed():
    # The rating reads before the notifications write: their rows then go out with the move's last statement
    # (test_ending_budgets holds the count).
    # A competition's table records its places and points after the rating, before the notifications (issue 45).
    # Following writes its followers' notices (a part of the move's statement, reading nothing) last (issue 46).
    assert facts.handlers_of(facts.GameFinished) == [rating_reactions.rate, competition_reactions.game_finished,
                                                     notification_reactions.finished, following_reactions.game_finished]
    assert facts.handlers_of(facts.MovePlayed) == [following_reactions.move_played]
    assert facts.handlers_of(facts.GameReleased) == [rating_reactions.rate_released, following_reactions.game_released]
    order = [config.name for config in apps.get_app_configs()]
    assert order.index("turnbased.ratings") < order.index("turnbased.notifications")
    for kind, handler in ((facts.PlayerInvited, notification_reactions.invited),
                          (facts.PlayerJoined, notification_reactions.joined),
                          (facts.GameStarted, notification_reactions.started),
                          (facts.TurnBegan, notification_reactions.turn),
                          (facts.DeadlineNear, notification_reactions.reminder)):
        assert facts.handlers_of(kind) == [handler], kind
    # Fair entry: the person whose seat a bot took leaves the tables they wait to start (issue 44).
    # A competition withdraws the player from its rounds to come (issue 45).
    assert facts.handlers_of(facts.SeatHandedOn) == [competition_reactions.seat_handed_on,
                                                     entry_reactions.seat_handed_on]
    assert competition_reactions.who_sees_the_competition_sees_its_tables in facts._private_viewers
    assert facts.table_terms() == ["agreements", "competition", "group", "rated", "rematch", "requirements",
                                   "seat_offers"]
    assert aftergame_reactions.rematch_players_see_it in facts._private_viewers
    assert aftergame_reactions.rematch_seats_are_kept in facts._seat_keepers
    assert entry_reactions.games_waiting_keep_a_seat in facts._seat_keepers
    assert entry_reactions.games_waiting_keep_a_table in facts._creation_keepers


def test_a_handler_registered_again_is_kept_once(monkeypatch):
    monkeypatch.setattr(facts, "_handlers", {facts.GameStarted: []})
    seen = []

    def noted(fact):
        seen.append(fact)

    facts.reacting_to(facts.GameStarted)(noted)
    facts.reacting_to(facts.GameStarted)(noted)
    facts.tell(facts.GameStarted(game=None))
    assert len(seen) == 1


def test_a_game_that_ends_is_rated_and_its_players_told_in_the_same_transaction(make_user):
    alice, bob = make_user("alice"), make_user("bob")
    game = ready_to_end([alice, bob])
    services.resign_game(game_id=game.pk, user=bob)
    assert Game.objects.get(pk=game.pk).status == GameStatus.FINISHED
    assert RatingChange.objects.filter(game=game).count() == 2
    told = set(Notification.objects.filter(game=game, kind=NotificationKind.GAME_FINISHED).values_list("user", flat=True))
    assert told == {alice.pk, bob.pk}


def test_a_reaction_that_fails_undoes_the_end_of_the_game_and_everything_else(make_user, monkeypatch):
    """The rating runs in the transaction that ends the game: a rating that fails leaves the game in play, its log,
    its notifications and every rating as they were; the same end, tried again, rates it."""
    alice, bob = make_user("alice"), make_user("bob")
    game = ready_to_end([alice, bob])
    moves_before = Move.objects.filter(game=game).count()

    original = rating_reactions.ratings_record_game

    def rated_then_broken(*, game):
        assert original(game=game), "it wrote its rows before it broke"
        raise RuntimeError("the rating broke after writing")

    monkeypatch.setattr(rating_reactions, "ratings_record_game", rated_then_broken)
    with pytest.raises(RuntimeError):
        services.resign_game(game_id=game.pk, user=bob)
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE
    assert Move.objects.filter(game=game).count() == moves_before
    assert not RatingChange.objects.filter(game=game).exists() and not Rating.objects.exists()
    assert not Notification.objects.filter(game=game, kind=NotificationKind.GAME_FINISHED).exists()
    monkeypatch.setattr(rating_reactions, "ratings_record_game", original)
    services.resign_game(game_id=game.pk, user=bob)
    assert RatingChange.objects.filter(game=game).count() == 2
