"""Who may be chosen and which moves are legal in Love Letter (the rules file, §5), with the reasons for a refusal.

``legal_moves`` lists every legal move; ``check_play`` and ``check_chancellor`` accept a move or
raise ``IllegalMove`` with the reason in the reader's language. The phases are those of the §3.3
state machine that ``rounds.py`` runs.
"""

from __future__ import annotations

from collections import Counter
from itertools import permutations
from typing import Any

from games.base import IllegalMove, State
from games.i18n import catalog_of
from games.love_letter import cards
from games.love_letter.cards import TARGETS, value
from games.love_letter.words import name, name_list, object_, subject, upper_first

_ = catalog_of(__name__)

PLAY = "await_play"  # AWAIT_PLAY: the current player holds 2 cards and must play one
CHANCELLOR = "await_chancellor"  # AWAIT_CHANCELLOR: the 2019 Chancellor's actor keeps one card
OVER = "over"


def alive(state: State) -> list[int]:
    """Return the seats still in the round."""
    return [seat for seat, inside in enumerate(state["in_round"]) if inside]


def open_opponents(state: State, seat: int) -> list[int]:
    """Return the opponents ``seat`` may choose: in the round and not protected."""
    return [other for other in alive(state) if other != seat and not state["protected"][other]]


def legal_targets(state: State, seat: int, card: str) -> list[int]:
    """Return the seats ``card`` may choose when played by ``seat`` (empty: no target)."""
    kind = TARGETS[card]
    if kind == "other":
        return open_opponents(state, seat)
    if kind == "any":
        return sorted([seat, *open_opponents(state, seat)])
    return []


def countess_forced(hand: list[str]) -> bool:
    """Tell whether the hand must play the Countess (ruling 9; only with 2 cards, ruling 11)."""
    return len(hand) == 2 and "countess" in hand and any(card in cards.FORCES_COUNTESS for card in hand)


