"""Card tracker for Love Letter (classic and 2019 editions): rules §8, BGA "Tips loveletter".

The tracker sees only what one viewer may know: the public standing state,
the viewer's own hand and the events of the current round visible to them.
It never reads the engine state, so it cannot use hidden information.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.love_letter import cards


def known_hands(log: list[dict[str, Any]], viewer: int | None) -> dict[int, str]:
    """Return, per opponent, a card ``viewer`` knows for certain it holds now, from its visible round log.

    A look (Priest, Baron, King) stays valid until the looked-at player plays
    a card (they may have played the seen one), trades, is hit by a Prince or
    is knocked out (§8 note). Drawing alone does not make it stale: the
    player still holds the seen card, next to an unknown one.
    """
    known: dict[int, str] = {}
    for entry in log:
        kind, data = entry["kind"], entry["data"]
        if kind.endswith("_played"):
            known.pop(data["seat"], None)
            if "target" in data and kind in ("prince_played", "king_played"):
                known.pop(data["target"], None)
        elif kind == "knocked_out":
            known.pop(data["seat"], None)
        elif viewer is None:
            continue
        elif kind == "priest_saw" and data["seat"] == viewer:
            known[data["target"]] = data["seen"]
        elif kind == "baron_compared" and viewer in (data["seat"], data["target"]):
            if viewer == data["seat"]:
                known[data["target"]] = data["target_card"]
            else:
                known[data["seat"]] = data["seat_card"]
        elif kind == "king_traded" and viewer in (data["seat"], data["target"]):
            # The viewer knows the card it gave away: the other side holds it now.
            if viewer == data["seat"]:
                known[data["target"]] = data["target_received"]
            else:
                known[data["seat"]] = data["seat_received"]
    known.pop(viewer, None)
    return known


def track(view: dict[str, Any], log: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the §8 tracker for the viewer of ``view`` given its visible round ``log``."""
    edition = view["edition"]
    viewer = view["you"]
    seats = view["seats"]
    in_round = {seat["seat"] for seat in seats if seat["in_round"]}
    known = {seat: card for seat, card in known_hands(log, viewer).items() if seat in in_round}

    accounted: Counter[str] = Counter()
    for seat in seats:
        accounted.update(entry["card"] for entry in seat["discards"])
    accounted.update(view["face_up_removed"])
    accounted.update(view.get("hand") or [])
    accounted.update(known.values())

    opponents = [seat for seat in seats if seat["in_round"] and seat["seat"] != viewer]
    unknown_in_hands = sum(seat["hand_count"] - (1 if seat["seat"] in known else 0) for seat in opponents)
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
        "opponents": [_opponent(seat, known.get(seat["seat"]), probabilities) for seat in opponents],
    }


def _opponent(seat: dict[str, Any], known: str | None, probabilities: dict[str, float]) -> dict[str, Any]:
    """Return one opponent's entry: the card known for certain, and odds for its unknown cards."""
    unknown = seat["hand_count"] - (1 if known else 0)
    return {
        "seat": seat["seat"],
        "known": known,
        "unknown_count": unknown,
        "probabilities": dict(probabilities) if unknown else None,
    }
