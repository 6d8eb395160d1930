"""Every word the Love Letter board shows, in the reader's language (the engine contract's ``board_data``).

The board template (``turnbased/web/templates/games/love-letter/board.html``) holds markup only:
it prints what this module words from the view, and its script (``static/js/love-letter-board.js``)
reads its sentences from ``script`` (a ``json_script`` block), filling in ``{placeholders}`` with
the names of cards and players. ``board_data`` runs on every page view and in the replay (with no
moves): the words that never change are built once per language (``words.per_language``).
"""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of
from games.love_letter import cards
from games.love_letter.legality import OVER
from games.love_letter.notation import card_word
from games.love_letter.player_view import private_lines, revealed_lines
from games.love_letter.round_summary import prompt, round_end
from games.love_letter.words import (
    card_effects,
    card_names,
    card_objects,
    card_subjects,
    edition_names,
    name,
    object_,
    per_language,
)

_ = catalog_of(__name__)


@per_language
def _fixed_words() -> dict[str, str]:
    """Return the board's words that depend on nothing but the language."""
    return {
        "removed_heading": _("Removed face up this round"),
        "your_hand": _("Your hand"),
        "no_cards_out": _("No cards: you are out of this round."),
        "named_card": _("The card you name"),
        "confirm": _("Confirm"),
        "cancel": _("Cancel"),
        "players": _("Players"),
        "you": _("(you)"),
        "protected": _.pgettext("a player's status", "protected"),
        "left": _.pgettext("a player's status", "left the game"),
        "out": _.pgettext("a player's status", "out"),
        "to_play": _.pgettext("a player's status", "to play"),
        "no_discards": _("no discards"),
        "choose_yourself": _("Choose yourself"),
        "everything_hidden": _("Everything hidden at this moment"),
        "revealed_heading": _("Revealed after the game"),
        "set_aside_heading": _("Set-aside card"),
        "taken_by_prince": _("taken by a Prince"),
        "deck_heading": _("The deck, top first"),
        "empty": _("empty"),
        "no_cards": _("no cards"),
        "was_private": _("What was private this round"),
        "tracker_heading": _("Card tracker"),
        "tracker_anywhere": _("A card still unseen could be anywhere among them; what you saw of another hand is in "
                              "your private log below."),
        "card": _.pgettext("tracker column", "Card"),
        "value": _.pgettext("tracker column", "Value"),
        "copies": _.pgettext("tracker column", "Copies"),
        "unseen": _.pgettext("tracker column", "Unseen"),
        "only_you_know": _("What only you know this round"),
        "play_by_text": _("Play by text"),
        # Notes on a small card: where it lies, and how it got there.
        "note_removed": _.pgettext("a card's note", "removed face up"),
        "note_last": _.pgettext("a card's note", "played last"),
        "note_discarded": _.pgettext("a card's note", "discarded by a Prince"),
        "note_knocked_out": _.pgettext("a card's note", "revealed when knocked out"),
        "note_in_hand": _.pgettext("a card's note", "in hand"),
        "note_set_aside": _.pgettext("a card's note", "set aside"),
        "note_in_deck": _.pgettext("a card's note", "in the deck"),
        "note_showdown": _.pgettext("a card's note", "held at the showdown"),
    }


@per_language
def _script_words() -> dict[str, Any]:
    """Return the sentences the board's script writes, with ``{placeholders}`` it fills in."""
    return {
        "cards": {card: {"name": card_names()[card], "subject": card_subjects()[card], "object": card_objects()[card]}
                  for card in cards.ALL_CARDS},
        "princess_word": card_word("princess"),
        "countess_forced": _("You must play the Countess: she is in your hand with the King or a Prince."),
        "player_n": _("player {number}"),
        # Translators: {card} is the card with its article, as the object.
        "cannot_play": _("You cannot play {card} now."),
        "keep_then_bottom": _("You keep {card}. Now click the card to put at the very bottom of the deck."),
        # Translators: {name} is the card's name alone.
        "choose_player": _("Choose the player for your {name}."),
        "name_a_card": _("Name a card: if {player} holds it, {player} is out of the round."),
        "confirm_move": _("Confirm your move?"),
        "sending": _("Sending your move…"),
        "princess_question": _("Playing the Princess knocks you out of the round. Play her?"),
        # What a move will do, said before it is confirmed: {card}, {keep}, {first}, {last}, {guess} are cards with
        # their article as objects, {lowest} as the subject; {name}, {mine}, {other} are card names alone.
        "keep_only": _("You keep {keep}."),
        "keep_one_bottom": _("You keep {keep} and put {first} on the bottom of the deck."),
        "keep_two_bottom": _("You keep {keep} and put {first} and then {last} on the bottom of the deck ({lowest} "
                             "lowest)."),
        "no_target": _("You play {card}: every other player is protected or out, so it has no effect."),
        "guard": _("You play the Guard on {player} and name {guess}: if {player} holds {guess}, {player} is out of "
                   "the round."),
        "priest": _("You play the Priest on {player} and see {player}'s card."),
        "baron": _("You play the Baron on {player}: your {mine} against {player}'s card; the lower value is out of "
                   "the round, and a tie does nothing."),
        "handmaid": _("You play the Handmaid: until your next turn, other players' cards cannot choose you."),
        "prince_self_princess": _("You play the Prince on yourself: you discard the Princess and are out of the "
                                  "round."),
        "prince_self": _("You play the Prince on yourself: you discard your {other} and draw a new card."),
        "prince": _("You play the Prince on {player}: {player} discards their card and draws a new one (discarding "
                    "the Princess puts {player} out of the round)."),
        "king": _("You play the King on {player}: you give {player} your {other} and take {player}'s card."),
        "countess": _("You play the Countess: she has no effect."),
        "princess": _("You play the Princess: you are out of the round."),
        "spy": _("You play the Spy: no effect now; it may win you a token at the end of the round."),
        "chancellor": _("You play the Chancellor: you draw up to two cards, then keep one card and put the others "
                        "on the bottom of the deck."),
        "other": _("You play {card}."),
    }