def legal_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every legal move for ``seat`` now."""
    if state["phase"] == OVER or seat != state["current"]:
        return []
    hand = state["hands"][seat]
    if state["phase"] == CHANCELLOR:
        moves = []
        for keep in sorted(set(hand), key=hand.index):
            rest = list(hand)
            rest.remove(keep)
            for order in dict.fromkeys(permutations(rest)):
                moves.append({"keep": keep, "bottom": list(order)})
        return moves
    moves = []
    playable = ["countess"] if countess_forced(hand) else sorted(set(hand), key=lambda c: value(state["edition"], c))
    for card in playable:
        targets = legal_targets(state, seat, card)
        if not targets:
            moves.append({"card": card})
        elif card == "guard":
            moves.extend(
                {"card": card, "target": target, "guess": guess}
                for target in targets
                for guess in cards.guessable(state["edition"])
            )
        else:
            moves.extend({"card": card, "target": target} for target in targets)
    return moves


def check_card_name(state: State, card: Any, field: str) -> str:
    """Return ``card`` if it names a card of this edition, else raise ``IllegalMove``.

    ``field`` says where the name stood in the move: ``card``, ``guess``, ``keep`` or ``bottom``.
    """
    if not isinstance(card, str):
        raise IllegalMove({
            "card": _('card must be a card name such as "guard"'),
            "guess": _('guess must be a card name such as "guard"'),
            "keep": _('keep must be a card name such as "guard"'),
        }.get(field) or _('each bottom card must be a card name such as "guard"'))
    if card not in cards.ALL_CARDS:
        raise IllegalMove(_("Unknown card {card}").format(card=repr(card)))
    if card not in cards.VALUES[state["edition"]]:
        # Translators: {card} is the card's name alone. Every card of the classic edition is in the 2019 one.
        raise IllegalMove(_("There is no {card} in the classic edition").format(card=name(card)))
    return card


def check_play(state: State, seat: int, move: dict[str, Any]) -> tuple[str, int | None, str | None]:
    """Return (card, target, guess) of a legal play or raise ``IllegalMove`` (§5)."""
    if state["phase"] == CHANCELLOR:
        raise IllegalMove(_("Finish the Chancellor first: keep one card and put the others on the bottom"))
    extra = sorted(str(key) for key in move if key not in ("card", "target", "guess"))
    if extra:
        raise IllegalMove(_.ngettext("Unexpected field in a play: {fields}", "Unexpected fields in a play: {fields}",
                                     len(extra)).format(fields=", ".join(extra)))
    if "card" not in move:
        raise IllegalMove(_("Say which card to play"))
    card = check_card_name(state, move["card"], "card")
    target, guess = move.get("target"), move.get("guess")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int)):
        raise IllegalMove(_("target must be a seat number"))
    if guess is not None:
        guess = check_card_name(state, guess, "guess")
    hand = state["hands"][seat]
    if card not in hand:
        raise IllegalMove(_("You do not hold {card}").format(card=object_(card)))
    if countess_forced(hand) and card != "countess":
        other = next(c for c in hand if c in cards.FORCES_COUNTESS)
        raise IllegalMove(_("You must play the Countess while you hold {card}").format(card=object_(other)))
    kind = TARGETS[card]
    if kind is None:
        if target is not None:
            # Translators: {card} is the card with its article, as the subject.
            raise IllegalMove(upper_first(_("{card} does not choose a player").format(card=subject(card))))
    else:
        targets = legal_targets(state, seat, card)
        if not targets:
            if target is not None:
                raise IllegalMove(_("Every other player is protected or out: play {card} without a target").format(
                    card=object_(card)))
        elif target is None:
            raise IllegalMove(_("Choose a player for {card}").format(card=object_(card)))
        elif target not in targets:
            raise IllegalMove(_why_not_target(state, seat, card, target))
    if card == "guard" and target is not None:
        if guess is None:
            raise IllegalMove(_("Name a card for the Guard"))
        if guess == "guard":
            raise IllegalMove(_("The Guard cannot name the Guard"))
    elif guess is not None:
        raise IllegalMove(_("Only a Guard with a target names a card"))
    return card, target, guess


def _why_not_target(state: State, seat: int, card: str, target: int) -> str:
    """Explain why ``target`` cannot be chosen."""
    if not 0 <= target < len(state["players"]):
        return _("There is no seat {seat}").format(seat=target)
    if target == seat:
        # Translators: {card} is the card with its article, as the subject.
        return upper_first(_("{card} cannot choose yourself").format(card=subject(card)))
    if not state["in_round"][target]:
        return _("{player} is out of this round").format(player=state["players"][target])
    return _("{player} is protected by the Handmaid").format(player=state["players"][target])


def check_chancellor(state: State, seat: int, move: dict[str, Any]) -> tuple[str, list[str]]:
    """Return (keep, bottom) of a legal Chancellor resolution or raise ``IllegalMove``."""
    if state["phase"] != CHANCELLOR:
        raise IllegalMove(_("There is no Chancellor to resolve: play a card"))
    if set(move) != {"keep", "bottom"}:
        raise IllegalMove(_("A Chancellor resolution has exactly the fields keep and bottom"))
    keep = check_card_name(state, move["keep"], "keep")
    bottom = move["bottom"]
    if not isinstance(bottom, list):
        raise IllegalMove(_("bottom must be a list of card names"))
    bottom = [check_card_name(state, card, "bottom") for card in bottom]
    hand = state["hands"][seat]
    if keep not in hand:
        raise IllegalMove(_("You do not hold {card}").format(card=object_(keep)))
    if Counter([keep, *bottom]) != Counter(hand):
        rest = list(hand)
        rest.remove(keep)
        # Translators: {cards} are card names alone, separated by commas.
        raise IllegalMove(_("bottom must list exactly your other cards, each once: {cards}").format(
            cards=name_list(sorted(rest))))
    return keep, bottom

