"""What the agreements tell the doors above them (the mail layer emails it): sent in the transaction that made it.

``proposal_made(proposal, game, user_ids)``: a proposal waits for these people's answers.
``proposal_decided(proposal, game, user_ids)``: it was accepted, declined, withdrawn; these people are told.
"""

from django.dispatch import Signal

proposal_made = Signal()
proposal_decided = Signal()
