"""The history of a Savernake Forest game in the reader's language: ``describe_event`` and ``describe_result``.

Every event is public (rules file §12), so each line is worded for the viewer only to say "you" to the
player it concerns. Each line is one message per case (you / another player, turned or not, at final
scoring or not), so a translator words it whole; names of cards come from ``words.py``. English keeps
the present tense of the records' lines, byte for byte; Hungarian and German tell the past.

The result's English line (``result()["summary"]``, stored in the record) is ``describe_result`` in
English: the engine words it with ``in_english`` when the game ends.
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.i18n import catalog_of
from games.savernake_forest.cards import ROUNDS, SLOTS
from games.savernake_forest.words import (and_list, animal_object, animal_phrase, animal_receiving, card_taken,
                                          card_title, food_kinds, slot_names, slots_from)

_ = catalog_of(__name__)


def describe_event(event: Event, players: list[str], viewer: int | None) -> str:
    """Return one line describing ``event`` as ``viewer`` should read it, in the reader's language."""
    d = event.data
    kind = event.kind
    wording = _WORDINGS.get(kind)
    if wording is None:
        return kind.replace("_", " ").capitalize() + "."
    return wording(d, players, viewer)


def _player_left(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    if d["seat"] == viewer:
        return _("You left the game in round {round} and take no more turns.").format(round=d["round"])
    return _("{player} left the game in round {round} and takes no more turns.").format(
        player=players[d["seat"]], round=d["round"])


def _card_taken(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    # The card is the object of "takes" (German "die Kurve …", Hungarian "az íves … kártyát"): English, the title.
    values = {"player": players[d["seat"]], "card": card_taken(d["card"]), "slot": slots_from()[d["slot"]],
              "x": d["x"], "y": d["y"], "degrees": d["rot"] * 90}
    if d["seat"] == viewer:
        if d["rot"]:
            return _("You take the {card} from the {slot} and place it at {x},{y}, turned {degrees}°.").format(
                **values)
        return _("You take the {card} from the {slot} and place it at {x},{y}.").format(**values)
    if d["rot"]:
        return _("{player} takes the {card} from the {slot} and places it at {x},{y}, turned {degrees}°.").format(
            **values)
    return _("{player} takes the {card} from the {slot} and places it at {x},{y}.").format(**values)


def _animal_turned_down(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    # At final scoring the animals are the subjects ("the Weasel is turned face down, the Hedgehog scores"); at
    # once the mover turns one and keeps the other, so both are objects (German "den Igel", Hungarian "a sünt").
    named = animal_phrase if d["final"] else animal_object
    values = {"player": players[d["seat"]], "animal": named(d["card"]), "survivor": named(d["survivor"])}
    mine = d["seat"] == viewer
    if d["final"]:
        if mine:
            sentence = _("At final scoring, your {animal} shares a path with the {survivor} and is turned face down")
        else:
            sentence = _("At final scoring, {player}'s {animal} shares a path with the {survivor} and is turned face "
                         "down")
    elif mine:
        sentence = _("Your {animal} shares a path with the {survivor} and is turned face down")
    else:
        # The English line starts with the name, so it is capitalised there (as the record's lines have it).
        values["player"] = values["player"][:1].upper() + values["player"][1:]
        sentence = _("{player}'s {animal} shares a path with the {survivor} and is turned face down")
    sentence = sentence.format(**values)
    tokens = []
    if d["drops"]:
        tokens.append(_.ngettext("{count} drop", "{count} drops", d["drops"]).format(count=d["drops"]))
    if d["burrows"]:
        tokens.append(_.ngettext("{count} burrow", "{count} burrows", d["burrows"]).format(count=d["burrows"]))
    if not tokens:
        return _("{sentence}.").format(sentence=sentence)
    # Counted, so the verb agrees with the tokens in languages whose verb does (German "ging"/"gingen").
    count = d["drops"] + d["burrows"]
    if d["final"]:
        return _.ngettext("{sentence}; {tokens} lost.", "{sentence}; {tokens} lost.", count).format(
            sentence=sentence, tokens=and_list(tokens))
    return _.ngettext("{sentence}; {tokens} back to the supply.", "{sentence}; {tokens} back to the supply.",
                      count).format(sentence=sentence, tokens=and_list(tokens))


def _water_drop_placed(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    values = {"player": players[d["seat"]], "animal": animal_receiving(d["animal"]), "food": food_kinds()[d["food"]]}
    if d["seat"] == viewer:
        return _("You put a water drop on the {food} corner of your {animal}.").format(**values)
    return _("{player} puts a water drop on the {food} corner of {player}'s {animal}.").format(**values)


def _water_drop_unplaced(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    if d["seat"] == viewer:
        return _("Every corner of your animals holds a drop: the goat's drop stays in the supply.")
    return _("Every corner of {player}'s animals holds a drop: the goat's drop stays in the supply.").format(
        player=players[d["seat"]])


def _burrow_placed(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    if d["seat"] == viewer:
        return _("You give your {animal} a burrow.").format(animal=animal_receiving(d["animal"]))
    return _("{player} gives {player}'s {animal} a burrow.").format(
        player=players[d["seat"]], animal=animal_receiving(d["animal"]))


def _rooster_taken(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    kept = d["previous"] == d["seat"]
    if d["seat"] == viewer:
        if kept:
            return _("You will go first next round (and keep the rooster).")
        return _("You will go first next round.")
    if kept:
        return _("{player} will go first next round (and keeps the rooster).").format(player=players[d["seat"]])
    return _("{player} will go first next round.").format(player=players[d["seat"]])


def _market_discarded(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    # Counted: one card left over is worded as one ("the card left in the market was discarded").
    return _.ngettext("Left in the market and discarded: {cards}.", "Left in the market and discarded: {cards}.",
                      len(d["cards"])).format(cards=", ".join(card_title(card) for card in d["cards"]))


def _market_dealt(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    names = slot_names()
    row = "; ".join(_("{slot}: {card}").format(slot=names[slot], card=card_title(d["market"][slot]))
                    for slot in SLOTS if d["market"][slot])
    return _("Market for round {round}: {row}.").format(round=d["round"], row=row)


def _round_started(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    if d["first"] == viewer:
        return _("Round {round} of {total}: You go first.").format(round=d["round"], total=ROUNDS)
    return _("Round {round} of {total}: {player} goes first.").format(
        round=d["round"], total=ROUNDS, player=players[d["first"]])


def _game_scored(d: dict[str, Any], players: list[str], viewer: int | None) -> str:
    scores = ", ".join(_("{player} {points}").format(player=players[s], points=d["scores"][s]) for s in d["ranking"])
    winners = d["winners"]
    if len(winners) > 1:
        # Translators: the reader in the list of those who share the victory ("Alice and You share the victory").
        you = _.pgettext("the reader among the winners", "You")
        names = and_list([you if seat == viewer else players[seat] for seat in winners])
        if viewer in winners:
            line = _.pgettext("the reader is one of the winners", "Final scores: {scores}. {names} share the victory.")
            return line.format(scores=scores, names=names)
        return _("Final scores: {scores}. {names} share the victory.").format(scores=scores, names=names)
    if winners[0] == viewer:
        return _("Final scores: {scores}. You win.").format(scores=scores)
    return _("Final scores: {scores}. {player} wins.").format(scores=scores, player=players[winners[0]])


_WORDINGS = {
    "player_left": _player_left,
    "card_taken": _card_taken,
    "animal_turned_down": _animal_turned_down,
    "water_drop_placed": _water_drop_placed,
    "water_drop_unplaced": _water_drop_unplaced,
    "burrow_placed": _burrow_placed,
    "rooster_taken": _rooster_taken,
    "market_discarded": _market_discarded,
    "market_dealt": _market_dealt,
    "round_started": _round_started,
    "game_scored": _game_scored,
}


def describe_result(result: dict[str, Any], players: list[str]) -> str:
    """Return the result's one line in the reader's language: who won, with how many points, and how.

    ``result`` is the stored result (``winners``, ``scores``, ``stored``, ``ranking``, ``resigned``).
    In English this is the record's ``summary``, word for word.
    """
    scores, stored, winners = result["scores"], result["stored"], result["winners"]
    left = set(result.get("resigned", []))
    others = []
    for seat in result["ranking"]:
        if seat in winners:
            continue
        if seat in left:
            others.append(_("{player} {points}, resigned").format(player=players[seat], points=scores[seat]))
        else:
            others.append(_("{player} {points}").format(player=players[seat], points=scores[seat]))
    rest = _(" ({others})").format(others=", ".join(others)) if others else ""
    head = winners[0]
    # English says "points" even for one: the record's summary keeps today's words; other languages count.
    # Shared winners with different stored food tied on points alone (equal totals share the win, §11): the line
    # names no stored food then. Equal stored food is named, as every game of the stored-food tie-break did.
    if len(winners) > 1 and len({stored[seat] for seat in winners}) > 1:
        return _.ngettext("{names} share the victory with {points} points each{rest}",
                          "{names} share the victory with {points} points each{rest}",
                          scores[head]).format(names=and_list([players[seat] for seat in winners]),
                                               points=scores[head], rest=rest)
    if len(winners) > 1:
        return _.ngettext("{names} share the victory with {points} points and {stored} stored food each{rest}",
                          "{names} share the victory with {points} points and {stored} stored food each{rest}",
                          scores[head]).format(names=and_list([players[seat] for seat in winners]),
                                               points=scores[head], stored=stored[head], rest=rest)
    values = {"player": players[head], "points": scores[head], "rest": rest}
    if len(players) - len(left) == 1 and len(players) > 1:
        return _.ngettext("{player} wins with {points} points: everyone else resigned{rest}",
                          "{player} wins with {points} points: everyone else resigned{rest}",
                          scores[head]).format(**values)
    runner = next((seat for seat in result["ranking"] if seat != head and seat not in left), None)
    if runner is not None and scores[runner] == scores[head]:
        return _.ngettext("{player} wins with {points} points, on stored food ({stored}–{other}){rest}",
                          "{player} wins with {points} points, on stored food ({stored}–{other}){rest}",
                          scores[head]).format(stored=stored[head], other=stored[runner], **values)
    return _.ngettext("{player} wins with {points} points{rest}", "{player} wins with {points} points{rest}",
                      scores[head]).format(**values)
