"""A seat offered to a person by name is emailed to them (issue 46): once, written with the offer or not at all, in
their language, saying which seat, how it came to be offered, what taking it means and until when, with the link to
the offer's page; an offer listed in the lobby, a refused one, and a person whose settings take no news email nobody."""

from __future__ import annotations

import pytest
from django.db import transaction

from tests.platform.mail.conftest import title_in, worded
from tests.platform.seats.conftest import taken_over
from turnbased.accounts.services.languages import language_choose
from turnbased.kit.errors import Conflict
from turnbased.mail.models import EmailKind, OutgoingEmail
from turnbased.mail.services import preferences_update
from turnbased.play.models import Seat
from turnbased.seats import services
from turnbased.seats.models import SeatOffer

pytestmark = pytest.mark.django_db

OFFERS = "%(player)s offers you a seat at %(game)s"


def _sides(game, late):
    """The player who stayed (who offers the seat) and the one a bot replaced."""
    leaver = Seat.objects.get(game=game, index=late).user
    stayer = Seat.objects.filter(game=game).exclude(index=late).get().user
    return stayer, leaver


def _emails() -> list[OutgoingEmail]:
    return list(OutgoingEmail.objects.filter(kind=EmailKind.SEAT_OFFER).order_by("pk"))


def _written_since(pk: int) -> list[str]:
    """Whom every email written after row ``pk`` is to, whatever its kind."""
    return list(OutgoingEmail.objects.filter(pk__gt=pk).order_by("pk").values_list("to", flat=True))


def _last_pk() -> int:
    return OutgoingEmail.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def test_a_bots_seat_offered_to_carol_emails_her_once_with_the_offers_page(alice, bob, carol,
                                                                           django_capture_on_commit_callbacks):
    game, late = taken_over(alice, bob)
    stayer, leaver = _sides(game, late)
    before = _last_pk()
    with django_capture_on_commit_callbacks(execute=True):
        offer = services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
    assert _written_since(before) == ["carol@example.com"], "carol alone is emailed, and once"
    (email,) = _emails()
    assert email.user == carol and email.sent_at is not None and not email.reply_to
    assert email.subject == f"{stayer.username} offers you a seat at {game.title}"
    assert f"/seat-offers/{offer.pk}/" in email.text and 'href="http' in email.html
    assert f"the one played so far as {leaver.username}" in email.text
    assert "A bot took it over when its player left or ran out of time." in email.text
    assert "back to the first move" in email.text and "does not count for your rating" in email.text
    assert "The offer stands until" in email.text and "Unsubscribe" in email.text
    # The link is absolute and leads to the offer's own page.
    url = next(line for line in email.text.splitlines() if f"/seat-offers/{offer.pk}/" in line).strip()
    assert url.startswith("http") and url.endswith(f"/seat-offers/{offer.pk}/")


def test_a_player_handing_their_own_seat_says_so(alice, bob, carol):
    game, late = taken_over(alice, bob)
    stayer, _ = _sides(game, late)
    mine = Seat.objects.get(game=game, user=stayer).index
    services.offer_make(game_id=game.pk, user=stayer, seat=mine, username="carol")
    (email,) = _emails()
    assert f"It is {stayer.username}'s own seat: they hand it on to you and leave the game." in email.text
    assert "A bot took it over" not in email.text


@pytest.mark.parametrize("language", ["hu", "de"])
def test_in_carols_language(alice, bob, carol, language):
    language_choose(user=carol, language=language)
    game, late = taken_over(alice, bob)
    stayer, _ = _sides(game, late)
    services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
    (email,) = _emails()
    expected = worded(language, OFFERS, player=stayer.username, game=title_in(language, game))
    assert worded(language, OFFERS) != OFFERS, "the catalog words the subject"
    assert email.subject == expected
    assert f'lang="{language}"' in email.html
    assert worded(language, "Take the seat or decline it on the offer's page:") in email.text
    assert worded(language, "Email settings") in email.text


def test_an_offer_listed_in_the_lobby_emails_nobody(alice, bob, carol):
    game, late = taken_over(alice, bob)
    stayer, _ = _sides(game, late)
    before = _last_pk()
    services.offer_make(game_id=game.pk, user=stayer, seat=late)
    assert SeatOffer.objects.get().offered_to is None
    assert _written_since(before) == []


def test_a_refused_offer_emails_nobody(alice, bob, carol, make_user):
    game, late = taken_over(alice, bob)
    stayer, leaver = _sides(game, late)
    before = _last_pk()
    with pytest.raises(Conflict):  # already at the table
        services.offer_make(game_id=game.pk, user=stayer, seat=late, username=leaver.username)
    services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
    make_user("dave")
    with pytest.raises(Conflict, match="offered already"):  # one offer of a seat at a time
        services.offer_make(game_id=game.pk, user=stayer, seat=late, username="dave")
    assert _written_since(before) == ["carol@example.com"], "the refusals wrote nothing"


def test_nothing_is_written_when_the_offer_is_not(alice, bob, carol):
    game, late = taken_over(alice, bob)
    stayer, _ = _sides(game, late)
    with pytest.raises(RuntimeError), transaction.atomic():
        services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
        raise RuntimeError("the request failed after the offer")
    assert _emails() == [] and not SeatOffer.objects.exists()


def test_a_person_who_takes_no_news_gets_nothing(alice, bob, carol):
    preferences_update(user=carol, turn_emails="immediate", game_emails=False)
    game, late = taken_over(alice, bob)
    stayer, _ = _sides(game, late)
    offer = services.offer_make(game_id=game.pk, user=stayer, seat=late, username="carol")
    assert offer.offered_to == carol and _emails() == []
