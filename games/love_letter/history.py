"""The history of a Love Letter game in the reader's language: one line per event, worded for its viewer.

Each line is one whole message, one for each way the viewer takes part (the one who acts, the one
acted on, or neither), because German and Hungarian conjugate for "you" where English mostly does
not: "Du hast ... ausgespielt" / "Kijátszottad ...". Player names are never inflected (Hungarian
would need a suffix that depends on the name's vowels), so the translations put them where a name
stands as it is: as the subject, before a postposition ("Ben ellen") or as a possessor ("Ben
lapja"). A ``{card}`` is the card with its article as the object unless a comment says otherwise.
"""

from __future__ import annotations

from typing import Any

from games.base import Event
from games.i18n import catalog_of
from games.love_letter.words import joined, name, name_list, object_, you_in_a_list

_ = catalog_of(__name__)


def describe_event(event: Event, players: list[str], viewer: int | None) -> str:
    """Return one line describing ``event`` as ``viewer`` (None: a spectator) should read it."""
    wording = _WORDING.get(event.kind)
    if wording is None:
        if event.kind.endswith("_played"):
            wording = _played
        else:
            return event.kind.replace("_", " ").capitalize() + "."
    return wording(event.data, _Names(players, viewer))


class _Names:
    """The players' names as one viewer reads them: who is "you"."""

    def __init__(self, players: list[str], viewer: int | None):
        self.players = players
        self.viewer = viewer

    def __getitem__(self, seat: int) -> str:
        return self.players[seat]

    def me(self, seat: int | None) -> bool:
        return seat is not None and seat == self.viewer

    def listed(self, seat: int) -> str:
        """Return the seat's name in a list, or the word for the viewer."""
        return you_in_a_list() if self.me(seat) else self.players[seat]


def _round_started(d: dict[str, Any], names: _Names) -> str:
    lot = d.get("chosen_from")
    if names.me(d["starter"]):
        if lot:
            text = _("Round {round} begins; you start (drawn by lot among {players}).")
        else:
            text = _("Round {round} begins; you start.")
    elif lot:
        text = _("Round {round} begins; {player} starts (drawn by lot among {players}).")
    else:
        text = _("Round {round} begins; {player} starts.")
    text = text.format(round=d["round"], player=names[d["starter"]],
                       players=", ".join(names[seat] for seat in lot or []))
    if d["face_up"]:
        # Translators: {cards} are card names alone, separated by commas.
        text += " " + _("Removed face up: {cards}.").format(cards=name_list(d["face_up"]))
    return text


def _dealt(d: dict[str, Any], names: _Names) -> str:
    if names.me(d["seat"]):
        return _("You were dealt {card}.").format(card=object_(d["card"]))
    return _("{player} was dealt a card.").format(player=names[d["seat"]])


def _drew(d: dict[str, Any], names: _Names) -> str:
    count = d["deck_count"]
    if names.me(d["seat"]):
        # Translators: the deck's last card; say so rather than "0 left" where your language would.
        text = (_("You drew a card (0 left in the deck).") if count == 0 else
                _.ngettext("You drew a card ({count} left in the deck).",
                           "You drew a card ({count} left in the deck).", count))
        ended = _("Your Handmaid protection ended.")
    else:
        text = (_("{player} drew a card (0 left in the deck).") if count == 0 else
                _.ngettext("{player} drew a card ({count} left in the deck).",
                           "{player} drew a card ({count} left in the deck).", count))
        ended = _("{player}'s Handmaid protection ended.")
    text = text.format(player=names[d["seat"]], count=count)
    if d.get("protection_ended"):
        text += " " + ended.format(player=names[d["seat"]])
    return text


def _drew_card(d: dict[str, Any], names: _Names) -> str:
    if names.me(d["seat"]):
        return _("You drew {card}.").format(card=object_(d["card"]))
    return _("{player} drew {card}.").format(player=names[d["seat"]], card=object_(d["card"]))


