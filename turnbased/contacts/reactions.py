"""What a block refuses, added to the core's decisions (``play.facts``): a seat at a table where someone sits (or
which someone made) who blocked the person, and an invitation to someone who blocked the inviter; and the lists
of open tables leave the blocker's tables out for the blocked person (a join would be refused).

The refusals do not name the block: it is silent. The person refused reads that the table, or the player, does
not take them, as they would read it if the seats or the invitations were closed to them for any reason.
"""

from __future__ import annotations

from django.utils.translation import gettext

from turnbased.contacts.selectors import blocked_by_any, blockers_between, blocking_the_viewer
from turnbased.play import facts
from turnbased.play.models import Game


@facts.seat_kept
def blocked_people_do_not_sit_with_their_blocker(game: Game, user) -> str | None:
    people = {seat.user_id for seat in game.seats.all()} | {game.created_by_id}
    if blocked_by_any(user.pk, people):
        return gettext("You cannot take a seat at this table.")
    return None


@facts.invitation_kept
def blocked_people_do_not_invite_their_blocker(game: Game, inviter, invitee) -> str | None:
    blockers = blockers_between(inviter.pk, invitee.pk)  # one statement, whichever way
    if inviter.pk in blockers:  # the inviter's own block: no secret to them
        return gettext("You blocked %(name)s: unblock them first.") % {"name": invitee.get_username()}
    if invitee.pk in blockers:
        return gettext("%(name)s does not take invitations from you.") % {"name": invitee.get_username()}
    return None


@facts.open_tables_hidden
def a_blockers_tables_leave_the_blocked_persons_lists(user):
    return blocking_the_viewer(user)
