"""Every word the Savernake Forest board shows, in the reader's language (``board_data``'s ``words``).

The board template (templates/games/savernake-forest/board.html) prints ``board.words`` and the texts
``board.py`` puts beside each card, forest and slot; its script (static/js/savernake-board.js) reads
``board.script_words`` from the page (a ``json_script`` block). Neither holds a word of its own.

Texts with markup (a number in ``<strong>``) are built by ``marked``: the message and every value are
escaped, then the markup is put in, so the template may print them as they are.
"""

from __future__ import annotations

from html import escape
from typing import Any

from games.i18n import catalog_of
from games.savernake_forest.words import food_kinds, per_language

_ = catalog_of(__name__)


def strong(value: Any) -> str:
    """Return ``value`` escaped, in bold."""
    return f"<strong>{escape(str(value))}</strong>"


def in_attribute(text: str) -> str:
    """Return ``text`` escaped for a double-quoted attribute, its apostrophes kept as they are ("alice's forest")."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def marked(message: str, **markup: str) -> str:
    """Return ``message`` escaped, with ``markup`` (already safe HTML) put in its placeholders."""
    return escape(message).format(**markup)


@per_language
def page_words() -> dict[str, Any]:
    """The template's fixed words (headings, buttons, labels, the key)."""
    kinds = food_kinds()
    return {
        "note_title": _("Reconstructed cards."),
        "note": _("The publisher's card lists could not be found: these 19 animals and 45 path cards are a "
                  "reconstruction from the rules, not the printed cards. They play by the same rules, but their "
                  "animals, values and foods may differ from the box's. Each card has a code: AN is an animal "
                  "card, ST a straight path, CU a curved path, DC a double curve (two curved paths on one card), "
                  "then its number (AN05 is the fifth animal card). After a path's name come the letters of its "
                  "foods (B berries, W worms, E eggs, N nuts; - for none), a double curve's two paths split by "
                  "|: “curve B B (CU10)” is curve number 10, with two berries."),
        "game_over": _("Game over"),
        "rooster_title": _("The rooster's holder plays first next round"),
        "settled_at_end": _("Shared paths are settled at the end"),
        "persistent_market": _("Persistent market (variant)"),
        "supply": _("Supply:"),
        "market": _("Market"),
        "taken": _("taken"),
        "best_title": _("The most this card adds to your score if the game ended after your move"),
        "you": _("(you)"),
        "holds_rooster": _("holds the rooster"),
        "holds_rooster_title": _("Holds the rooster: plays first next round"),
        "to_play": _("to play"),
        "left": _("left the game"),
        "shares_victory": _("shares the victory"),
        "wins": _("wins"),
        "final_points": _("Final points"),
        "points_now": _("Points if the game ended now"),
        "face_down": _("face down"),
        # Translators: a mark on a card that the move would turn face down, on two short lines.
        "flip": _("turns\nface down").split("\n"),
        "turn_left_label": _("Turn the card left"),
        "turn_right_label": _("Turn the card right"),
        "keep_legend": _("Shared path: keep one animal"),
        "keep_note": _("The others turn face down (and give back their drops and burrows)."),
        "confirm": _("Confirm move"),
        "start_over": _("Start over"),
        "final_score": _("Final score"),
        "score_now": _("If the game ended now"),
        "no_food": _("no food"),
        "shares_path": _("shares a path: scores nothing unless it is the one kept"),
        "total": _("Total"),
        "no_script": _("Choose your move with the buttons below; the numbers in the dens are each animal's points "
                       "if the game ended now."),
        "empty": _("empty"),
        "key": _("Key"),
        "discarded": _("Discarded:"),
        "foods": [{"food": food, "name": kinds[food]} for food in ("B", "W", "E", "N")],
        "key_drop": _("water drop: +1 per stored food of that kind"),
        "key_burrow": _("burrow: +1 storage"),
        "key_score": _("an animal's points if the game ended now: its base points plus its best foods on its path, "
                       "up to what it holds"),
        "key_latest": _("card placed last"),
    }


@per_language
def script_words() -> dict[str, Any]:
    """The words the board's script writes, with {placeholders} it fills in."""
    return {
        "best": _("best {change}"),
        "pick": _("Pick a card from the market: “best” is the most it can add to your score."),
        "place": _("Click a green cell in your forest to place the {card}; turn it with the buttons or the R key."),
        "here": _("Click this cell to place the card here."),
        "keep": _("This card joins animals on one path: choose the one to keep."),
        "drop": _("Choose where the goat's water drop goes: click a food corner of one of your animals, or a button."),
        "burrow": _("Choose which animal gets the armadillo's burrow: click its den, or a button."),
        "check": _("Check the move, then confirm it."),
        "sending": _("Sending your move…"),
        "move": _("Move: {move}"),
        "after_move": _("If the game ended after this move: {change}"),
        "card_here": _("If the game ended now, with this card here: {change}"),
        "path_card": _("path card {card}"),
        "flip": page_words()["flip"],
        "face_down": page_words()["face_down"],
        "new_animal": _("{animal} (new)"),
        "stores": _("stores {foods}"),
        "no_food": page_words()["no_food"],
        "points": _("{points} pts"),
        "keep_one_of": _("Keep one of {animals}"),
        "keep_the": _("Keep the {animal}"),
        "total_change": _("(total {total}, {change})"),
        "drop_legend": _("The goat's water drop: on which food of which animal?"),
        "burrow_legend": _("The armadillo's burrow: for which animal?"),
    }