def _played(d: dict[str, Any], names: _Names) -> str:
    """Word a card played with no target, or a card with no effect of its own (Countess, Spy)."""
    values = {"player": names[d["seat"]], "card": object_(d["card"])}
    if d.get("no_target"):
        if names.me(d["seat"]):
            return _("You played {card}: no effect, no legal target.").format(**values)
        return _("{player} played {card}: no effect, no legal target.").format(**values)
    if names.me(d["seat"]):
        return _("You played {card}.").format(**values)
    return _("{player} played {card}.").format(**values)


def _two_sided(d: dict[str, Any], names: _Names, mine: str, at_me: str, others: str, **values: Any) -> str:
    """Word an event between the seat and its target: as the one acting, the one acted on, or neither."""
    if names.me(d["seat"]):
        text = mine
    elif names.me(d["target"]):
        text = at_me
    else:
        text = others
    return text.format(player=names[d["seat"]], target=names[d["target"]], **values)


def _guard_played(d: dict[str, Any], names: _Names) -> str:
    if d.get("no_target"):
        return _played(d, names)
    guess = object_(d["guess"])
    if d["hit"]:
        return _two_sided(
            d, names,
            _("You played the Guard on {target}, naming {guess}: hit."),
            _("{player} played the Guard on you, naming {guess}: hit."),
            _("{player} played the Guard on {target}, naming {guess}: hit."),
            guess=guess)
    return _two_sided(
        d, names,
        _("You played the Guard on {target}, naming {guess}: miss."),
        _("{player} played the Guard on you, naming {guess}: miss."),
        _("{player} played the Guard on {target}, naming {guess}: miss."),
        guess=guess)


def _priest_played(d: dict[str, Any], names: _Names) -> str:
    if d.get("no_target"):
        return _played(d, names)
    return _two_sided(
        d, names,
        _("You played the Priest and looked at {target}'s hand."),
        _("{player} played the Priest and looked at your hand."),
        _("{player} played the Priest and looked at {target}'s hand."))


def _priest_saw(d: dict[str, Any], names: _Names) -> str:
    # Translators: {card} is the card's name alone.
    return _two_sided(
        d, names,
        _("You saw {target}'s card: {card}."),
        _("{player} saw your card: {card}."),
        _("{player} saw {target}'s card: {card}."),
        card=name(d["seen"]))


def _baron_played(d: dict[str, Any], names: _Names) -> str:
    if d.get("no_target"):
        return _played(d, names)
    loser = d["loser"]
    if loser is None:
        return _two_sided(
            d, names,
            _("You played the Baron on {target}: a tie, nothing happens."),
            _("{player} played the Baron on you: a tie, nothing happens."),
            _("{player} played the Baron on {target}: a tie, nothing happens."))
    if loser == d["seat"]:
        return _two_sided(
            d, names,
            _("You played the Baron on {target}: you lost."),
            _("{player} played the Baron on you: {player} lost."),
            _("{player} played the Baron on {target}: {player} lost."))
    return _two_sided(
        d, names,
        _("You played the Baron on {target}: {target} lost."),
        _("{player} played the Baron on you: you lost."),
        _("{player} played the Baron on {target}: {target} lost."))


def _baron_compared(d: dict[str, Any], names: _Names) -> str:
    # Translators: {card} and {target_card} are card names alone: the one each player compared.
    return _two_sided(
        d, names,
        _("Baron comparison: your {card} against {target}'s {target_card}."),
        _("Baron comparison: {player}'s {card} against your {target_card}."),
        _("Baron comparison: {player}'s {card} against {target}'s {target_card}."),
        card=name(d["seat_card"]), target_card=name(d["target_card"]))


def _handmaid_played(d: dict[str, Any], names: _Names) -> str:
    if names.me(d["seat"]):
        return _("You played the Handmaid: protected until your next turn.")
    return _("{player} played the Handmaid: protected until {player}'s next turn.").format(player=names[d["seat"]])


