"""Love Letter card tables for the classic (2012, 16 cards) and 2019 (21 cards) editions.

Cards are identified by type name; a card's value always depends on the edition. What a card is
called in the reader's language is in ``words.py``.
"""

from __future__ import annotations

CLASSIC = "classic"
EDITION_2019 = "2019"
EDITIONS = (CLASSIC, EDITION_2019)

# Every card type, in value order (the 2019 order, which contains the classic one).
ALL_CARDS = (
    "spy", "guard", "priest", "baron", "handmaid",
    "prince", "chancellor", "king", "countess", "princess",
)

VALUES: dict[str, dict[str, int]] = {
    CLASSIC: {
        "guard": 1, "priest": 2, "baron": 3, "handmaid": 4,
        "prince": 5, "king": 6, "countess": 7, "princess": 8,
    },
    EDITION_2019: {
        "spy": 0, "guard": 1, "priest": 2, "baron": 3, "handmaid": 4,
        "prince": 5, "chancellor": 6, "king": 7, "countess": 8, "princess": 9,
    },
}

COPIES: dict[str, dict[str, int]] = {
    CLASSIC: {
        "guard": 5, "priest": 2, "baron": 2, "handmaid": 2,
        "prince": 2, "king": 1, "countess": 1, "princess": 1,
    },
    EDITION_2019: {
        "spy": 2, "guard": 6, "priest": 2, "baron": 2, "handmaid": 2,
        "prince": 2, "chancellor": 2, "king": 1, "countess": 1, "princess": 1,
    },
}

# Who a card may choose: "other" (an opponent in the round, unprotected),
# "any" (yourself or such an opponent), or None (no target).
TARGETS: dict[str, str | None] = {
    "spy": None, "guard": "other", "priest": "other", "baron": "other",
    "handmaid": None, "prince": "any", "chancellor": None, "king": "other",
    "countess": None, "princess": None,
}

# Tokens needed to win the game, by edition and player count (rules §2.3).
TOKEN_TARGETS: dict[str, dict[int, int]] = {
    CLASSIC: {2: 7, 3: 5, 4: 4},
    EDITION_2019: {2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
}

# Cards removed face up at round setup, by player count (only 2 players remove any).
FACE_UP_REMOVED = {2: 3}

# The Countess must be played when held with one of these (rules §4, ruling 9).
FORCES_COUNTESS = ("king", "prince")

CARD_TYPES = {edition: tuple(card for card in ALL_CARDS if card in VALUES[edition]) for edition in EDITIONS}
GUESSABLE = {edition: tuple(card for card in CARD_TYPES[edition] if card != "guard") for edition in EDITIONS}


def card_types(edition: str) -> tuple[str, ...]:
    """Return the edition's card types in value order."""
    return CARD_TYPES[edition]


def value(edition: str, card: str) -> int:
    """Return the value of ``card`` in ``edition``."""
    return VALUES[edition][card]


def guessable(edition: str) -> tuple[str, ...]:
    """Return the types a Guard may name: every type of the edition but the Guard."""
    return GUESSABLE[edition]


def full_deck(edition: str) -> list[str]:
    """Return every card of the edition, sorted by value."""
    return [card for card in card_types(edition) for _ in range(COPIES[edition][card])]


def player_range(edition: str) -> tuple[int, int]:
    """Return the (fewest, most) players the edition supports."""
    counts = TOKEN_TARGETS[edition]
    return min(counts), max(counts)

