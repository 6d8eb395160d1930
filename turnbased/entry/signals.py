"""What fair entry tells the features above it (the mail app emails it), sent in the transaction that made it."""

from django.dispatch import Signal

# A person whose seat a bot took left the tables they were waiting to start: ``user_id``, ``game`` (the game the bot
# took over), ``tables`` (the games left, each a ``Game``; the ones they made were aborted).
tables_left = Signal()