def _prince_played(d: dict[str, Any], names: _Names) -> str:
    replacement = d["replacement"]
    values = {"player": names[d["seat"]], "target": names[d["target"]], "card": object_(d["discarded"])}
    if d["target"] == d["seat"]:
        if names.me(d["seat"]):
            texts = (_("You played the Prince on yourself: you discarded {card} and are out."),
                     _("You played the Prince on yourself: you discarded {card} and drew the set-aside card."),
                     _("You played the Prince on yourself: you discarded {card} and drew a new card."))
        else:
            texts = (_("{player} played the Prince on themselves: {player} discarded {card} and is out."),
                     _("{player} played the Prince on themselves: {player} discarded {card} and drew the set-aside "
                       "card."),
                     _("{player} played the Prince on themselves: {player} discarded {card} and drew a new card."))
    elif names.me(d["seat"]):
        texts = (_("You played the Prince on {target}: {target} discarded {card} and is out."),
                 _("You played the Prince on {target}: {target} discarded {card} and drew the set-aside card."),
                 _("You played the Prince on {target}: {target} discarded {card} and drew a new card."))
    elif names.me(d["target"]):
        texts = (_("{player} played the Prince on you: you discarded {card} and are out."),
                 _("{player} played the Prince on you: you discarded {card} and drew the set-aside card."),
                 _("{player} played the Prince on you: you discarded {card} and drew a new card."))
    else:
        texts = (_("{player} played the Prince on {target}: {target} discarded {card} and is out."),
                 _("{player} played the Prince on {target}: {target} discarded {card} and drew the set-aside card."),
                 _("{player} played the Prince on {target}: {target} discarded {card} and drew a new card."))
    out, set_aside, new = texts
    text = out if replacement is None else set_aside if replacement == "set_aside" else new
    return text.format(**values)


def _prince_drew(d: dict[str, Any], names: _Names) -> str:
    values = {"player": names[d["seat"]], "card": object_(d["card"])}
    if d["source"] == "set_aside":
        if names.me(d["seat"]):
            return _("You drew {card} (the set-aside card).").format(**values)
        return _("{player} drew {card} (the set-aside card).").format(**values)
    return _drew_card(d, names)


def _king_played(d: dict[str, Any], names: _Names) -> str:
    if d.get("no_target"):
        return _played(d, names)
    return _two_sided(
        d, names,
        _("You played the King and traded hands with {target}."),
        _("{player} played the King and traded hands with you."),
        _("{player} played the King and traded hands with {target}."))


def _king_traded(d: dict[str, Any], names: _Names) -> str:
    # Translators: {card} is what the player of the King received, {target_card} what the other player did.
    return _two_sided(
        d, names,
        _("King trade: You received {card}, {target} received {target_card}."),
        _("King trade: {player} received {card}, you received {target_card}."),
        _("King trade: {player} received {card}, {target} received {target_card}."),
        card=object_(d["seat_received"]), target_card=object_(d["target_received"]))


def _chancellor_played(d: dict[str, Any], names: _Names) -> str:
    count = d["drew"]
    me = names.me(d["seat"])
    if count == 0:
        text = (_("You played the Chancellor: the deck is empty, no effect.") if me
                else _("{player} played the Chancellor: the deck is empty, no effect."))
    elif me:
        text = _.ngettext("You played the Chancellor and drew {count} card.",
                          "You played the Chancellor and drew {count} cards.", count)
    else:
        text = _.ngettext("{player} played the Chancellor and drew {count} card.",
                          "{player} played the Chancellor and drew {count} cards.", count)
    return text.format(player=names[d["seat"]], count=count)


def _chancellor_drew(d: dict[str, Any], names: _Names) -> str:
    # Translators: {cards} are card names alone, separated by commas.
    if names.me(d["seat"]):
        return _("You drew {cards} with the Chancellor.").format(cards=name_list(d["cards"]))
    return _("{player} drew {cards} with the Chancellor.").format(player=names[d["seat"]], cards=name_list(d["cards"]))


