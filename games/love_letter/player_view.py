"""Per-seat projection of a Love Letter game (classic and 2019 editions), and its plain-text picture.

Implements the visibility spec of the rules file, §7: a seat sees the public
standing state, its own hand, its private log for the current round and its
card tracker (counts from public cards and its own hand only, §7.4); a
spectator (seat None) sees public information only. The state keeps the
round's private events (``changes.emit``), so a view reads no event log.

A view is machine data (the API sends it as it is, the platform caches it): codes and numbers,
never words. Its private log holds each event's kind and data; ``history.describe_event`` words
them for whoever reads them (``view_text`` here, the board's ``board_data``).
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.i18n import catalog_of
from games.love_letter import cards, tracker
from games.love_letter.history import describe_event
from games.love_letter.words import name, name_list

_ = catalog_of(__name__)


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
            {"seat": seat, "name": player, "cards": list(state["hands"][seat])}
            for seat, player in enumerate(state["players"])
        ],
        "set_aside": state["set_aside"],
        "deck": list(state["deck"]),  # top first
        "private_log": [
            {
                "turn": entry["turn"],
                "kind": entry["kind"],
                "seats": list(entry["visible_to"]),
                "data": _copied(entry["data"]),
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


def private_lines(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the viewer's private log worded for them: ``{turn, text}`` per entry, in the reader's language."""
    players = [seat["name"] for seat in view["seats"]]
    return [{"turn": entry["turn"], "text": describe_event(Event(entry["kind"], entry["data"]), players, view["you"])}
            for entry in view["private_log"]]


def revealed_lines(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the replay's private events of the round (``view_after_end``) worded for a spectator: ``{turn, text}``."""
    players = [seat["name"] for seat in view["seats"]]
    revealed = (view.get("revealed") or {}).get("private_log") or []
    return [{"turn": entry["turn"], "text": describe_event(Event(entry["kind"], entry["data"]), players, None)}
            for entry in revealed]


def view_text(view: dict[str, Any]) -> str:
    """Render a view as plain text, in the reader's language: the table as its viewer sees it, for an email."""
    edition = view["edition"]

    def card(code: str) -> str:
        return f"{name(code)} ({cards.value(edition, code)})"

    if edition == cards.CLASSIC:
        heading = _("Love Letter (classic edition), round {round}, turn {turn}.")
    else:
        heading = _("Love Letter (2019 edition), round {round}, turn {turn}.")
    target = view["target"]
    lines = [heading.format(round=view["round"], turn=view["turn"]) + " "
             + _.ngettext("{count} token wins the game.", "{count} tokens win the game.", target).format(count=target)]
    if view["hand"] is not None:
        if view["hand"]:
            lines.append(_("Your hand: {cards}").format(cards=", ".join(card(code) for code in view["hand"])))
        else:
            lines.append(_("Your hand: none (you are out of this round)"))
    count = view["deck_count"]
    if view["set_aside_present"]:
        deck = _.ngettext("Deck: {count} card; the set-aside card is still set aside.",
                          "Deck: {count} cards; the set-aside card is still set aside.", count)
    else:
        deck = _.ngettext("Deck: {count} card; the set-aside card is taken.",
                          "Deck: {count} cards; the set-aside card is taken.", count)
    lines.append(deck.format(count=count))
    if view["face_up_removed"]:
        lines.append(_("Removed face up this round: {cards}").format(
            cards=", ".join(card(code) for code in view["face_up_removed"])))
    lines.append("")
    for seat in view["seats"]:
        status = []
        if seat["seat"] == view["you"]:
            status.append(_.pgettext("a player's status", "you"))
        if seat["seat"] == view["current"]:
            status.append(_.pgettext("a player's status", "to play"))
        if seat["left"]:
            status.append(_.pgettext("a player's status", "left the game"))
        elif not seat["in_round"]:
            status.append(_.pgettext("a player's status", "out of the round"))
        if seat["protected"]:
            status.append(_.pgettext("a player's status", "protected"))
        tokens = _.ngettext("{count} token", "{count} tokens", seat["tokens"]).format(count=seat["tokens"])
        discards = ", ".join(name(entry["card"]) for entry in seat["discards"]) or _.pgettext("no cards", "none")
        # Translators: {status} is empty or a list of statuses in brackets, " (you, to play)".
        lines.append("  " + _("{player}{status}: {tokens}, {count} in hand; discards: {discards}").format(
            player=seat["name"], status=f" ({', '.join(status)})" if status else "", tokens=tokens,
            count=seat["hand_count"], discards=discards))
    tracked = view["tracker"]
    unseen = ", ".join(f"{name(row['card'])} {row['unseen']}" for row in tracked["cards"] if row["unseen"])
    # Translators: {cards} lists "card count" pairs ("Guard 3, Priest 1"), or the word for nothing.
    lines += ["", _.ngettext("Not yet seen by you: {cards} ({count} unknown card).",
                             "Not yet seen by you: {cards} ({count} unknown cards).", tracked["unknown_cards"]).format(
        cards=unseen or name_list([]), count=tracked["unknown_cards"])]
    if view["private_log"]:
        lines += ["", _("What only you know this round:")]
        lines += ["  " + _("turn {turn}: {text}").format(**entry) for entry in private_lines(view)]
    return "\n".join(lines)
