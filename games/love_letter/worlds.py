"""Love Letter worlds for a search bot: whole states drawn from what one seat may know (``Engine.sample_world``).

A seat cannot see the others' hands, the deck's order, the set-aside card or the seed of the rounds to come. Its
view holds the public facts and its own private events of the round, but not when each card was played, so what it
still knows of the others' hands is followed through the round's visible events (``history``):

* a card seen with the Priest, compared with the Baron, traded by the King or drawn from under the deck where the
  seat's own Chancellor put it, in a hand that has not played it, traded it or lost it since;
* where the cards the seat put under the deck lie (above any put there later);
* public deductions: a Guard's wrong guess (the target lacks that card), the card kept beside a King or Prince
  played is no Countess (ruling 9 forces her out first), a Baron's winner beats the card the loser showed, a
  Baron tie between two others (they hold the same card).

Each is a constraint on a *slot*, one hidden card followed as it moves. When a player plays a card either of
their two slots could be, the slot left allows the union of both; when another's Chancellor puts cards under the
deck, the kept and the returned slots allow the union of all, and a card the seat knew among them is in one of
them (a *group*); a Baron tie is dropped once either hand is ambiguous. So no real position is ever ruled out, and
only what the seat could know of hands it can no longer tell apart is lost. The hidden cards are a uniform
arrangement of the unseen ones (the tracker's counts, less those the seat knows where they are) over the hidden
slots, conditioned on the constraints by rejection: the real cards are no likelier than any others.

``HISTORY_MOVES``: a round takes at most one move per card in the deck after the deal (each turn draws one; the
Chancellor puts back what it draws), one more per Chancellor and a resignation per player but the last two; the
window also holds the move that dealt it. Round 1 is dealt in ``setup``, before any move, and a game younger than
the window hands its whole history. If the history misses the round's start, the view alone is used.
"""

from __future__ import annotations

import random
from typing import Any

from games.love_letter import cards


def _round_moves_at_most() -> int:
    """Return the most moves a round can take (see the module's last paragraph), over every edition and table."""
    most = 0
    for edition in cards.EDITIONS:
        copies = cards.COPIES[edition]
        low, high = cards.player_range(edition)
        for players in range(low, high + 1):
            turns = sum(copies.values()) - 1 - cards.FACE_UP_REMOVED.get(players, 0) - players
            most = max(most, turns + copies.get("chancellor", 0) + players - 2)
    return most


HISTORY_MOVES = _round_moves_at_most() + 1  # and the move that dealt the round
ATTEMPTS = 2000  # rejection draws before the soft constraints are let go (never seen past a few dozen)
_PAIRS = ("baron_compared", "king_traded")  # the private events both the actor and the target see


class _Slot:
    """One hidden card: the card the seat knows it is, else the kinds it may be (None: any)."""

    __slots__ = ("card", "allowed")

    def __init__(self, card: str | None = None, allowed: frozenset | None = None):
        self.card = card
        self.allowed = allowed

    def may_be(self, card: str) -> bool:
        return self.card == card if self.card is not None else self.allowed is None or card in self.allowed

    def kinds(self, every: frozenset) -> frozenset:
        if self.card is not None:
            return frozenset((self.card,))
        return every if self.allowed is None else self.allowed


