"""Business actions on competitions; every door (pages, API, email, tasks) calls these.

``entries`` makes a competition and takes its entries (invitations, withdrawals, an organiser's removals);
``rounds`` starts it and pairs, opens and closes its rounds, stage after stage; ``results`` records a finished
game's places and points, and withdraws a player who ran out of time.
"""
