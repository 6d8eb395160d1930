"""Text notation for Love Letter moves (classic and 2019 editions), used in emails and logs.

    guard bob priest      play the Guard on Bob, naming the Priest
    prince self           play the Prince on yourself
    handmaid              play a card that chooses nobody
    keep baron bottom guard priest   resolve the 2019 Chancellor

Words are case-insensitive. A player is written as their name, ``self``/``me``,
or ``#N`` (N counts seats from 1).
"""

from __future__ import annotations

import re
from typing import Any

from games.base import BadNotation
from games.love_letter import cards
from games.love_letter.cards import TARGETS, title

SELF_WORDS = ("self", "me", "myself")

# Accepted spellings of each card type (plurals and common variants).
CARD_WORDS: dict[str, str] = {
    **{card: card for card in cards.ALL_CARDS},
    "spies": "spy",
    "guards": "guard",
    "priests": "priest",
    "barons": "baron",
    "handmaids": "handmaid",
    "handmaiden": "handmaid",
    "handmaidens": "handmaid",
    "maid": "handmaid",
    "princes": "prince",
    "chancellors": "chancellor",
    "kings": "king",
    "countesses": "countess",
    "princesses": "princess",
}

_SEAT = re.compile(r"#(\d+)")


def notation_help() -> str:
    """Return a few lines explaining how to write any move."""
    return "\n".join(
        [
            "Write the card you play, then the player it chooses, then (Guard only) the card you name:",
            "  guard bob priest | priest carol | baron bob | king bob | prince bob | prince self",
            "  handmaid | countess | princess | spy | chancellor  (cards that choose nobody)",
            "A Guard, Priest, Baron or King with no player to choose is written alone: guard",
            "Players: their name, self or me, or #N for the N-th seat (#1 is the first).",
            "2019 Chancellor: keep baron bottom guard priest  (the last card listed goes lowest).",
        ]
    )


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def _card(word: str, edition: str) -> str:
    """Return the card type a word names, or raise ``BadNotation``."""
    card = CARD_WORDS.get(word.strip(".!"))
    if card is None:
        known = ", ".join(cards.card_types(edition))
        raise BadNotation(f"Unknown card {word!r}; the cards are: {known}")
    if card not in cards.VALUES[edition]:
        raise BadNotation(f"There is no {title(card)} in the {edition} edition")
    return card


def _player(text: str, state: dict[str, Any], seat: int) -> int:
    """Return the seat a player word names, or raise ``BadNotation``."""
    names = state["players"]
    if text in SELF_WORDS:
        return seat
    match = _SEAT.fullmatch(text)
    if match:
        number = int(match.group(1))
        if not 1 <= number <= len(names):
            raise BadNotation(f"There is no seat #{number}; seats go from #1 to #{len(names)}")
        return number - 1
    found = [index for index, name in enumerate(names) if _normal(name) == text]
    if len(found) == 1:
        return found[0]
    if found:
        raise BadNotation(f"Several players are called {text!r}: write #N for the N-th seat instead")
    raise BadNotation(f"No player called {text!r}; players: {', '.join(names)} (or self, or #N)")


def parse_move(text: str, state: dict[str, Any], seat: int) -> dict[str, Any]:
    """Read the text notation into a move (legality is checked by apply)."""
    if not isinstance(text, str):
        raise BadNotation("A move must be text such as 'guard bob priest'")
    edition = state["edition"]
    words = _normal(text.replace(",", " ")).split()
    if not words:
        raise BadNotation("Write a move, for example 'guard bob priest' or 'handmaid'")
    if words[0] == "keep":
        if len(words) < 2:
            raise BadNotation("Write which card to keep: 'keep baron bottom guard priest'")
        keep = _card(words[1], edition)
        rest = words[2:]
        if rest and rest[0] == "bottom":
            rest = rest[1:]
        elif rest:
            raise BadNotation("Write 'bottom' before the cards you put under the deck")
        return {"keep": keep, "bottom": [_card(word, edition) for word in rest]}
    card = _card(words[0], edition)
    rest = words[1:]
    if TARGETS[card] is None:
        if rest:
            raise BadNotation(f"The {title(card)} chooses nobody: write just '{card}'")
        return {"card": card}
    if not rest:
        return {"card": card}
    if card == "guard":
        if len(rest) < 2:
            raise BadNotation("Name a card after the player, for example 'guard bob priest'")
        return {"card": card, "target": _player(" ".join(rest[:-1]), state, seat), "guess": _card(rest[-1], edition)}
    return {"card": card, "target": _player(" ".join(rest), state, seat)}


def _player_text(state: dict[str, Any], target: int) -> str:
    """Return how to write ``target``: self for the mover, else the name, else #N."""
    if target == state.get("current"):
        return "self"
    names = [_normal(name) for name in state["players"]]
    name = names[target]
    plain = name and name not in SELF_WORDS and not name.startswith("#") and "," not in name and names.count(name) == 1
    return name if plain else f"#{target + 1}"


def describe_move(state: dict[str, Any], move: dict[str, Any]) -> str:
    """Return the text notation of ``move`` (it parses back to the same move)."""
    if "keep" in move:
        bottom = move.get("bottom") or []
        return " ".join(["keep", move["keep"], *(["bottom", *bottom] if bottom else [])])
    parts = [move["card"]]
    if move.get("target") is not None:
        parts.append(_player_text(state, move["target"]))
    if move.get("guess") is not None:
        parts.append(move["guess"])
    return " ".join(parts)
