"""What the competitions tell the features above them (the mail app emails it), sent in the transaction that made it:
a receiver writes rows that commit with it, or not at all, as the core's facts do (``play.facts``)."""

from django.dispatch import Signal

# The organiser invited a person to enter: ``invitation`` (a ``CompetitionInvitation``).
competition_invitation = Signal()
# An entrant was withdrawn by the organiser, a timeout or the requirements: ``competition``, ``entrant``.
entrant_removed = Signal()
# A competition started: ``competition``, ``user_ids`` (its entrants).
competition_started = Signal()
# A round's tables are open: ``round`` (a ``Round``), ``tables`` (its ``EventTable`` rows, games made).
round_opened = Signal()
# A round closed: ``round``, ``user_ids`` (the entrants still playing).
round_closed = Signal()
# A competition ended (finished, or called off before the start): ``competition``, ``user_ids``.
competition_ended = Signal()
# A league's next season opened, its players of the season before entered: ``competition`` (the new season),
# ``moves`` (user id -> "up", "down" or "stay": what promotion and relegation did to them).
season_opened = Signal()
# A player challenged another on a ladder, their game made: ``table`` (an ``EventTable``), ``challenger`` and
# ``defender`` (users).
challenge_made = Signal()
