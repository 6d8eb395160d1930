"""Per-seat projection of a Love Letter game (classic and 2019 editions) and event wording.

Implements the visibility spec of the rules file, §7: a seat sees the public
standing state, its own hand, its private log for the current round and its
card tracker (counts from public cards and its own hand only, §7.4); a
spectator (seat None) sees public information only. The state keeps the
round's private events (``engine._emit``), so a view reads no event log.
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.love_letter import cards, tracker
from games.love_letter.cards import title


def view(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """Return what ``seat`` (None: a spectator) may know about ``state``, and nothing more."""
    n = len(state["players"])
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n):
        raise ValueError(f"no seat {seat!r}")
    edition = state["edition"]
    result: dict[str, Any] = {
        "game": "love-letter",
        "edition": edition,
        "options": {"edition": edition, "classic_final_tie": state["options"]["classic_final_tie"]},
        "you": seat,
        "phase": state["phase"],
        "round": state["round"],
        "turn": state["turn"],
        "current": state["current"],
        "target": state["target"],
        "seats": [
            {
                "seat": other,
                "name": state["players"][other],
                "tokens": state["tokens"][other],
                "in_round": state["in_round"][other],
                "left": bool(state.get("left", [False] * n)[other]),
                "protected": state["protected"][other],
                "hand_count": len(state["hands"][other]),
                "discards": [dict(entry) for entry in state["discards"][other]],
                "discard_total": sum(cards.value(edition, entry["card"]) for entry in state["discards"][other]),
            }
            for other in range(n)
        ],
        "deck_count": len(state["deck"]),
        "set_aside_present": state["set_aside"] is not None,
        "face_up_removed": list(state["face_up"]),
        "hand": None if seat is None else list(state["hands"][seat]),
        "private_log": [
            {
                "round": state["round"],
                "turn": entry["turn"],
                "kind": entry["kind"],
                "data": _copied(entry["data"]),
                "text": describe_event(Event.from_json(entry), state["players"], seat),
            }
            for entry in state["private"]
            if seat is not None and seat in entry["visible_to"]
        ],
        "last_play": _last_play(state),
        "last_round": _copied(state["last_round"]),
        "winners": None if state["winners"] is None else list(state["winners"]),
    }
    result["tracker"] = tracker.track(result)
    return result


def view_after_end(state: dict[str, Any]) -> dict[str, Any]:
    """Return the spectator's view with everything hidden during the round shown: the replay after the end.

    The rules file, §7.6: once the game is over every hand, the set-aside card, the order of the
    deck and every private event of the round may be shown, at every step of the replay.
    """
    shown = view(state, None)
    shown["revealed"] = {
        "hands": [
            {"seat": seat, "name": name, "cards": list(state["hands"][seat])} for seat, name in enumerate(state["players"])
        ],
        "set_aside": state["set_aside"],
        "deck": list(state["deck"]),  # top first
        "private_log": [
            {
                "turn": entry["turn"],
                "kind": entry["kind"],
                "seats": list(entry["visible_to"]),
                "text": describe_event(Event.from_json(entry), state["players"], None),
            }
            for entry in state["private"]
        ],
    }
    return shown


def _last_play(state: dict[str, Any]) -> dict[str, int] | None:
    """Return the card played last this round as ``{seat, discard}`` (its index in that seat's discards), or None.

    Public facts only: every turn starts with its player's draw (the round's
    ``drew_card`` entries give each turn's player) and a played card ends up
    last among that player's "played" discards. None before the round's first
    play, and when a player has left the game since (a turn, or the game,
    may then have ended without a play).
    """
    left = state.get("left") or [False] * len(state["players"])
    if state["phase"] == "over" and any(left):
        return None
    turn = state["turn"] - 1 if state["phase"] == "await_play" else state["turn"]
    seat = next(
        (entry["data"]["seat"] for entry in state["private"] if entry["kind"] == "drew_card" and entry["turn"] == turn),
        None,
    )
    if seat is None or left[seat]:
        return None
    discards = state["discards"][seat]
    played = [index for index, entry in enumerate(discards) if entry["how"] == "played"]
    return {"seat": seat, "discard": played[-1]} if played else None


def _copied(value: Any) -> Any:
    """Return a copy of a JSON value that shares no dict or list with it (much cheaper than deepcopy)."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


# -- event wording ---------------------------------------------------------------


def describe_event(event: Event, players: list[str], viewer: int | None) -> str:
    """Return one English line describing ``event`` as ``viewer`` should read it."""
    d = event.data

    def who(seat: int) -> str:
        return "You" if seat == viewer else players[seat]

    def whom(seat: int) -> str:
        return "you" if seat == viewer else players[seat]

    def whose(seat: int) -> str:
        return "your" if seat == viewer else f"{players[seat]}'s"

    def cardlist(names: list[str]) -> str:
        return ", ".join(title(card) for card in names) if names else "nothing"

    kind = event.kind
    if kind == "round_started":
        text = f"Round {d['round']} begins; {who(d['starter'])} {'start' if d['starter'] == viewer else 'starts'}"
        if d.get("chosen_from"):
            text += f" (drawn by lot among {', '.join(players[s] for s in d['chosen_from'])})"
        if d["face_up"]:
            text += f". Removed face up: {cardlist(d['face_up'])}"
        return text + "."
    if kind == "dealt":
        return (
            f"You were dealt the {title(d['card'])}."
            if d["seat"] == viewer
            else f"{players[d['seat']]} was dealt a card."
        )
    if kind == "drew":
        text = f"{who(d['seat'])} drew a card ({d['deck_count']} left in the deck)."
        if d.get("protection_ended"):
            text += f" {whose(d['seat']).capitalize()} Handmaid protection ended."
        return text
    if kind == "drew_card":
        return f"{who(d['seat'])} drew the {title(d['card'])}."
    if kind.endswith("_played") and d.get("no_target"):
        return f"{who(d['seat'])} played the {title(d['card'])}: no effect, no legal target."
    if kind == "guard_played":
        outcome = "hit" if d["hit"] else "miss"
        return f"{who(d['seat'])} played the Guard on {whom(d['target'])}, naming the {title(d['guess'])}: {outcome}."
    if kind == "priest_played":
        return f"{who(d['seat'])} played the Priest and looked at {whose(d['target'])} hand."
    if kind == "priest_saw":
        return f"{who(d['seat'])} saw {whose(d['target'])} card: {title(d['seen'])}."
    if kind == "baron_played":
        outcome = "a tie, nothing happens" if d["loser"] is None else f"{who(d['loser'])} lost"
        return f"{who(d['seat'])} played the Baron on {whom(d['target'])}: {outcome}."
    if kind == "baron_compared":
        return (
            f"Baron comparison: {whose(d['seat'])} {title(d['seat_card'])} "
            f"against {whose(d['target'])} {title(d['target_card'])}."
        )
    if kind == "handmaid_played":
        return f"{who(d['seat'])} played the Handmaid: protected until {whose(d['seat'])} next turn."
    if kind == "prince_played":
        if d["target"] == d["seat"]:
            on = "yourself" if d["seat"] == viewer else "themselves"
        else:
            on = whom(d["target"])
        text = f"{who(d['seat'])} played the Prince on {on}: {whom(d['target'])} discarded the {title(d['discarded'])}"
        if d["replacement"] is None:
            return text + " and " + ("are" if d["target"] == viewer else "is") + " out."
        source = "the set-aside card" if d["replacement"] == "set_aside" else "a new card"
        return text + f" and drew {source}."
    if kind == "prince_drew":
        source = " (the set-aside card)" if d["source"] == "set_aside" else ""
        return f"{who(d['seat'])} drew the {title(d['card'])}{source}."
    if kind == "king_played":
        return f"{who(d['seat'])} played the King and traded hands with {whom(d['target'])}."
    if kind == "king_traded":
        return (
            f"King trade: {who(d['seat'])} received the {title(d['seat_received'])}, "
            f"{whom(d['target'])} received the {title(d['target_received'])}."
        )
    if kind == "chancellor_played":
        if d["drew"] == 0:
            return f"{who(d['seat'])} played the Chancellor: the deck is empty, no effect."
        return f"{who(d['seat'])} played the Chancellor and drew {d['drew']} card{'s' if d['drew'] > 1 else ''}."
    if kind == "chancellor_drew":
        return f"{who(d['seat'])} drew {cardlist(d['cards'])} with the Chancellor."
    if kind == "chancellor_returned":
        return f"{who(d['seat'])} put {d['count']} card{'s' if d['count'] > 1 else ''} on the bottom of the deck."
    if kind == "chancellor_kept":
        return (
            f"{who(d['seat'])} kept the {title(d['keep'])} and put {cardlist(d['bottom'])} "
            "on the bottom of the deck (last one lowest)."
        )
    if kind == "princess_played":
        return f"{who(d['seat'])} played the Princess."
    if kind.endswith("_played"):
        return f"{who(d['seat'])} played the {title(d['card'])}."
    if kind == "player_left":
        return f"{who(d['seat'])} left the game and will be knocked out at the start of every round."
    if kind == "knocked_out":
        verb = "are" if d["seat"] == viewer else "is"
        text = f"{who(d['seat'])} {verb} out of the round"
        return text + (f", revealing {cardlist(d['revealed'])}." if d["revealed"] else ".")
    if kind == "showdown":
        hands = ", ".join(f"{who(h['seat'])}: {title(h['card'])}" for h in d["hands"])
        totals = ", ".join(f"{who(t['seat'])} {t['total']}" for t in d["discard_totals"])
        winners = ", ".join(who(s) for s in d["winners"]) or "nobody"
        return f"Showdown: {hands} (discard totals: {totals}). Winner: {winners}."
    if kind == "round_ended":
        reason = "last player standing" if d["reason"] == "last_standing" else "showdown"
        if not d["winners"]:
            outcome = "nobody wins the round"
        elif d["winners"] == [viewer]:
            outcome = "you win the round"
        elif len(d["winners"]) == 1:
            outcome = f"{players[d['winners'][0]]} wins the round"
        else:
            outcome = " and ".join(whom(s) for s in d["winners"]) + " win the round"
        text = f"Round {d['round']} ends ({reason}): {outcome}."
        if d["spy_bonus"] is not None:
            text += f" Spy bonus: {who(d['spy_bonus'])}."
        text += f" Set-aside card: {title(d['set_aside']) if d['set_aside'] else 'taken by a Prince'}."
        text += " Tokens: " + ", ".join(f"{players[s]} {t}" for s, t in enumerate(d["tokens"])) + "."
        return text
    if kind == "target_tied":
        names = " and ".join(who(s) for s in d["seats"])
        return f"{names} are tied at {d['tokens']} tokens: another round is played."
    if kind == "game_ended" and d.get("reason") == "resigned":
        winner = d["winners"][0]
        return f"Everyone else has left: {who(winner)} {'win' if winner == viewer else 'wins'} the game."
    if kind == "game_ended":
        winner = d["winners"][0]
        return f"{who(winner)} {'win' if winner == viewer else 'wins'} the game with {d['tokens'][winner]} tokens."
    return kind.replace("_", " ").capitalize() + "."


def view_text(view: dict[str, Any]) -> str:
    """Render a view as plain text: the table as its viewer sees it, for an email."""
    edition = view["edition"]

    def card(name: str) -> str:
        return f"{title(name)} ({cards.value(edition, name)})"

    lines = [
        f"Love Letter ({edition} edition), round {view['round']}, turn {view['turn']}. "
        f"{view['target']} tokens win the game."
    ]
    if view["hand"] is not None:
        lines.append("Your hand: " + (", ".join(card(c) for c in view["hand"]) or "none (you are out of this round)"))
    deck = f"Deck: {view['deck_count']} card{'s' if view['deck_count'] != 1 else ''}; the set-aside card is "
    deck += "still set aside." if view["set_aside_present"] else "taken."
    lines.append(deck)
    if view["face_up_removed"]:
        lines.append("Removed face up this round: " + ", ".join(card(c) for c in view["face_up_removed"]))
    lines.append("")
    for seat in view["seats"]:
        status = []
        if seat["seat"] == view["you"]:
            status.append("you")
        if seat["seat"] == view["current"]:
            status.append("to play")
        if seat["left"]:
            status.append("left the game")
        elif not seat["in_round"]:
            status.append("out of the round")
        if seat["protected"]:
            status.append("protected")
        tokens = f"{seat['tokens']} token{'s' if seat['tokens'] != 1 else ''}"
        discards = ", ".join(title(entry["card"]) for entry in seat["discards"]) or "none"
        label = f" ({', '.join(status)})" if status else ""
        lines.append(f"  {seat['name']}{label}: {tokens}, {seat['hand_count']} in hand; discards: {discards}")
    unseen = ", ".join(f"{title(row['card'])} {row['unseen']}" for row in view["tracker"]["cards"] if row["unseen"])
    lines += ["", f"Not yet seen by you: {unseen or 'nothing'} ({view['tracker']['unknown_cards']} unknown cards)."]
    if view["private_log"]:
        lines += ["", "What only you know this round:"]
        lines += [f"  turn {entry['turn']}: {entry['text']}" for entry in view["private_log"]]
    return "\n".join(lines)