class _Round:
    """The seat's knowledge of the round's hidden slots, followed event by event (see the module)."""

    def __init__(self, edition: str, players: int, me: int, deck_count: int):
        self.every = frozenset(cards.card_types(edition))
        self.values = cards.VALUES[edition]
        self.me = me
        self.hands: list[list[_Slot]] = [[] for _ in range(players)]
        self.under: list[_Slot] = []  # the cards put under the deck this round, top first
        self.deck_count = deck_count
        self.set_aside: _Slot | None = _Slot()
        self.groups: list[list] = []  # [card, slots]: a card the seat knows is in one of the slots
        self.equal: list[tuple[_Slot, _Slot]] = []  # a Baron tie between two others
        self.baron_winner: _Slot | None = None
        self.returned: list[_Slot] = []  # the seat's own Chancellor cards, named by the next event
        self.draws = 0
        self.broken = False  # the events contradict each other: the history is not what it should be

    def hand(self, seat: int, size: int) -> list[_Slot]:
        """Return the seat's slots, with unknown ones added up to ``size`` (cards dealt before the history)."""
        hand = self.hands[seat]
        while len(hand) < size:
            hand.append(_Slot())
        return hand

    def top(self) -> _Slot:
        self.deck_count -= 1
        if self.deck_count < len(self.under):
            return self.under.pop(0)
        return _Slot()

    def learn(self, slot: _Slot, card: str) -> None:
        """The seat learns the card in ``slot``: it no longer needs a group, and its Baron twin holds the same."""
        if not slot.may_be(card):
            self.broken = True
        slot.card, slot.allowed = card, None
        for group in [group for group in self.groups if slot in group[1]]:
            if group[0] == card:  # it may be the very card the group was about
                self.groups.remove(group)
            else:
                group[1].remove(slot)
        for pair in [pair for pair in self.equal if slot in pair]:
            self.equal.remove(pair)
            self.narrow(pair[1] if pair[0] is slot else pair[0], frozenset((card,)))

    def narrow(self, slot: _Slot, kinds: frozenset) -> None:
        if slot.card is not None:
            self.broken |= slot.card not in kinds
        else:
            slot.allowed = kinds if slot.allowed is None else slot.allowed & kinds

    def forget(self, old: list[_Slot], new: list[_Slot], gone: tuple | list) -> None:
        """Slots ``old`` became ``new`` in an order the seat cannot tell; the cards ``gone`` left from among them."""
        for group in list(self.groups):
            if any(slot in group[1] for slot in old):
                if group[0] in gone:
                    self.groups.remove(group)
                else:
                    group[1] = [slot for slot in group[1] if slot not in old] + new
        self.equal = [pair for pair in self.equal if pair[0] not in old and pair[1] not in old]

    def played(self, seat: int, card: str) -> None:
        """``seat`` played ``card`` from its two cards: the slot left is the other one, or either."""
        hand = self.hand(seat, 2)
        if seat == self.me:  # the seat's own cards: each slot is named when drawn (bar round 1's deal)
            hand.remove(next((slot for slot in hand if slot.card == card), None)
                        or next((slot for slot in hand if slot.card is None), hand[-1]))
            return
        could = [slot for slot in hand if slot.may_be(card)]
        if len(could) == 1:
            hand.remove(could[0])
            self.learn(could[0], card)
        elif not could:
            self.broken = True
            hand.pop()
        else:
            kinds = frozenset().union(*(slot.kinds(self.every) for slot in hand))
            left = _Slot(None, None if kinds == self.every else kinds)
            self.forget(hand, [left], (card,))
            hand[:] = [left]
        if card in cards.FORCES_COUNTESS and seat != self.me:
            # Ruling 9: held beside the King or a Prince, the Countess must be played, so she is not the card kept.
            self.narrow(hand[0], self.every - {"countess"})

    def returned_under(self, seat: int, count: int) -> None:
        """``seat``'s Chancellor kept one card and put ``count`` under the deck, in an order of its choice."""
        hand = self.hand(seat, count + 1)
        if seat == self.me:
            self.returned = [_Slot() for _ in range(count)]  # named by chancellor_kept, next
            new = self.returned
            hand[:] = [_Slot()]
        else:
            kinds = frozenset().union(*(slot.kinds(self.every) for slot in hand))
            allowed = None if kinds == self.every else kinds
            kept, new = _Slot(None, allowed), [_Slot(None, allowed) for _ in range(count)]
            self.forget(hand, [kept, *new], ())
            self.groups += [[slot.card, [kept, *new]] for slot in hand if slot.card is not None]
            hand[:] = [kept]
        self.under += new
        self.deck_count += count

    def knocked_out(self, seat: int, revealed: list[str], reason: str) -> None:
        hand = self.hand(seat, len(revealed))
        if seat != self.me:
            if len(hand) == 1 and len(revealed) == 1:
                self.learn(hand[0], revealed[0])
            else:  # a player leaving in their own turn shows two or three cards: which was which is moot
                self.forget(hand, [], revealed)
            if reason == "baron" and self.baron_winner is not None and len(revealed) == 1:
                beaten = self.values[revealed[0]]
                self.narrow(self.baron_winner, frozenset(c for c in self.every if self.values[c] > beaten))
        self.baron_winner = None
        hand.clear()

    def step(self, kind: str, data: dict[str, Any]) -> None:
        me = self.me
        if kind == "drew":
            self.draws += 1
            self.deck_count = data["deck_count"] + 1
            self.hand(data["seat"], 1).append(self.top())
        elif kind in ("drew_card", "prince_drew") and data["seat"] == me:
            self.learn(self.hand(me, 1)[-1], data["card"])
        elif kind == "chancellor_drew" and data["seat"] == me:
            drawn = self.hand(me, 1 + len(data["cards"]))
            for slot, card in zip(drawn[-len(data["cards"]):], data["cards"]):
                self.learn(slot, card)
        elif kind.endswith("_played"):
            self.play(kind, data)
        elif kind == "priest_saw" and data["seat"] == me:
            self.learn(self.hand(data["target"], 1)[0], data["seen"])
        elif kind == "baron_compared" and me in (data["seat"], data["target"]):
            other, card = ((data["target"], data["target_card"]) if me == data["seat"]
                           else (data["seat"], data["seat_card"]))
            self.learn(self.hand(other, 1)[0], card)
        elif kind == "king_traded" and me in (data["seat"], data["target"]):
            # Each side now holds what the other gave: the seat's old card is in the other hand.
            mine, other, card = ((data["seat_received"], data["target"], data["target_received"]) if me == data["seat"]
                                 else (data["target_received"], data["seat"], data["seat_received"]))
            self.learn(self.hand(me, 1)[0], mine)
            self.learn(self.hand(other, 1)[0], card)
        elif kind == "chancellor_returned":
            self.returned_under(data["seat"], data["count"])
        elif kind == "chancellor_kept" and data["seat"] == me:
            self.hand(me, 1)[0].card = data["keep"]
            for slot, card in zip(self.returned, data["bottom"]):
                slot.card = card
        elif kind == "knocked_out":
            self.knocked_out(data["seat"], data["revealed"], data.get("reason", ""))
        elif kind == "showdown":
            for shown in data["hands"]:
                if shown["seat"] != me:
                    self.learn(self.hand(shown["seat"], 1)[0], shown["card"])
        elif kind == "round_ended" and data.get("set_aside") is not None and self.set_aside is not None:
            self.learn(self.set_aside, data["set_aside"])

    def play(self, kind: str, data: dict[str, Any]) -> None:
        """A card played (its public event): the card leaves the hand, then its effect on the slots."""
        me, seat, target = self.me, data["seat"], data.get("target")
        self.played(seat, data["card"])
        if kind == "chancellor_played":
            self.hand(seat, 1).extend(self.top() for _ in range(data["drew"]))
        if target is None:
            return
        if kind == "guard_played" and not data["hit"] and target != me:
            self.narrow(self.hand(target, 1)[0], self.every - {data["guess"]})
        elif kind == "baron_played" and me not in (seat, target):
            mine, theirs = self.hand(seat, 1)[0], self.hand(target, 1)[0]
            if data["loser"] is None:
                self.equal.append((mine, theirs))
            else:
                self.baron_winner = theirs if data["loser"] == seat else mine
        elif kind == "prince_played":
            hand = self.hand(target, 1)
            gone = hand.pop()
            if target != me:
                self.learn(gone, data["discarded"])
            if data["replacement"] == "deck":
                hand.append(self.top())
            elif data["replacement"] == "set_aside":
                hand.append(self.set_aside or _Slot())
                self.set_aside = None
        elif kind == "king_played":  # the slots change hands, and what the seat knows of them goes along
            self.hands[seat], self.hands[target] = self.hand(target, 1), self.hand(seat, 1)


