"""Example requests and answers shown in the API documentation (made-up games, no real data)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

TIME_CONTROL_NONE = {
    "kind": "none", "days_per_move": 3, "bank_days": 7, "increment_days": 1, "weekends_off": False,
    "allow_absence": True, "expiry": "bot_turn", "description": "No clock",
    "expiry_description": "A bot plays the late turn; after 3 timeouts in a row the bot takes the seat",
    "stand_in": "basic", "stand_in_description": "The basic bot", "paused_until": None,
}

OPEN_TABLE = {
    "id": 42, "game": "love-letter", "name": "Love Letter", "status": "open", "visibility": "public", "seq": 0,
    "seat_count": 2, "seats": [{"index": 0, "username": "ann", "bot_account": False, "name": "ann", "bot": None}],
    "my_seat": 0,
    "to_move": [], "options": {"edition": "classic"}, "view": None, "result": None,
    "invite_url": "https://games.example.org/games/42/invite/5eUjT0Hq2rW9nLkA/",
    "time_control": TIME_CONTROL_NONE, "clocks": [], "created_at": "2025-03-01T09:30:00Z",
    "last_move_at": None, "last_move": None, "commitment": None, "seed": None,
}

GAME_IN_PLAY = {
    **OPEN_TABLE,
    "status": "active",
    "seats": [
        {"index": 0, "username": "ann", "bot_account": False, "name": "ann", "bot": None},
        {"index": 1, "username": "ben", "bot_account": False, "name": "ben", "bot": None},
    ],
    "to_move": [0],
    "commitment": {
        "scheme": "turnbased-seed-commitment/1", "algorithm": "sha256",
        "value": "6f1d0c2a9b7e4d3c8a5f2e1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d",
    },
    "view": {
        "game": "love-letter", "edition": "classic", "you": 0, "phase": "await_play", "round": 1, "turn": 1,
        "current": 0, "target": 7, "hand": ["guard", "handmaid"], "deck_count": 9,
        "face_up_removed": ["king", "countess", "baron"],
        "seats": [
            {"seat": 0, "name": "ann", "tokens": 0, "in_round": True, "left": False, "protected": False,
             "hand_count": 2, "discards": [], "discard_total": 0},
            {"seat": 1, "name": "ben", "tokens": 0, "in_round": True, "left": False, "protected": False,
             "hand_count": 1, "discards": [], "discard_total": 0},
        ],
    },
    "clocks": [
        {"seat": 0, "running": False, "deadline": None, "remaining_seconds": None, "away_until": None, "bot": None,
         "timeouts_in_row": 0},
        {"seat": 1, "running": False, "deadline": None, "remaining_seconds": None, "away_until": None, "bot": None,
         "timeouts_in_row": 0},
    ],
}

GUARD_ON_BEN = {"card": "guard", "target": 1, "guess": "baron"}

CREATE_GAME = [
    OpenApiExample(
        "Love Letter for two", request_only=True,
        value={"game": "love-letter", "players": 2, "options": {"edition": "classic"}},
    ),
    OpenApiExample(
        "Private against a bot", summary="Private, against a bot, three days per move, weekends off",
        request_only=True,
        value={
            "game": "love-letter", "players": 2, "visibility": "private", "bots": {"1": "basic"},
            "time_control": {"kind": "per_move", "days_per_move": 3, "weekends_off": True, "expiry": "bot_turn"},
        },
    ),
    OpenApiExample("Open table", summary="The new table, waiting for players", response_only=True,
                   status_codes=[201], value=OPEN_TABLE),
]

GAME = [OpenApiExample("Game in play", summary="A game in play, as seat 0 sees it", response_only=True,
                       value=GAME_IN_PLAY)]

JOIN = [
    OpenApiExample("Public table", summary="A public table: no body needed", request_only=True, value={}),
    OpenApiExample("Private table", summary="A private table, with the code from its invite link",
                   request_only=True, value={"invite_code": "5eUjT0Hq2rW9nLkA"}),
    OpenApiExample("Game starts", summary="The last seat is taken: the game starts", response_only=True,
                   value=GAME_IN_PLAY),
]

LEGAL_MOVES = [
    OpenApiExample(
        "Love Letter turn", summary="Love Letter: a Guard on ben, or the Handmaid", response_only=True,
        value={"seq": 0, "moves": [
            {"move": {"card": "guard", "target": 1, "guess": "priest"}, "text": "guard ben priest"},
            {"move": GUARD_ON_BEN, "text": "guard ben baron"},
            {"move": {"card": "handmaid"}, "text": "handmaid"},
        ]},
    ),
]

_VIEW_AFTER_GUARD = {
    **GAME_IN_PLAY["view"], "current": 1, "hand": ["handmaid"], "deck_count": 8,
    "seats": [
        {**GAME_IN_PLAY["view"]["seats"][0], "hand_count": 1, "discard_total": 1,
         "discards": [{"card": "guard", "how": "played"}]},
        {**GAME_IN_PLAY["view"]["seats"][1], "hand_count": 2},
    ],
}

SUBMIT_MOVE = [
    OpenApiExample(
        "By text", summary="A move in the text notation, safe to retry", request_only=True,
        value={"text": "guard ben baron", "expected_seq": 0, "idempotency_key": "ann-42-0"},
    ),
    OpenApiExample(
        "By JSON", summary="A move as legal-moves lists it", request_only=True,
        value={"move": GUARD_ON_BEN, "expected_seq": 0},
    ),
    OpenApiExample(
        "Played", summary="The move is played; ben is to move", response_only=True, status_codes=[201],
        value={"seq": 1, "text": "guard ben baron", "replayed": False, "legal_moves": [], "game": {
            **GAME_IN_PLAY, "seq": 1, "to_move": [1], "last_move_at": "2025-03-01T10:00:00Z", "view": _VIEW_AFTER_GUARD,
        }},
    ),
    OpenApiExample(
        "Played, lean", summary="Sent with Prefer: return=minimal: what the mover needs", response_only=True,
        status_codes=[201],
        value={"seq": 1, "text": "guard ben baron", "replayed": False, "game_seq": 1, "status": "active",
               "to_move": [1], "view": _VIEW_AFTER_GUARD, "legal_moves": [], "result": None},
    ),
]

HISTORY = [
    OpenApiExample(
        "Guard that missed", summary="ann's Guard missed; ben drew", response_only=True,
        value={"next": None, "previous": None, "seq": 1, "results": [
            {"seq": 1, "seat": 0, "kind": "guard_played", "data": {**GUARD_ON_BEN, "seat": 0, "hit": False},
             "private": False, "text": "You played the Guard on ben, naming the Baron: miss."},
            {"seq": 1, "seat": 0, "kind": "drew", "data": {"seat": 1, "deck_count": 8, "protection_ended": False},
             "private": False, "text": "ben drew a card (8 left in the deck)."},
        ]},
    ),
]
