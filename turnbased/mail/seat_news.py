"""Email the news of a seat offered to a person (issue 46): a player at a game in play offers them a seat a bot took
over, or hands them their own seat.

The seats app sends ``seat_offered`` in the transaction that made an offer named to a person (an offer listed in the
lobby is for anyone, and emails nobody); the email is written to the outbox there (so it commits with the offer or not
at all) and sent once it has committed, at most once, like every feature's news. The person's email settings decide,
as for a game's news; a bot account takes no seat in a game in play (the core refuses it), and would read its events
through the API anyway.

The email says which seat (its name at the table), how it came to be offered, what taking it means, when the offer
lapses, and links to the offer's page, where the person takes it or declines it: no reply answers it.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.dispatch import receiver
from django.urls import reverse
from django.utils.translation import gettext as _

from turnbased.accounts.models import is_bot_account
from turnbased.mail import compose
from turnbased.mail.models import EmailKind
from turnbased.mail.news import takes_news, write_and_send
from turnbased.play.models import Game
from turnbased.seats.models import SeatOffer
from turnbased.seats.selectors import offer_shown
from turnbased.seats.signals import seat_offered


def offer_url(offer: SeatOffer) -> str:
    """The offer's page, absolute (read in a mail client): where the person takes the seat or declines it."""
    return settings.SITE_URL + reverse("seat-offer", args=[offer.pk])


def seat_offer_email(user, offer: SeatOffer, game: Game):
    """Write the email of ``offer``, named to ``user``."""
    with compose.for_recipient(user):  # the subject too, in the recipient's language
        title = game.title
        player = compose.person_name(offer.offered_by)
        context = {
            "user": user, "kind": str(offer.kind), "player": player,
            # The seat's name at the table: the name its moves were played under so far (the history shows it).
            "seat": offer_shown(offer, game)["seat_name"],
            "game": {"title": title},
            "offer_url": offer_url(offer), "expires_at": offer.expires_at,
        }
        subject = _("%(player)s offers you a seat at %(game)s") % {"player": player, "game": title}
        # No reply address: the offer is taken or declined on its page, not by a reply.
        return compose.build(to=user.email, subject=subject, template="seat_offer", context=context, user=user)


@receiver(seat_offered, dispatch_uid="turnbased-mail-seat-offered")
def on_seat_offered(sender, offer: SeatOffer, game: Game, **kwargs) -> None:
    if offer.offered_to_id is None:  # listed in the lobby: nobody in particular to tell
        return
    # Read afresh with the profile: the language and the zone the email is written in.
    user = get_user_model().objects.select_related("profile").filter(pk=offer.offered_to_id).first()
    if user is not None and not is_bot_account(user) and takes_news(user):
        write_and_send(seat_offer_email(user, offer, game), user, kind=EmailKind.SEAT_OFFER)