# -- from the view and the history to a plan of the hidden slots ----------------------------------------------------


def follow_round(view: dict[str, Any], history: list[dict[str, Any]], seat: int) -> _Round | None:
    """Return the seat's knowledge of the round's slots from its visible events, or None if the history does not
    hold the whole round (or contradicts the view): then nothing but the view is known."""
    edition, players, number = view["edition"], len(view["seats"]), view["round"]
    visible = [event for event in history if event.get("visible_to") is None or seat in event["visible_to"]]
    start = next((i for i in range(len(visible) - 1, -1, -1) if visible[i]["kind"] == "round_started"), None)
    if start is not None:
        if visible[start]["data"]["round"] != number:
            return None
        known = _Round(edition, players, seat, visible[start]["data"]["deck_count"])
        events, draws = visible[start + 1:], view["turn"]
    elif number == 1:
        # Round 1 was dealt in setup, which logs no move: its deal and the first player's draw are not in history.
        full = sum(cards.COPIES[edition].values())
        known = _Round(edition, players, seat, full - 1 - cards.FACE_UP_REMOVED.get(players, 0) - players - 1)
        events, draws = visible, view["turn"] - 1
    else:
        return None
    for event in events:
        known.step(event["kind"], event["data"])
    if known.broken or known.draws != draws or known.deck_count != view["deck_count"] \
            or len(known.under) > known.deck_count or view["set_aside_present"] != (known.set_aside is not None):
        return None
    if any(entry["seat"] != seat and len(known.hands[entry["seat"]]) > entry["hand_count"] for entry in view["seats"]):
        return None
    return known


