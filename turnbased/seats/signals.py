"""What the seats feature tells the doors above it (the mail layer emails it): sent in the transaction that made it.

``seat_offered(offer, game)``: a seat was offered to a named person (an offer listed in the lobby emails nobody).
"""

from django.dispatch import Signal

seat_offered = Signal()
