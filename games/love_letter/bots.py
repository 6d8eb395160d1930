"""Love Letter bots (classic and 2019 editions): ``basic`` counts cards and follows the BGA tips.

A bot sees only what ``games.bots.bot_move`` hands it: its seat's view (with
the §8 tracker, built from its own private log), its legal moves and the
events visible to it. ``basic`` scores every legal move as a rough chance of
winning the round and plays the best one; ties are broken with the given rng,
so it is deterministic for a given rng.

The estimate of a move: knocking the last opponent out is worth 1, being
knocked out 0; otherwise the round goes on and the card kept is worth
``_keep_value`` (how likely it beats what the opponents hold, weighted by how
close the showdown is, less the risk of a Guard naming it when an opponent
knows it).
"""

from __future__ import annotations

import random
from typing import Any

from games.love_letter import cards

# Round-level fudge factors, as chances of winning the round.
PRIEST_INFO = 0.06  # a look at an unknown hand (more when a Guard or Baron is kept to use it)
PRIEST_COMBO = 0.08
HANDMAID_SHIELD = 0.04  # a turn without being targeted, beyond removing the Guard risk
PRINCE_DISRUPT = 0.03  # an opponent loses their card (and any plan built on it)
EXPOSED_RISK = 0.45  # an opponent who knows our card names it with their Guard / answers with a Baron
LEADER_BONUS = 0.01  # per token: prefer hitting the player closest to winning the game

# ``basic`` reads the events of the current round only (``round_events``). A round is at most one
# move per card of the deck (each turn draws one), one more per Chancellor (play it, then choose
# what to keep) and a resignation per player, and it starts in the move that ended the previous
# round: this many latest moves always hold it.
MOST_PLAYERS = 6
ROUND_MOVES_AT_MOST = max(sum(copies.values()) + copies.get("chancellor", 0) for copies in cards.COPIES.values())
HISTORY_MOVES = ROUND_MOVES_AT_MOST + MOST_PLAYERS + 1


def distributions(view: dict[str, Any], history: list[dict[str, Any]]) -> dict[int, dict[str, float]]:
    """Return, per opponent in the round, the odds of each card type in its hand, from the viewer's knowledge.

    A card known for certain (a Priest look, a Baron comparison or a King
    trade the viewer took part in, still valid: ``follow_looks`` over the
    viewer's own events) has odds 1. Otherwise the tracker's counts (public
    cards and the viewer's hand only) are used, less the cards known in other
    hands and the types a Guard just named wrongly.
    """
    events = round_events(history)
    misses = guard_misses(events)
    followed = follow_looks(view, events)
    tracker = view["tracker"]
    known = {entry["seat"]: followed[entry["seat"]] for entry in tracker["opponents"] if entry["seat"] in followed}
    unseen = {row["card"]: row["unseen"] for row in tracker["cards"]}
    pool = tracker["unknown_cards"]
    for card in known.values():
        if unseen.get(card, 0) > 0:
            unseen[card] -= 1  # known to us: no longer among the unknown cards
            pool -= 1
    odds = {}
    for entry in tracker["opponents"]:
        seat = entry["seat"]
        if seat in known:
            odds[seat] = {known[seat]: 1.0}
            continue
        table = {card: count / pool for card, count in unseen.items() if count > 0} if pool > 0 else {}
        trimmed = {card: p for card, p in table.items() if card not in misses.get(seat, ())}
        total = sum(trimmed.values())
        if total <= 0:  # the misses ruled out everything left: fall back on the plain odds
            trimmed, total = table, sum(table.values()) or 1.0
        odds[seat] = {card: p / total for card, p in trimmed.items()}
    return odds


def follow_looks(view: dict[str, Any], events: list[dict[str, Any]]) -> dict[int, str]:
    """Return the opponents' cards we saw this round (Priest, Baron, King) and they still hold for sure.

    A look survives the looked-at player's turn when the card they played is
    not the one we saw: they kept it.
    """
    me = view["you"]
    known: dict[int, str] = {}
    for event in events:
        kind, data = event["kind"], event["data"]
        if kind.endswith("_played"):
            seat = data["seat"]
            if known.get(seat) == data["card"] or kind == "chancellor_played":
                known.pop(seat, None)
            if kind == "prince_played":
                known.pop(data["target"], None)
            elif kind == "king_played" and "target" in data:
                known.pop(seat, None)
                known.pop(data["target"], None)
        elif kind == "knocked_out":
            known.pop(data["seat"], None)
        elif kind == "priest_saw" and data["seat"] == me:
            known[data["target"]] = data["seen"]
        elif kind == "baron_compared" and me in (data["seat"], data["target"]):
            if me == data["seat"]:
                known[data["target"]] = data["target_card"]
            else:
                known[data["seat"]] = data["seat_card"]
        elif kind == "king_traded" and me in (data["seat"], data["target"]):
            if me == data["seat"]:
                known[data["target"]] = data["target_received"]
            else:
                known[data["seat"]] = data["seat_received"]
    known.pop(me, None)
    return known


