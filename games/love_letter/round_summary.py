"""The board's words for the start of a turn and the end of a round, in the reader's language (``board_data``).

``prompt`` is the instruction line above the cards: what the viewer does now (or whom the table waits
for). ``round_end`` tells how the round just ended from the view's ``last_round`` alone: the hands
compared at a showdown, who scored and why (the highest card, the classic tie-break on the discards,
a tie, the last player standing, the 2019 Spy bonus) and the set-aside card. All of it is public once
the round is over (the rules file, §7.2 "showdown" and "round end", §7.3), so every viewer reads the
same facts; only "you" differs.
"""

from __future__ import annotations

from typing import Any

from games.i18n import catalog_of
from games.love_letter import cards
from games.love_letter.legality import CHANCELLOR, OVER
from games.love_letter.words import joined, object_, subject

_ = catalog_of(__name__)


def prompt(view: dict[str, Any], moves: list[dict[str, Any]]) -> str:
    """Return the instruction line: what the viewer is to do now, or what the table waits for."""
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    you, current = view["you"], view["current"]
    if view["phase"] == OVER:
        if not view["winners"]:
            return _("The game is over.")
        winner = view["winners"][0]
        count = view["seats"][winner]["tokens"]
        if winner == you:
            return _.ngettext("The game is over: you win with {count} token.",
                              "The game is over: you win with {count} tokens.", count).format(count=count)
        return _.ngettext("The game is over: {player} wins with {count} token.",
                          "The game is over: {player} wins with {count} tokens.", count).format(
            player=names[winner], count=count)
    if moves and current == you:
        if view["phase"] == CHANCELLOR:
            return _("Your Chancellor: choose the card to keep, then the card to put at the very bottom of the deck.")
        if all(entry["move"].get("card") == "countess" for entry in moves):
            return _("Your turn: you must play the Countess, as she is in your hand with the King or a Prince.")
        return _("Your turn: choose which of your two cards to play. The card says what it will do.")
    if current is None:
        return ""
    waiting = names[current]
    if view["phase"] == CHANCELLOR:
        text = _("{player} is choosing which card to keep and which to put under the deck (Chancellor).")
    else:
        text = _("{player} is choosing a card to play.")
    text = text.format(player=waiting)
    if you is not None and not view["seats"][you]["in_round"] and not view["seats"][you]["left"]:
        return _("You are out of this round and come back in the next one. {waiting}").format(waiting=text)
    return text


def round_end(view: dict[str, Any]) -> dict[str, Any] | None:
    """Return the summary of the round that ended last (``view["last_round"]``), or None before any ended.

    ``heading``: one line (the round and who won it); ``hands``: the cards compared at a showdown, each
    ``{seat, name, card, total}`` with the words for its discards' total; ``why``: how the winners were
    found; ``scored``: who got a token and why; ``set_aside``: the set-aside card (None: a Prince took it)
    and ``set_aside_line``; ``tokens``: everyone's tokens now; ``fresh``: the round ended just now (no card
    played since, or the game is over), so the board shows the summary open.
    """
    last = view.get("last_round")
    if not last:
        return None
    names = {seat["seat"]: seat["name"] for seat in view["seats"]}
    winners = last["winners"]
    values = {"round": last["round"], "players": joined([names[seat] for seat in winners]),
              "player": names[winners[0]] if winners else ""}
    if last["reason"] == "last_standing":
        heading = _("Round {round} is over: {player} was the last player standing.")
    elif winners:
        heading = _.ngettext("Round {round} is over: {players} won the showdown.",
                             "Round {round} is over: {players} won the showdown.", len(winners))
    else:
        heading = _("Round {round} is over: nobody won the showdown.")
    showdown = last.get("showdown")
    hands = []
    if showdown:
        totals = {entry["seat"]: entry["total"] for entry in showdown["discard_totals"]}
        hands = [{"seat": hand["seat"], "name": names[hand["seat"]], "card": hand["card"],
                  "total": _("discards total {total}").format(total=totals[hand["seat"]])}
                 for hand in showdown["hands"]]
    set_aside = last.get("set_aside")
    return {
        "heading": heading.format(**values),
        "hands": hands,
        "hands_heading": _("The hands compared at the showdown"),
        "why": _why(view, last, names),
        "scored": _scored(last, names),
        "set_aside": set_aside,
        "set_aside_line": (_("The set-aside card was {card}.").format(card=subject(set_aside)) if set_aside
                           else _("The set-aside card was taken by a Prince.")),
        "tokens": (_("Final tokens: {tokens}.") if view["phase"] == OVER else _("Tokens now: {tokens}.")).format(
            tokens=", ".join(f"{names[seat]} {count}" for seat, count in enumerate(last["tokens"]))),
        "fresh": view["phase"] == OVER or not any(seat["discards"] for seat in view["seats"]),
    }


def _why(view: dict[str, Any], last: dict[str, Any], names: dict[int, str]) -> str:
    """Return how the round's winners were found: the last one in, the highest card, or a tie and its break."""
    winners = last["winners"]
    if last["reason"] == "last_standing":
        return _("Everyone else was knocked out, so {player} won without comparing hands.").format(
            player=names[winners[0]])
    showdown = last["showdown"]
    edition = view["edition"]
    held = {hand["seat"]: hand["card"] for hand in showdown["hands"]}
    best = max(cards.value(edition, card) for card in held.values())
    top = [seat for seat, card in held.items() if cards.value(edition, card) == best]
    if len(top) == 1:
        return _("{player} held the highest card, {card} ({value}).").format(
            player=names[top[0]], card=object_(held[top[0]]), value=best)
    tied = {"players": joined([names[seat] for seat in top]), "value": best}
    if edition != cards.CLASSIC:
        return _("{players} held cards of the same value ({value}), and a tie lets each of them win.").format(**tied)
    totals = {entry["seat"]: entry["total"] for entry in showdown["discard_totals"]}
    if len(winners) == 1:
        return _("{players} held cards of the same value ({value}); {player} had the higher total of discards "
                 "({total}) and won.").format(**tied, player=names[winners[0]], total=totals[winners[0]])
    still = {**tied, "total": totals[top[0]]}
    if winners:
        return _("{players} held cards of the same value ({value}) and had the same total of discards ({total}), "
                 "so each of them won.").format(**still)
    return _("{players} held cards of the same value ({value}) and had the same total of discards ({total}); "
             "by this table's rule nobody wins such a tie.").format(**still)


def _scored(last: dict[str, Any], names: dict[int, str]) -> list[str]:
    """Return who got a token this round and why: the round's winners, then the 2019 Spy bonus."""
    lines = [_("{player} scores a token for winning the round.").format(player=names[seat]) for seat in last["winners"]]
    if not last["winners"]:
        lines.append(_("Nobody scores a token for the round."))
    bonus = last.get("spy_bonus")
    if bonus is not None:
        lines.append(_("{player} scores a token more with the Spy: the only player still in the round who played "
                       "or discarded one.").format(player=names[bonus]))
    return lines