class _Plan:
    """The hidden positions (the others' hands in seat order, the set-aside card, the deck top first), what is
    known of each, and the unseen cards left to arrange over the rest: worked out once per view."""

    def __init__(self, view: dict[str, Any], seat: int, known: _Round | None):
        slots: list[_Slot] = []
        self.hands: list[tuple[int, int, int]] = []  # (seat, first index, count)
        for entry in view["seats"]:
            other, count = entry["seat"], entry["hand_count"]
            if other != seat and count:
                self.hands.append((other, len(slots), count))
                slots += known.hand(other, count) if known else [_Slot() for _ in range(count)]
        self.set_aside = None
        if view["set_aside_present"]:
            self.set_aside = len(slots)
            slots.append(known.set_aside if known else _Slot())
        self.deck, under = len(slots), known.under if known else []
        slots += [_Slot() for _ in range(view["deck_count"] - len(under))] + under

        unseen = {row["card"]: row["unseen"] for row in view["tracker"]["cards"]}
        if sum(unseen.values()) != len(slots):  # a view this module misreads would give a world the engine misplays
            raise ValueError(f"{len(slots)} hidden cards but {sum(unseen.values())} unseen")
        index = {id(slot): i for i, slot in enumerate(slots)}
        self.base: list[str | None] = [None] * len(slots)
        for i, slot in enumerate(slots):
            if slot.card is not None:
                self.base[i] = slot.card
                unseen[slot.card] -= 1
        self.groups = []
        for card, members in known.groups if known else ():
            eligible = [index[id(slot)] for slot in members if id(slot) in index and slot.may_be(card)]
            self.groups.append((card, eligible))
            unseen[card] -= 1
        if any(count < 0 for count in unseen.values()) or any(not members for _card, members in self.groups):
            raise _Contradiction
        self.pool = [card for card, count in unseen.items() for _ in range(count)]
        self.unary = [(i, slot.allowed) for i, slot in enumerate(slots) if slot.card is None and slot.allowed is not None]
        self.pairs = [(index[id(a)], index[id(b)]) for a, b in (known.equal if known else ())
                      if id(a) in index and id(b) in index]
        # The positions a constraint reads come first, so a rejected draw costs only them.
        watched = dict.fromkeys([i for i, _kinds in self.unary] + [i for pair in self.pairs for i in pair])
        self.order = [i for i in watched if self.base[i] is None] + \
                     [i for i in range(len(slots)) if self.base[i] is None and i not in watched]
        self.watched = sum(1 for i in watched if self.base[i] is None)
        self.known_cards = {other: self.base[first] for other, first, count in self.hands
                            if count == 1 and self.base[first] is not None}

    def deal(self, rng: random.Random) -> list[str]:
        """Return a card for every hidden position: uniform among the arrangements the constraints allow."""
        if not self.groups and not self.watched:
            out = list(self.base)
            pool = list(self.pool)
            rng.shuffle(pool)
            for i, card in zip(self.order, pool):
                out[i] = card
            return out
        for _attempt in range(ATTEMPTS):
            out = self._try(rng, True)
            if out is not None:
                return out
        return self._try(rng, False)  # contradictory constraints (never seen): keep only the certain cards

    def _try(self, rng: random.Random, check: bool) -> list[str] | None:
        out = list(self.base)
        pool = list(self.pool)
        order, watched = self.order, self.watched
        if self.groups:
            for card, members in self.groups:
                free = [i for i in members if out[i] is None]
                if free:
                    out[free[rng.randrange(len(free))]] = card
                else:
                    pool.append(card)  # the group's card is arranged with the rest
            first = [i for i in order[:watched] if out[i] is None]
            order, watched = first + [i for i in order[watched:] if out[i] is None], len(first)
        randrange, size = rng.randrange, len(pool)
        for j in range(watched):  # a partial Fisher-Yates shuffle: the watched positions first
            k = j + randrange(size - j)
            pool[j], pool[k] = pool[k], pool[j]
            out[order[j]] = pool[j]
        if check:
            for i, kinds in self.unary:
                if out[i] not in kinds:
                    return None
            for i, j in self.pairs:
                if out[i] != out[j]:
                    return None
        rest = pool[watched:]
        rng.shuffle(rest)
        for i, card in zip(order[watched:], rest):
            out[i] = card
        return out