def round_events(history: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the visible events of the current round (round 1 starts before the history does)."""
    start = 0
    for i, event in enumerate(history):
        if event["kind"] == "round_started":
            start = i
    return history[start:]


def guard_misses(events: list[dict[str, Any]]) -> dict[int, set[str]]:
    """Return, per seat, the types a Guard named wrongly since that seat last changed its card."""
    misses: dict[int, set[str]] = {}
    for event in events:
        kind, data = event["kind"], event["data"]
        if kind.endswith("_played"):
            misses.pop(data["seat"], None)
            if kind in ("prince_played", "king_played") and "target" in data:
                misses.pop(data["target"], None)
                if kind == "king_played":
                    misses.pop(data["seat"], None)
            if kind == "guard_played" and "target" in data and not data.get("hit"):
                misses.setdefault(data["target"], set()).add(data["guess"])
    return misses


def exposed(view: dict[str, Any], history: list[dict[str, Any]]) -> str | None:
    """Return the card of our hand an opponent knows we hold (a look, a Baron tie or a King trade), or None."""
    me = view["you"]
    known = False
    for event in round_events(history):
        kind, data = event["kind"], event["data"]
        if not kind.endswith("_played"):
            continue
        if data["seat"] == me:
            known = False
        if kind == "prince_played" and data.get("target") == me:
            known = False
        elif kind == "priest_played" and data.get("target") == me:
            known = True
        elif kind == "king_played" and me in (data["seat"], data.get("target")) and "target" in data:
            known = True
        elif kind == "baron_played" and me in (data["seat"], data.get("target")) and data.get("loser") is None:
            known = "target" in data
    hand = list(view["hand"] or [])
    if not known or not hand:
        return None
    if len(hand) == 1:
        return hand[0]
    drawn = None
    for entry in view["private_log"]:
        if entry["kind"] in ("drew_card", "prince_drew") and entry["data"]["seat"] == me:
            drawn = entry["data"]["card"]
    if drawn in hand:
        hand.remove(drawn)
    return hand[0]


class Table:
    """What ``basic`` works out once per decision: values, odds per opponent, how late the round is."""

    def __init__(self, view: dict[str, Any], history: list[dict[str, Any]]):
        self.view = view
        self.me = view["you"]
        self.edition = view["edition"]
        self.values = {card: cards.value(self.edition, card) for card in cards.card_types(self.edition)}
        self.odds = distributions(view, history)
        self.opponents = sorted(self.odds)
        self.tokens = {seat["seat"]: seat["tokens"] for seat in view["seats"]}
        self.exposed = exposed(view, history)
        players = len(view["seats"])
        full = sum(cards.COPIES[self.edition].values())
        start = full - 1 - cards.FACE_UP_REMOVED.get(players, 0) - players
        self.deck = view["deck_count"]
        self.late = 1.0 - min(1.0, self.deck / start) if start > 0 else 1.0
        pool = {row["card"]: row["probability"] for row in view["tracker"]["cards"]}
        total = sum(pool.values())
        self.pool = {card: p / total for card, p in pool.items() if p > 0} if total > 0 else {}

    # -- estimates ----------------------------------------------------------
    def beats(self, card: str, odds: dict[str, float]) -> float:
        """Return the chance ``card`` beats a hand with ``odds`` at a showdown (a tie counts half)."""
        mine = self.values[card]
        return sum(
            p * (1.0 if self.values[c] < mine else 0.5 if self.values[c] == mine else 0.0) for c, p in odds.items()
        )

    def strength(self, card: str, against: dict[int, dict[str, float]] | None = None) -> float:
        """Return the chance ``card`` beats every opponent's hand at a showdown."""
        result = 1.0
        for odds in (against or self.odds).values():
            result *= self.beats(card, odds)
        return result

    def keep_value(self, card: str, *, exposed: bool = False, shielded: bool = False, against=None) -> float:
        """Return the chance of winning the round while keeping ``card`` (the round goes on)."""
        weight = 0.4 + 0.6 * self.late
        value = 0.5 + weight * (self.strength(card, against) - 0.5)
        if exposed and not shielded and self.deck > 0 and card != "guard":
            value *= 1.0 - EXPOSED_RISK
        if card == "princess" and not shielded and self.deck > 0:
            # A Prince on us knocks us out: the more Princes unseen, the likelier.
            value *= 1.0 - 0.5 * self.pool.get("prince", 0.0)
        return value

    def knock_out(self, rest: float, target: int) -> float:
        """Return the chance of winning after knocking ``target`` out, ``rest`` being ours otherwise."""
        share = (1.0 - rest) / len(self.opponents) if self.opponents else 0.0
        return rest + share + LEADER_BONUS * self.tokens.get(target, 0)

    # -- moves --------------------------------------------------------------
    def score(self, move: dict[str, Any]) -> float:
        """Return the estimated chance of winning the round after ``move``."""
        if "keep" in move:
            return self.keep_value(move["keep"]) + 1e-3 * self.values[move["keep"]]
        hand = list(self.view["hand"])
        card, target = move["card"], move.get("target")
        hand.remove(card)
        other = hand[0] if hand else card
        is_exposed = other == self.exposed
        keep = self.keep_value(other, exposed=is_exposed)
        if card == "princess":
            return -1.0  # never voluntarily: worse than any other card, even one that loses the round
        if card == "guard":
            if target is None:
                return keep
            hit = self.odds[target].get(move["guess"], 0.0)
            return hit * self.knock_out(keep, target) + (1 - hit) * keep
        if card == "priest":
            if target is None:
                return keep
            bonus = 0.0 if len(self.odds[target]) == 1 else PRIEST_INFO * (1.0 - self.late * 0.5)
            if other in ("guard", "baron") and bonus:
                bonus += PRIEST_COMBO
            return keep + bonus + LEADER_BONUS * self.tokens.get(target, 0) * 0.1
        if card == "baron":
            if target is None:
                return keep
            odds = self.odds[target]
            mine = self.values[other]
            win = sum(p for c, p in odds.items() if self.values[c] < mine)
            tie = sum(p for c, p in odds.items() if self.values[c] == mine)
            after_tie = self.keep_value(other, exposed=True)
            rest_win = self.keep_value(other, exposed=len(self.opponents) > 1 and is_exposed)
            return win * self.knock_out(rest_win, target) + tie * after_tie
        if card == "handmaid":
            return self.keep_value(other, shielded=True) + HANDMAID_SHIELD * (1.0 + self.late)
        if card == "prince":
            if target == self.me:
                if other == "princess":
                    return -0.5  # out all the same (every opponent protected), but never by choice
                draw = sum(p * self.keep_value(c) for c, p in self.pool.items()) if self.pool else 0.5
                return draw - 0.02
            odds = self.odds[target]
            princess = odds.get("princess", 0.0)
            # Their replacement is a fresh unknown card: our card now faces the pool's odds from them.
            after = dict(self.odds)
            after[target] = self.pool or odds
            rest = self.keep_value(other, exposed=is_exposed, against=after)
            return princess * self.knock_out(rest, target) + (1 - princess) * (rest + PRINCE_DISRUPT)
        if card == "king":
            if target is None:
                return keep
            total = 0.0
            for theirs, p in self.odds[target].items():
                after = dict(self.odds)
                after[target] = {other: 1.0}  # they now hold our card, and we know it
                total += p * self.keep_value(theirs, exposed=True, against=after)
            return total
        if card == "chancellor":
            # Keep the best of our card and two draws: roughly the better of ours and one pool card.
            if not self.pool or self.deck == 0:
                return keep
            best = sum(p * max(keep, self.keep_value(c)) for c, p in self.pool.items())
            return best + 0.01
        if card == "spy":
            return keep + (0.05 if self.deck > 0 else 0.0)
        # countess (free choice) and anything without an effect
        return keep


class BasicBot:
    """Count cards, name the likeliest card, never throw the Princess away; see the module docstring."""

    history_moves = HISTORY_MOVES

    def choose(self, view, moves, history, rng: random.Random):
        table = Table(view, history)
        scored = [(table.score(move), i) for i, move in enumerate(moves)]
        best = max(score for score, _ in scored)
        top = [i for score, i in scored if score >= best - 1e-9]
        if "keep" in moves[0]:
            # Chancellor: among equal keeps, send the highest returned cards to the very bottom.
            top.sort(key=lambda i: [table.values[c] for c in moves[i]["bottom"]])
            return moves[top[0]]
        return moves[rng.choice(top)]
