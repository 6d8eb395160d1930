"""Card tracker for Love Letter (classic and 2019 editions): rules §8, BGA "Tips loveletter".

``track`` counts from one viewer's view only: the discard piles, the cards
removed face up and the viewer's own hand (rules §7.4: the server never
states what a player "currently knows" of another hand). It never reads the
engine state, so it cannot use hidden information.

``learn`` folds what a seat saw of other hands from the round's events; the
engine keeps one such row per seat (``state["known"]``), which no view shows.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.love_letter import cards


# Events that end what others know of a player's hand: any card played by them (they may have played
# the card seen), a Prince or King aimed at them, and being knocked out (§8 note).
FORGETTING_PLAYS = ("prince_played", "king_played")
# The private events that teach their seats a card another player holds.
TEACHING = frozenset({"priest_saw", "baron_compared", "king_traded"})


def forgets(kind: str) -> bool:
    """Tell whether an event of ``kind`` may end what players know of someone's hand."""
    return kind.endswith("_played") or kind == "knocked_out"


def learn(known: list[str | None], kind: str, data: dict[str, Any], viewer: int | None) -> list[str | None]:
    """Return what ``viewer`` knows for certain of each seat's hand after an event it saw.

    ``known`` holds one card or None per seat and is not changed; the same
    list comes back when the event teaches nothing. A look (Priest, Baron,
    King) stays valid until the looked-at player plays a card (they may have
    played the seen one), trades, is hit by a Prince or is knocked out (§8
    note). Drawing alone does not make it stale: the player still holds the
    seen card, next to an unknown one.
    """
    if kind.endswith("_played"):  # see forgets()
        gone = [data["seat"]]
        if "target" in data and kind in FORGETTING_PLAYS:
            gone.append(data["target"])
        return _forget(known, gone)
    if kind == "knocked_out":
        return _forget(known, [data["seat"]])
    if viewer is None:
        return known
    if kind == "priest_saw" and data["seat"] == viewer:
        return _set(known, data["target"], data["seen"])
    if kind == "baron_compared" and viewer in (data["seat"], data["target"]):
        if viewer == data["seat"]:
            return _set(known, data["target"], data["target_card"])
        return _set(known, data["seat"], data["seat_card"])
    if kind == "king_traded" and viewer in (data["seat"], data["target"]):
        # The viewer knows the card it gave away: the other side holds it now.
        if viewer == data["seat"]:
            return _set(known, data["target"], data["target_received"])
        return _set(known, data["seat"], data["seat_received"])
    return known


def _forget(known: list[str | None], seats: list[int]) -> list[str | None]:
    if all(known[seat] is None for seat in seats):
        return known
    changed = list(known)
    for seat in seats:
        changed[seat] = None
    return changed


def _set(known: list[str | None], seat: int, card: str) -> list[str | None]:
    changed = list(known)
    changed[seat] = card
    return changed


def known_hands(log: list[dict[str, Any]], viewer: int | None, seats: int) -> list[str | None]:
    """Return, per seat, a card ``viewer`` knows for certain it holds now, from its visible round log."""
    known: list[str | None] = [None] * seats
    for entry in log:
        known = learn(known, entry["kind"], entry["data"], viewer)
    return known


def track(view: dict[str, Any]) -> dict[str, Any]:
    """Return the §8 tracker for the viewer of ``view``: counts from discards, face-up cards and its own hand.

    Rules §7.4: the server states nothing about what a player "currently
    knows" of another hand (a look goes stale as soon as that hand is played
    from or traded). What a Priest, Baron or King showed stays in the
    viewer's private log; every card in another hand counts as unknown here.
    """
    edition = view["edition"]
    viewer = view["you"]
    seats = view["seats"]

    accounted: Counter[str] = Counter()
    for seat in seats:
        accounted.update(entry["card"] for entry in seat["discards"])
    accounted.update(view["face_up_removed"])
    accounted.update(view.get("hand") or [])

    opponents = [seat for seat in seats if seat["in_round"] and seat["seat"] != viewer]
    unknown_in_hands = sum(seat["hand_count"] for seat in opponents)
    pool = view["deck_count"] + unknown_in_hands + (1 if view["set_aside_present"] else 0)

    rows = []
    probabilities: dict[str, float] = {}
    for card in cards.card_types(edition):
        copies = cards.COPIES[edition][card]
        unseen = copies - accounted[card]
        probability = unseen / pool if pool else 0.0
        probabilities[card] = probability
        rows.append(
            {
                "card": card,
                "value": cards.value(edition, card),
                "copies": copies,
                "unseen": unseen,
                "probability": probability,
            }
        )
    return {
        "cards": rows,
        "unknown_cards": pool,
        "opponents": [
            {
                "seat": seat["seat"],
                "unknown_count": seat["hand_count"],
                "probabilities": dict(probabilities) if seat["hand_count"] else None,
            }
            for seat in opponents
        ],
    }