class _Contradiction(Exception):
    """The followed knowledge does not fit the view's counts (never seen: the view alone is used then)."""


def plan(view: dict[str, Any], history: list[dict[str, Any]], seat: int) -> _Plan:
    """Return the plan of the hidden cards for ``seat``, from the history when it holds the round."""
    known = follow_round(view, history, seat)
    try:
        return _Plan(view, seat, known)
    except _Contradiction:
        return _Plan(view, seat, None)


# -- the world --------------------------------------------------------------------------------------------------------


def _copied(value: Any) -> Any:  # as ``player_view._copied``: a JSON value sharing nothing with the view
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value


def _seen_by(kind: str, data: dict[str, Any]) -> list[int]:
    """Return who an engine private event was shown to (``changes.emit``): its seat, and a Baron's or King's target."""
    return sorted({data["seat"], data["target"]}) if kind in _PAIRS else [data["seat"]]


def _template(view: dict[str, Any], seat: int, plan_: _Plan) -> dict[str, Any]:
    """Return the parts of a world every draw shares: the view's public facts and the seat's private events.

    Worlds share these lists with each other, never with the view: the engine changes no state in place.
    """
    seats = view["seats"]
    players = len(seats)
    private = [{"turn": entry["turn"], "kind": entry["kind"], "data": _copied(entry["data"]),
                "visible_to": _seen_by(entry["kind"], entry["data"])} for entry in view["private_log"]]
    last = view["last_play"]
    if last is not None and last["seat"] != seat:
        # ``player_view._last_play`` finds the last play's player by their draw of that turn, a private event of
        # theirs: the world holds it, drawing the card they then played (as plausible a draw as any).
        played = seats[last["seat"]]["discards"][last["discard"]]["card"]
        turn = view["turn"] - 1 if view["phase"] == "await_play" else view["turn"]
        private.append({"turn": turn, "kind": "drew_card", "data": {"seat": last["seat"], "card": played},
                        "visible_to": [last["seat"]]})
    known = [[None] * players for _ in range(players)]
    for other, card in plan_.known_cards.items():
        known[seat][other] = card
    last_round = _copied(view["last_round"])
    return {
        "players": [entry["name"] for entry in seats],
        "options": dict(view["options"]),  # no scripted deck: the rounds to come are shuffled from the world's seed
        "edition": view["edition"],
        "target": view["target"],
        "tokens": [entry["tokens"] for entry in seats],
        "round": view["round"],
        "turn": view["turn"],
        "phase": view["phase"],
        "current": view["current"],
        "face_up": list(view["face_up_removed"]),
        "discards": [[dict(item) for item in entry["discards"]] for entry in seats],
        "in_round": [entry["in_round"] for entry in seats],
        "protected": [entry["protected"] for entry in seats],
        "left": [entry["left"] for entry in seats],
        "private": private,
        "known": known,
        # Only the last round's record is in the view; ``result`` lists the records it has.
        "rounds": [] if last_round is None else [{key: last_round[key] for key in
                                                  ("round", "winners", "spy_bonus", "reason")}],
        "last_round": last_round,
        "winners": None if view["winners"] is None else list(view["winners"]),
    }