def board_data(view: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the board's words for ``view``: fixed words, the cards, each seat's lines and the script's sentences."""
    edition = view["edition"]
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    effects = card_effects()
    data: dict[str, Any] = {
        "words": _fixed_words(),
        "cards": {row["card"]: {"name": name(row["card"]), "value": row["value"], "effect": effects[row["card"]]}
                  for row in view["tracker"]["cards"]},
        "status": _status(view, edition),
        "last_play": _last_play(view),
        "seats": [_seat(view, seat) for seat in view["seats"]],
        "private_log": [_("Turn {turn}: {text}").format(**line) for line in private_lines(view)],
        "tracker": _tracker(view, names),
        "prompt": prompt(view, moves),
        "round_end": round_end(view),
        "revealed": None,
        "script": _script_words(),
    }
    if view.get("revealed"):
        data["revealed"] = {
            "hands": [{"heading": _("{player}'s hand").format(player=hand["name"]), "cards": hand["cards"]}
                      for hand in view["revealed"]["hands"]],
            "private_log": [_("Turn {turn}: {text}").format(**line) for line in revealed_lines(view)],
        }
    return data


def _status(view: dict[str, Any], edition: str) -> str:
    """Return the line above the board: edition, round, turn, deck, set-aside card and target; once the game is over,
    the edition, the rounds played and the target (the deck and the set-aside card of its last round no longer count,
    and are shown in the round's summary)."""
    if view["phase"] == OVER:
        return " · ".join([
            edition_names()[edition],
            _.ngettext("{count} round played", "{count} rounds played", view["round"]).format(count=view["round"]),
            _.ngettext("{count} token to win", "{count} tokens to win", view["target"]).format(count=view["target"]),
        ])
    deck = view["deck_count"]
    parts = [
        edition_names()[edition],
        _("Round {round}").format(round=view["round"]),
        _("Turn {turn}").format(turn=view["turn"]),
        _.ngettext("{count} card in the deck", "{count} cards in the deck", deck).format(count=deck),
        _("set-aside card still set aside") if view["set_aside_present"] else _("set-aside card taken"),
        _.ngettext("{count} token to win", "{count} tokens to win", view["target"]).format(count=view["target"]),
    ]
    return " · ".join(parts)


def _last_play(view: dict[str, Any]) -> str | None:
    """Return the line naming the card played last this round, or None."""
    last = view.get("last_play")
    if not last:
        return None
    seat = next(seat for seat in view["seats"] if seat["seat"] == last["seat"])
    card = object_(seat["discards"][last["discard"]]["card"])
    if seat["seat"] == view["you"]:
        return _("Last play: you played {card}.").format(card=card)
    return _("Last play: {player} played {card}.").format(player=seat["name"], card=card)


def _seat(view: dict[str, Any], seat: dict[str, Any]) -> dict[str, Any]:
    """Return one player's box: their view and its words."""
    mine = seat["seat"] == view["you"]
    return {
        "view": seat,
        "tokens": _.ngettext("{count} token", "{count} tokens", seat["tokens"]).format(count=seat["tokens"]),
        "hand": _.ngettext("{count} card in hand · discards total {total}",
                           "{count} cards in hand · discards total {total}", seat["hand_count"]).format(
            count=seat["hand_count"], total=seat["discard_total"]),
        "discards_label": _("{player}'s discards, oldest first").format(player=seat["name"]),
        "choose": _("Choose yourself") if mine else _("Choose {player}").format(player=seat["name"]),
    }


def _tracker(view: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """Return the tracker's explanation and its column of each opponent's odds."""
    face_up, hand = bool(view["face_up_removed"]), view["hand"] is not None
    if face_up and hand:
        counted = _("Counted from the discards, the cards removed face up and your hand.")
    elif face_up:
        counted = _("Counted from the discards and the cards removed face up.")
    elif hand:
        counted = _("Counted from the discards and your hand.")
    else:
        counted = _("Counted from the discards.")
    count = view["tracker"]["unknown_cards"]
    if view["set_aside_present"]:
        unknown = _.ngettext("{count} card is unknown to you: in the deck, in the other hands or set aside.",
                             "{count} cards are unknown to you: in the deck, in the other hands or set aside.", count)
    else:
        unknown = _.ngettext("{count} card is unknown to you: in the deck or in the other hands.",
                             "{count} cards are unknown to you: in the deck or in the other hands.", count)
    return {
        "counted": counted,
        "unknown": unknown.format(count=count),
        "holds": [_("{player} holds it").format(player=names[opponent["seat"]])
                  for opponent in view["tracker"]["opponents"]],
    }