def _chancellor_returned(d: dict[str, Any], names: _Names) -> str:
    count = d["count"]
    if names.me(d["seat"]):
        text = _.ngettext("You put {count} card on the bottom of the deck.",
                          "You put {count} cards on the bottom of the deck.", count)
    else:
        text = _.ngettext("{player} put {count} card on the bottom of the deck.",
                          "{player} put {count} cards on the bottom of the deck.", count)
    return text.format(player=names[d["seat"]], count=count)


def _chancellor_kept(d: dict[str, Any], names: _Names) -> str:
    # Translators: {card} is the card kept, with its article; {cards} are card names alone, separated by commas.
    values = {"player": names[d["seat"]], "card": object_(d["keep"]), "cards": name_list(d["bottom"])}
    if names.me(d["seat"]):
        return _("You kept {card} and put {cards} on the bottom of the deck (last one lowest).").format(**values)
    return _("{player} kept {card} and put {cards} on the bottom of the deck (last one lowest).").format(**values)


def _princess_played(d: dict[str, Any], names: _Names) -> str:
    if names.me(d["seat"]):
        return _("You played the Princess.")
    return _("{player} played the Princess.").format(player=names[d["seat"]])


def _player_left(d: dict[str, Any], names: _Names) -> str:
    if names.me(d["seat"]):
        return _("You left the game and will be knocked out at the start of every round.")
    return _("{player} left the game and will be knocked out at the start of every round.").format(
        player=names[d["seat"]])


def _knocked_out(d: dict[str, Any], names: _Names) -> str:
    # Translators: {cards} are card names alone, separated by commas: the hand shown (one card, or two when a player
    # is knocked out during their own turn).
    count = len(d["revealed"])
    values = {"player": names[d["seat"]], "cards": name_list(d["revealed"])}
    if not count:
        text = _("You are out of the round.") if names.me(d["seat"]) else _("{player} is out of the round.")
    elif names.me(d["seat"]):
        text = _.ngettext("You are out of the round, revealing {cards}.",
                          "You are out of the round, revealing {cards}.", count)
    else:
        text = _.ngettext("{player} is out of the round, revealing {cards}.",
                          "{player} is out of the round, revealing {cards}.", count)
    return text.format(**values)


def _showdown(d: dict[str, Any], names: _Names) -> str:
    # Translators: {hands} lists "name: card" pairs, {totals} "name total" pairs, {winners} names.
    values = {
        "hands": ", ".join(f"{names.listed(hand['seat'])}: {name(hand['card'])}" for hand in d["hands"]),
        "totals": ", ".join(f"{names.listed(total['seat'])} {total['total']}" for total in d["discard_totals"]),
        "winners": ", ".join(names.listed(seat) for seat in d["winners"]),
    }
    if not d["winners"]:
        return _("Showdown: {hands} (discard totals: {totals}). Winner: nobody.").format(**values)
    return _.ngettext("Showdown: {hands} (discard totals: {totals}). Winner: {winners}.",
                      "Showdown: {hands} (discard totals: {totals}). Winner: {winners}.",
                      len(d["winners"])).format(**values)


