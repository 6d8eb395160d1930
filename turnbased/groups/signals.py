"""What the groups tell the features above them (the mail app emails it), sent in the transaction that made it:
a receiver writes rows that commit with it, or not at all, as the core's facts do (``play.facts``)."""

from django.dispatch import Signal

# An admin invited a person to a group: ``invitation`` (an ``Invitation``, with its group, invitee and inviter).
invitation_sent = Signal()
# A person asked to join a group: ``request`` (a ``Request``), ``admin_ids`` (whom to tell: the group's admins).
request_made = Signal()