_last: list = [None]  # (view, history, seat, fingerprint, plan, template) of the last call


def _fingerprint(view: dict[str, Any], history: list[dict[str, Any]]) -> tuple:
    return view["round"], view["turn"], view["phase"], view["deck_count"], len(view["private_log"]), len(history)


def sample_world(view: dict[str, Any], history: list[dict[str, Any]], seat: int,
                 rng: random.Random) -> dict[str, Any]:
    """Return a whole state ``seat`` cannot tell from the real one, its hidden cards drawn with ``rng`` alone.

    A search asks thousands of times with the same view and history: what they tell (about 200 µs) is worked
    out once, for the very objects last given (the bot's own copies, which nothing changes), and each draw
    then costs about 25 µs.
    """
    last = _last[0]
    fingerprint = _fingerprint(view, history)
    if last is not None and last[0] is view and last[1] is history and last[2] == seat and last[3] == fingerprint:
        plan_, template = last[4], last[5]
    else:
        plan_ = plan(view, history, seat)
        template = _template(view, seat, plan_)
        _last[0] = (view, history, seat, fingerprint, plan_, template)  # one reference: a thread sees all or none
    dealt = plan_.deal(rng)
    players = len(template["players"])
    hands: list[list[str]] = [[] for _ in range(players)]
    hands[seat] = list(view["hand"] or ())
    for other, first, count in plan_.hands:
        hands[other] = dealt[first:first + count]
    world = dict(template)
    world["seed"] = rng.getrandbits(64)
    world["hands"] = hands
    world["set_aside"] = None if plan_.set_aside is None else dealt[plan_.set_aside]
    world["deck"] = dealt[plan_.deck:]
    current = view["current"]
    if view["phase"] == "await_play" and current is not None and current != seat:
        # The player to move drew their second card this turn (their private event, which their view shows).
        world["private"] = [*template["private"], {"turn": view["turn"], "kind": "drew_card",
                                                   "data": {"seat": current, "card": hands[current][-1]},
                                                   "visible_to": [current]}]
    return world