def _round_ended(d: dict[str, Any], names: _Names) -> str:
    winners = d["winners"]
    values = {
        "round": d["round"],
        # Translators: how the round ended, in brackets after "Round 3 ends".
        "reason": (_.pgettext("how a round ended", "last player standing") if d["reason"] == "last_standing"
                   else _.pgettext("how a round ended", "showdown")),
        "player": names[winners[0]] if winners else "",
        "players": joined([names[seat] for seat in winners if not names.me(seat)]),
    }
    if not winners:
        text = _("Round {round} ends ({reason}): nobody wins the round.")
    elif winners == [names.viewer]:
        text = _("Round {round} ends ({reason}): you win the round.")
    elif len(winners) == 1:
        text = _("Round {round} ends ({reason}): {player} wins the round.")
    elif names.viewer in winners:
        text = _("Round {round} ends ({reason}): you and {players} win the round.")
    else:
        text = _("Round {round} ends ({reason}): {players} win the round.")
    lines = [text.format(**values)]
    bonus = d["spy_bonus"]
    if bonus is not None:
        lines.append(_("Spy bonus: you.") if names.me(bonus) else _("Spy bonus: {player}.").format(player=names[bonus]))
    if d["set_aside"]:
        lines.append(_("Set-aside card: {card}.").format(card=name(d["set_aside"])))
    else:
        lines.append(_("Set-aside card: taken by a Prince."))
    lines.append(_("Tokens: {tokens}.").format(
        tokens=", ".join(f"{names[seat]} {tokens}" for seat, tokens in enumerate(d["tokens"]))))
    return " ".join(lines)


def _target_tied(d: dict[str, Any], names: _Names) -> str:
    count = d["tokens"]
    others = joined([names[seat] for seat in d["seats"] if not names.me(seat)])
    if names.viewer in d["seats"]:
        text = _.ngettext("You and {players} are tied at {count} token: another round is played.",
                          "You and {players} are tied at {count} tokens: another round is played.", count)
    else:
        text = _.ngettext("{players} are tied at {count} token: another round is played.",
                          "{players} are tied at {count} tokens: another round is played.", count)
    return text.format(players=others, count=count)


def _game_ended(d: dict[str, Any], names: _Names) -> str:
    winner = d["winners"][0]
    count = d["tokens"][winner]
    if d.get("reason") == "resigned":
        if names.me(winner):
            return _("Everyone else has left: you win the game.")
        return _("Everyone else has left: {player} wins the game.").format(player=names[winner])
    if names.me(winner):
        text = _.ngettext("You win the game with {count} token.", "You win the game with {count} tokens.", count)
    else:
        text = _.ngettext("{player} wins the game with {count} token.", "{player} wins the game with {count} tokens.",
                          count)
    return text.format(player=names[winner], count=count)


_WORDING = {
    "round_started": _round_started,
    "dealt": _dealt,
    "drew": _drew,
    "drew_card": _drew_card,
    "guard_played": _guard_played,
    "priest_played": _priest_played,
    "priest_saw": _priest_saw,
    "baron_played": _baron_played,
    "baron_compared": _baron_compared,
    "handmaid_played": _handmaid_played,
    "prince_played": _prince_played,
    "prince_drew": _prince_drew,
    "king_played": _king_played,
    "king_traded": _king_traded,
    "chancellor_played": _chancellor_played,
    "chancellor_drew": _chancellor_drew,
    "chancellor_returned": _chancellor_returned,
    "chancellor_kept": _chancellor_kept,
    "princess_played": _princess_played,
    "player_left": _player_left,
    "knocked_out": _knocked_out,
    "showdown": _showdown,
    "round_ended": _round_ended,
    "target_tied": _target_tied,
    "game_ended": _game_ended,
}


def describe_result(result: dict[str, Any], players: list[str]) -> str:
    """Return who won the game and how, in the reader's language, from the stored result and the names."""
    scores = result["scores"]
    score = "–".join(str(scores[seat]) for seat in result["ranking"])
    winners = result["winners"]
    if not winners:  # never: a game ends with one leader, or with one player left
        return _("Nobody wins ({score}).").format(score=score)
    winner = winners[0]
    values = {"player": players[winner], "score": score, "count": result["target"]}
    if scores[winner] < result["target"]:
        return _("{player} wins {score}: everyone else left the game.").format(**values)
    return _.ngettext("{player} wins {score}, the first to reach {count} token.",
                      "{player} wins {score}, the first to reach {count} tokens.", result["target"]).format(**values)
