"""``Client``: every operation of the turnbased REST API (version 1) as a typed method.

    from turnbased_client import Client

    with Client("https://turnbased.example", token="...") as api:
        for turn in api.turns():
            moves = api.legal_moves(turn["game"])
            api.submit_move(turn["game"], expected_seq=moves["seq"], text=moves["moves"][0]["text"])

Each method calls one operation of ``/api/schema/`` (its ``@operation`` mark names it) and returns
the answer's JSON, typed by ``turnbased_client.types``. An answer of 4xx or 5xx raises ``ApiError``
(``status``, ``detail``); a server that cannot be reached raises ``ConnectionFailed``.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Mapping
from typing import Any, Literal

from turnbased_client import stream
from turnbased_client.core import UNSET, Unset, operation
from turnbased_client.competitions import CompetitionsApi
from turnbased_client.following import FollowingApi
from turnbased_client.groups import GroupsApi
from turnbased_client.types import (
    Absence, Absences, AccountCreated, Archive, BotAccount, ChatMessage, Contact, EventKind, FriendsTable, Game,
    GameNote, GameNoteOfGame, GamesWaiting, NoteMarkRequest, GameType, History, Proposal, ProposalList, SeatOffer, SeatOfferList,
    GameSummary, Invitation, Leaderboard, LegalMoves, MovePlayed, MovePlayedMinimal, MyInvitation, NewToken, Player, Position, PositionText, Profile,
    PushSubscription, PushSubscriptionKeys,
    RatingPool, Record, RecentOpponent, Rematch, TableRequirements, TableRequirementsRead, TimeControlRequest, Token, Turn, Verification, Visibility, Webhook,
    WebhookDelivery, WebhookWithSecret,
)

# Public methods that are not one operation of the schema, and why.
NOT_OPERATIONS = {
    "close": "closes the connections",
    "iter_results": "follows the next links of a list answer",
}


class Client(GroupsApi, CompetitionsApi, FollowingApi):
    """The turnbased API: ``Client(base_url, token)``; ``token`` may be left out to sign up or get one."""

    # -- accounts and tokens -------------------------------------------------------------------
    @operation("account_create", "POST", "/api/accounts/", body=("username", "email", "password"))
    def create_account(self, username: str, email: str, password: str) -> AccountCreated:
        """Sign up; no token until the link emailed to the address is followed."""
        return self._call("account_create", body={"username": username, "email": email, "password": password})

    @operation("auth_token_create", "POST", "/api/auth/token/",
               body=("username", "password", "name", "expires_in_days"), idempotent=True)
    def obtain_token(self, username: str, password: str, *, name: str | Unset = UNSET,
                     expires_in_days: int | None | Unset = UNSET) -> NewToken:
        """Log in with a username (or email address) and password: a new named token, its key in ``token``."""
        return self._call("auth_token_create", body={"username": username, "password": password, "name": name,
                                                     "expires_in_days": expires_in_days})

    @operation("tokens_list", "GET", "/api/tokens/", query=("page_size",), conditional=True, listed="")
    def tokens(self, *, page_size: int | Unset = UNSET) -> list[Token]:
        """My tokens (never their keys), newest first; ``current`` marks the one this client sends."""
        return self._call("tokens_list", query={"page_size": page_size})

    @operation("tokens_create", "POST", "/api/tokens/", body=("name", "expires_in_days"), idempotent=True)
    def create_token(self, name: str, *, expires_in_days: int | None | Unset = UNSET) -> NewToken:
        """Make another token (``expires_in_days=None``: never expires); its key is shown only this once."""
        return self._call("tokens_create", body={"name": name, "expires_in_days": expires_in_days})

    @operation("tokens_revoke", "DELETE", "/api/tokens/{token_id}/")
    def revoke_token(self, token_id: int) -> None:
        """Revoke a token: the next request with it answers 401."""
        return self._call("tokens_revoke", {"token_id": token_id})

    @operation("tokens_retrieve", "GET", "/api/tokens/{token_id}/", conditional=True)
    def api_token(self, token_id: int) -> Token:
        """One of my tokens (never its key)."""
        return self._call("tokens_retrieve", {"token_id": token_id})

    @operation("me_retrieve", "GET", "/api/me/", conditional=True)
    def me(self) -> Profile:
        """My language, time zone, reminder lead time and whether my forced moves are played for me."""
        return self._call("me_retrieve")

    @operation("me_push_subscriptions_list", "GET", "/api/me/push-subscriptions/", query=("page_size",),
               conditional=True, listed="")
    def push_subscriptions(self, *, page_size: int | Unset = UNSET) -> list[PushSubscription]:
        """The devices told of my turns (browsers subscribed to push), newest first."""
        return self._call("me_push_subscriptions_list", query={"page_size": page_size})

    @operation("me_push_subscriptions_create", "POST", "/api/me/push-subscriptions/", body=("endpoint", "keys"),
               idempotent=True)
    def subscribe_push(self, endpoint: str, keys: PushSubscriptionKeys) -> PushSubscription:
        """Tell a browser of my turns: what its ``PushSubscription.toJSON()`` gave (endpoint and keys)."""
        return self._call("me_push_subscriptions_create", body={"endpoint": endpoint, "keys": keys})

    @operation("me_push_subscriptions_retrieve", "GET", "/api/me/push-subscriptions/{subscription_id}/",
               conditional=True)
    def push_subscription(self, subscription_id: int) -> PushSubscription:
        """One of my devices told of my turns."""
        return self._call("me_push_subscriptions_retrieve", {"subscription_id": subscription_id})

    @operation("me_push_subscriptions_destroy", "DELETE", "/api/me/push-subscriptions/{subscription_id}/")
    def forget_push_subscription(self, subscription_id: int) -> None:
        """Forget one of my devices: no more pushes to it."""
        return self._call("me_push_subscriptions_destroy", {"subscription_id": subscription_id})

    @operation("me_partial_update", "PATCH", "/api/me/",
               body=("language", "time_zone", "reminder_lead_hours", "play_forced_moves"))
    def update_me(self, *, language: str | Unset = UNSET, time_zone: str | Unset = UNSET,
                  reminder_lead_hours: int | Unset = UNSET, play_forced_moves: bool | Unset = UNSET) -> Profile:
        """Change my language (``hu``, ``de``, ``en``; "" to follow the browser), time zone (an IANA name),
        reminder lead time (hours, 0: none), or whether my only legal move is played for me when I would have
        played it (``play_forced_moves``: on by default for a bot account; its program may answer first)."""
        return self._call("me_partial_update", body={"language": language, "time_zone": time_zone,
                                                     "reminder_lead_hours": reminder_lead_hours,
                                                     "play_forced_moves": play_forced_moves})

    @operation("absences_list", "GET", "/api/absences/", query=("page_size",), conditional=True, gathered=True)
    def absences(self, *, page_size: int | Unset = UNSET) -> Absences:
        """My current and coming absences (``results``, every page's), and the year's allowance."""
        return self._call("absences_list", query={"page_size": page_size})

    @operation("absences_create", "POST", "/api/absences/", body=("starts_on", "ends_on"), idempotent=True)
    def declare_absence(self, starts_on: str, ends_on: str) -> Absence:
        """Declare days away (ISO dates in my time zone, within one year): my clocks stop."""
        return self._call("absences_create", body={"starts_on": starts_on, "ends_on": ends_on})

    @operation("absences_end", "POST", "/api/absences/end/")
    def end_absence(self) -> None:
        """I am back: end my current absence now."""
        return self._call("absences_end")

    @operation("absences_destroy", "DELETE", "/api/absences/{absence_id}/")
    def withdraw_absence(self, absence_id: int) -> None:
        """Withdraw an absence that has not started."""
        return self._call("absences_destroy", {"absence_id": absence_id})

    @operation("absences_retrieve", "GET", "/api/absences/{absence_id}/", conditional=True)
    def absence(self, absence_id: int) -> Absence:
        """One of my absences (``ended_at``: when I came back from it)."""
        return self._call("absences_retrieve", {"absence_id": absence_id})

    @operation("me_bot_retrieve", "GET", "/api/me/bot/", conditional=True)
    def bot_account(self) -> BotAccount:
        """Whether my account is a bot account, or may become one (and why not)."""
        return self._call("me_bot_retrieve")

    @operation("me_bot_create", "POST", "/api/me/bot/", idempotent=True)
    def become_bot_account(self) -> BotAccount:
        """Make my account a bot account, for good (only one that has played nobody yet)."""
        return self._call("me_bot_create")

    # -- games ---------------------------------------------------------------------------------
    @operation("game_types_list", "GET", "/api/game-types/", conditional=True, listed="")
    def game_types(self) -> list[GameType]:
        """The games offered: player counts, options, bots, notation and static assets."""
        return self._call("game_types_list")

    @operation("games_list", "GET", "/api/games/", query=("page_size",), conditional=True, listed="")
    def games(self, *, page_size: int | Unset = UNSET) -> list[Game]:
        """My games, the newest table first (every page)."""
        return self._call("games_list", query={"page_size": page_size})

    @operation("games_open_list", "GET", "/api/games/open/", query=("page_size",), conditional=True, listed="")
    def open_games(self, *, page_size: int | Unset = UNSET) -> list[Game]:
        """The public tables taking players that I do not sit at, the newest first (every page)."""
        return self._call("games_open_list", query={"page_size": page_size})

    @operation("games_create", "POST", "/api/games/",
               body=("game", "players", "options", "visibility", "bots", "play", "time_control", "group",
                     "requirements"), idempotent=True)
    def create_game(self, game: str, *, players: int | Unset = UNSET, options: Mapping[str, Any] | Unset = UNSET,
                    visibility: Visibility | Unset = UNSET,
                    bots: Mapping[int, str] | Mapping[str, str] | Unset = UNSET,
                    play: bool | Unset = UNSET, time_control: TimeControlRequest | Unset = UNSET,
                    group: int | Unset = UNSET, requirements: TableRequirements | Unset = UNSET) -> Game:
        """Create a table of ``game`` (an engine slug), me in seat 0 unless ``play=False``, bots by seat; with
        ``group`` (a group's id), a table for that group's members alone; with ``requirements``, what it asks of
        whoever takes a seat."""
        seated_bots = UNSET if isinstance(bots, Unset) else {str(seat): name for seat, name in bots.items()}
        return self._call("games_create", body={
            "game": game, "players": players, "options": options, "visibility": visibility, "bots": seated_bots,
            "play": play, "time_control": time_control, "group": group, "requirements": requirements})

    @operation("games_requirements_retrieve", "GET", "/api/games/{game_id}/requirements/", conditional=True)
    def requirements(self, game_id: int) -> TableRequirementsRead:
        """What a table asks of whoever takes a seat, and why I may not (``unmet``), before joining."""
        return self._call("games_requirements_retrieve", {"game_id": game_id})

    @operation("games_retrieve", "GET", "/api/games/{game_id}/", query=("invite",), conditional=True)
    def game(self, game_id: int, *, invite: str | Unset = UNSET) -> Game:
        """One game as I may see it: seats, whose turn, my private ``view``, the result (ETag-cached)."""
        return self._call("games_retrieve", {"game_id": game_id}, query={"invite": invite})

    @operation("games_text", "GET", "/api/games/{game_id}/text/", conditional=True)
    def position_text(self, game_id: int) -> PositionText:
        """The position drawn in plain text as I may see it, and my legal moves in the notation (ETag-cached)."""
        return self._call("games_text", {"game_id": game_id})

    @operation("games_join", "POST", "/api/games/{game_id}/join/", body=("invite_code",), idempotent=True)
    def join(self, game_id: int, *, invite_code: str | Unset = UNSET) -> Game:
        """Take a free seat (a private table needs its invite code unless I was invited by name)."""
        return self._call("games_join", {"game_id": game_id}, body={"invite_code": invite_code})

    @operation("games_start", "POST", "/api/games/{game_id}/start/")
    def start(self, game_id: int) -> Game:
        """Start my table early with the players seated."""
        return self._call("games_start", {"game_id": game_id})

    @operation("games_leave", "POST", "/api/games/{game_id}/leave/")
    def leave(self, game_id: int) -> None:
        """Give up my seat at a table that has not started."""
        return self._call("games_leave", {"game_id": game_id})

    @operation("games_abort", "POST", "/api/games/{game_id}/abort/")
    def abort(self, game_id: int) -> Game:
        """Cancel my table before it starts."""
        return self._call("games_abort", {"game_id": game_id})

    @operation("games_resign", "POST", "/api/games/{game_id}/resign/")
    def resign(self, game_id: int) -> Game:
        """Leave a game in play for good."""
        return self._call("games_resign", {"game_id": game_id})

    # -- moves ---------------------------------------------------------------------------------
    @operation("me_turns", "GET", "/api/me/turns/", query=("page_size",), conditional=True, listed="")
    def turns(self, *, page_size: int | Unset = UNSET) -> list[Turn]:
        """The games waiting for my move, the longest waiting first (``seq`` is the ``expected_seq`` to send)."""
        return self._call("me_turns", query={"page_size": page_size})

    @operation("me_waiting_retrieve", "GET", "/api/me/waiting/", conditional=True)
    def waiting(self) -> GamesWaiting:
        """The games waiting on me, the site's limits, and how many more seats I may take (``may_join``)."""
        return self._call("me_waiting_retrieve")

    @operation("legal_moves_list", "GET", "/api/games/{game_id}/legal-moves/", conditional=True)
    def legal_moves(self, game_id: int) -> LegalMoves:
        """My legal moves now, each as the game's JSON and in the text notation (ETag-cached)."""
        return self._call("legal_moves_list", {"game_id": game_id})

    @operation("moves_create", "POST", "/api/games/{game_id}/moves/",
               body=("move", "text", "expected_seq", "idempotency_key"), idempotent=True)
    def submit_move(self, game_id: int, *, expected_seq: int, move: Mapping[str, Any] | Unset = UNSET,
                    text: str | Unset = UNSET, idempotency_key: str | Unset = UNSET,
                    minimal: bool = True) -> MovePlayed | MovePlayedMinimal:
        """Play ``move`` (JSON, as legal-moves lists it) or ``text`` (the notation) at position ``expected_seq``.

        The answer carries ``legal_moves``: mine when I am to act again at once (the Chancellor's second step),
        else empty. It is what the mover needs (``MovePlayedMinimal``: the position, whose turn, my view, my
        legal moves, the result; ``Prefer: return=minimal``). ``minimal=False`` asks for the whole ``game``
        besides, which the API deprecates (it goes on 2027-06-02: ``game()`` reads it instead). Without an
        ``idempotency_key`` one is made up, so sending the same call again after a timeout plays nothing
        twice: pass your own to retry across runs. A stale ``expected_seq`` raises ``ApiError`` 409 whose
        ``current_seq`` and ``body["game"]`` hold the position now.
        """
        key = idempotency_key if not isinstance(idempotency_key, Unset) else uuid.uuid4().hex
        return self._call("moves_create", {"game_id": game_id}, body={
            "move": move, "text": text, "expected_seq": expected_seq, "idempotency_key": key},
            headers={"Prefer": "return=minimal"} if minimal else None)

    @operation("history_list", "GET", "/api/games/{game_id}/history/", query=("since", "page_size"),
               conditional=True, gathered=True)
    def history(self, game_id: int, *, since: int | Unset = UNSET, page_size: int | Unset = UNSET) -> History:
        """The events I may see after position ``since`` (``results``, every page's), each described for me.

        Poll a game with ``since`` set to the ``seq`` of the last answer.
        """
        return self._call("history_list", {"game_id": game_id}, query={"since": since, "page_size": page_size})

    @operation("positions_retrieve", "GET", "/api/games/{game_id}/positions/{seq}/", conditional=True)
    def position(self, game_id: int, seq: int) -> Position:
        """The replay: the game at position ``seq`` as I may see it, and what that move did."""
        return self._call("positions_retrieve", {"game_id": game_id, "seq": seq})

    @operation("games_record", "GET", "/api/games/{game_id}/record/")
    def record(self, game_id: int) -> Record:
        """The game's record (complete once it is over)."""
        return self._call("games_record", {"game_id": game_id})

    @operation("games_verify", "GET", "/api/games/{game_id}/verify/", conditional=True)
    def verify(self, game_id: int) -> Verification:
        """The server's check of a finished game's record against its committed seed."""
        return self._call("games_verify", {"game_id": game_id})

    # -- invitations ---------------------------------------------------------------------------
    @operation("games_invitations_list", "GET", "/api/games/{game_id}/invitations/", query=("page_size",),
               conditional=True, listed="")
    def game_invitations(self, game_id: int, *, page_size: int | Unset = UNSET) -> list[Invitation]:
        """The invitations to one of my tables, the first invited first."""
        return self._call("games_invitations_list", {"game_id": game_id}, query={"page_size": page_size})

    @operation("games_invitations_create", "POST", "/api/games/{game_id}/invitations/", body=("username",),
               idempotent=True)
    def invite(self, game_id: int, username: str) -> Invitation:
        """Invite a person by username to my table."""
        return self._call("games_invitations_create", {"game_id": game_id}, body={"username": username})

    @operation("games_invitations_retrieve", "GET", "/api/games/{game_id}/invitations/{invitation_id}/",
               conditional=True)
    def invitation(self, game_id: int, invitation_id: int) -> Invitation:
        """One invitation to a table I play at, and where it stands."""
        return self._call("games_invitations_retrieve", {"game_id": game_id, "invitation_id": invitation_id})

    @operation("games_invitations_decline", "POST", "/api/games/{game_id}/invitations/decline/")
    def decline_invitation(self, game_id: int) -> None:
        """Decline my invitation to a table."""
        return self._call("games_invitations_decline", {"game_id": game_id})

    @operation("invitations_list", "GET", "/api/invitations/", query=("page_size",), conditional=True, listed="")
    def my_invitations(self, *, page_size: int | Unset = UNSET) -> list[MyInvitation]:
        """The tables I am invited to, the newest invitation first."""
        return self._call("invitations_list", query={"page_size": page_size})

    @operation("invitations_people", "GET", "/api/invitations/people/", query=("page_size",), conditional=True,
               listed="")
    def people_i_played_with(self, *, page_size: int | Unset = UNSET) -> list[RecentOpponent]:
        """The people I played with, the latest first: whom I may invite by name."""
        return self._call("invitations_people", query={"page_size": page_size})

    # -- table talk ----------------------------------------------------------------------------
    @operation("messages_list", "GET", "/api/games/{game_id}/messages/", query=("after", "page_size"),
               conditional=True, listed="")
    def messages(self, game_id: int, *, after: int | Unset = UNSET,
                 page_size: int | Unset = UNSET) -> list[ChatMessage]:
        """The table talk I may read, oldest first, after message id ``after`` (every page).

        Poll the chat with ``after`` set to the last message's id.
        """
        return self._call("messages_list", {"game_id": game_id}, query={"after": after, "page_size": page_size})

    @operation("messages_create", "POST", "/api/games/{game_id}/messages/", body=("text",), idempotent=True)
    def send_message(self, game_id: int, text: str) -> ChatMessage:
        """Say something at the table (players only, 1 to 500 characters)."""
        return self._call("messages_create", {"game_id": game_id}, body={"text": text})

    @operation("messages_retrieve", "GET", "/api/games/{game_id}/messages/{message_id}/", conditional=True)
    def message(self, game_id: int, message_id: int) -> ChatMessage:
        """One message of the table talk I may read."""
        return self._call("messages_retrieve", {"game_id": game_id, "message_id": message_id})

    # -- private notes -------------------------------------------------------------------------
    @operation("game_notes_read", "GET", "/api/games/{game_id}/notes/", conditional=True)
    def notes(self, game_id: int) -> GameNoteOfGame:
        """My private notes on a game I play (``text`` empty before I wrote any), my marks on its cards and tiles,
        and the ``spots`` I may mark now; nobody else reads them."""
        return self._call("game_notes_read", {"game_id": game_id})

    @operation("game_notes_write", "PUT", "/api/games/{game_id}/notes/", body=("text", "marks"))
    def keep_notes(self, game_id: int, text: str | Unset = UNSET, *,
                   marks: list[NoteMarkRequest] | Unset = UNSET) -> GameNoteOfGame:
        """Replace my notes on a game I play: their ``text``, their ``marks`` (each ``{spot, symbol, label?}``), or
        both; what is left out stays, and notes with neither are deleted."""
        return self._call("game_notes_write", {"game_id": game_id}, body={"text": text, "marks": marks})

    @operation("game_notes_delete", "DELETE", "/api/games/{game_id}/notes/")
    def delete_notes(self, game_id: int) -> None:
        """Delete my notes on a game."""
        return self._call("game_notes_delete", {"game_id": game_id})

    @operation("my_notes_list", "GET", "/api/me/notes/", query=("page_size",), conditional=True, listed="")
    def my_notes(self, *, page_size: int | Unset = UNSET) -> list[GameNote]:
        """All my notes, on every game (every page): my export."""
        return self._call("my_notes_list", query={"page_size": page_size})

    # -- after the game ------------------------------------------------------------------------
    # -- agreements at the table --------------------------------------------------------------
    @operation("proposals_list", "GET", "/api/games/{game_id}/proposals/", conditional=True)
    def proposals(self, game_id: int) -> ProposalList:
        """The proposal waiting at a table I play (or None), whether I may ask for my last move back, the latest."""
        return self._call("proposals_list", {"game_id": game_id})

    @operation("proposal_make", "POST", "/api/games/{game_id}/proposals/", body=("kind", "days", "seat"),
               idempotent=True)
    def propose(self, game_id: int, kind: Literal["pause", "extra_time", "draw", "cancel"], *,
                days: int | Unset = UNSET, seat: int | Unset = UNSET) -> Proposal:
        """Propose to the others at my table a pause of its clocks (``days``), extra time for ``seat`` (``days``), a
        draw or a cancel; carried when all agree (``status`` ``accepted`` at once when nobody else need agree)."""
        return self._call("proposal_make", {"game_id": game_id}, body={"kind": kind, "days": days, "seat": seat})

    @operation("takeback_ask", "POST", "/api/games/{game_id}/takebacks/", idempotent=True)
    def ask_takeback(self, game_id: int) -> Proposal:
        """Ask the others at the table to let me take back my last move (``status`` ``accepted`` at once when nobody
        else need agree)."""
        return self._call("takeback_ask", {"game_id": game_id})

    @operation("proposal_answer", "POST", "/api/games/{game_id}/proposals/{proposal_id}/answer/", body=("accept",),
               idempotent=True)
    def answer_proposal(self, game_id: int, proposal_id: int, accept: bool) -> Proposal:
        """Accept or decline a proposal waiting at my table; the last acceptance carries it."""
        return self._call("proposal_answer", {"game_id": game_id, "proposal_id": proposal_id},
                          body={"accept": accept})

    @operation("proposal_withdraw", "DELETE", "/api/games/{game_id}/proposals/{proposal_id}/")
    def withdraw_proposal(self, game_id: int, proposal_id: int) -> Proposal:
        """Withdraw my proposal while it waits."""
        return self._call("proposal_withdraw", {"game_id": game_id, "proposal_id": proposal_id})

    # -- seats changing hands ----------------------------------------------------------------
    @operation("seat_offers_list", "GET", "/api/seat-offers/", conditional=True)
    def seat_offers(self) -> SeatOfferList:
        """The seats of games in play offered to me by name, then the ones listed in the lobby."""
        return self._call("seat_offers_list")

    @operation("seat_offer_make", "POST", "/api/games/{game_id}/seat-offers/", body=("seat", "username"),
               idempotent=True)
    def offer_seat(self, game_id: int, seat: int, *, username: str | Unset = UNSET) -> SeatOffer:
        """Offer a seat a bot took over (to ``username``, or listed in the lobby) or hand on my own (to
        ``username``)."""
        return self._call("seat_offer_make", {"game_id": game_id}, body={"seat": seat, "username": username})

    @operation("seat_offer_retrieve", "GET", "/api/seat-offers/{offer_id}/", conditional=True)
    def seat_offer(self, offer_id: int) -> SeatOffer:
        """One seat offer."""
        return self._call("seat_offer_retrieve", {"offer_id": offer_id})

    @operation("seat_offer_accept", "POST", "/api/seat-offers/{offer_id}/accept/", idempotent=True)
    def take_seat(self, offer_id: int) -> SeatOffer:
        """Take the seat offered: I play it from now on, and see what it may see."""
        return self._call("seat_offer_accept", {"offer_id": offer_id})

    @operation("seat_offer_decline", "POST", "/api/seat-offers/{offer_id}/decline/")
    def decline_seat(self, offer_id: int) -> SeatOffer:
        """Turn down a seat offered to me by name."""
        return self._call("seat_offer_decline", {"offer_id": offer_id})

    @operation("seat_offer_withdraw", "DELETE", "/api/seat-offers/{offer_id}/")
    def withdraw_seat_offer(self, offer_id: int) -> SeatOffer:
        """Withdraw my seat offer while it is open."""
        return self._call("seat_offer_withdraw", {"offer_id": offer_id})

    @operation("rematch_retrieve", "GET", "/api/games/{game_id}/rematch/", conditional=True)
    def rematch(self, game_id: int) -> Rematch:
        """The rematch of a finished game, if one was proposed."""
        return self._call("rematch_retrieve", {"game_id": game_id})

    @operation("game_summary_retrieve", "GET", "/api/games/{game_id}/summary/", conditional=True)
    def game_summary(self, game_id: int) -> GameSummary:
        """A finished game in short: each player's moves and time, and where the lead changed hands."""
        return self._call("game_summary_retrieve", {"game_id": game_id})

    @operation("rematch_create", "POST", "/api/games/{game_id}/rematch/", idempotent=True)
    def propose_rematch(self, game_id: int) -> Rematch:
        """Propose a rematch of a finished game (or get the one proposed)."""
        return self._call("rematch_create", {"game_id": game_id})

    @operation("rematch_accept", "POST", "/api/games/{game_id}/rematch/accept/", idempotent=True)
    def accept_rematch(self, game_id: int) -> Rematch:
        """Accept the rematch: take my seat at its table."""
        return self._call("rematch_accept", {"game_id": game_id})

    @operation("rematch_decline", "POST", "/api/games/{game_id}/rematch/decline/")
    def decline_rematch(self, game_id: int) -> Rematch:
        """Decline the rematch."""
        return self._call("rematch_decline", {"game_id": game_id})

    # -- ratings and players -------------------------------------------------------------------
    @operation("ratings_list", "GET", "/api/ratings/", query=("game", "players", "pool", "page_size"),
               conditional=True, gathered=True)
    def ratings(self, game: str, *, players: int | Unset = UNSET, pool: RatingPool | Unset = UNSET,
                page_size: int | Unset = UNSET) -> Leaderboard:
        """The leaderboard of ``game`` at a player count in a pool (people, or bots): every page's entries."""
        return self._call("ratings_list", query={"game": game, "players": players, "pool": pool,
                                                 "page_size": page_size})

    @operation("players_retrieve", "GET", "/api/players/{username}/", conditional=True)
    def player(self, username: str) -> Player:
        """A player's ratings, finished games and reliability."""
        return self._call("players_retrieve", {"username": username})

    @operation("players_games_list", "GET", "/api/players/{username}/games/",
               query=("game", "opponent", "page_size"), conditional=True, gathered=True)
    def player_games(self, username: str, *, game: str | Unset = UNSET, opponent: str | Unset = UNSET,
                     page_size: int | Unset = UNSET) -> Archive:
        """A player's finished games I may see, the newest end first (every page's, in ``results``)."""
        return self._call("players_games_list", {"username": username},
                          query={"game": game, "opponent": opponent, "page_size": page_size})

    # -- webhooks ------------------------------------------------------------------------------
    @operation("webhooks_list", "GET", "/api/webhooks/", query=("page_size",), conditional=True, listed="")
    def webhooks(self, *, page_size: int | Unset = UNSET) -> list[Webhook]:
        """My webhooks (never their secrets)."""
        return self._call("webhooks_list", query={"page_size": page_size})

    @operation("webhooks_create", "POST", "/api/webhooks/", body=("url", "kinds"), idempotent=True)
    def create_webhook(self, url: str, *, kinds: list[EventKind] | Unset = UNSET) -> WebhookWithSecret:
        """Register a URL to be sent my events (``kinds``: all of them if left out); its ``secret`` is shown once."""
        return self._call("webhooks_create", body={"url": url, "kinds": kinds})

    @operation("webhooks_retrieve", "GET", "/api/webhooks/{webhook_id}/", conditional=True)
    def webhook(self, webhook_id: int) -> Webhook:
        """One of my webhooks: whether it is active, and its failures."""
        return self._call("webhooks_retrieve", {"webhook_id": webhook_id})

    @operation("webhooks_partial_update", "PATCH", "/api/webhooks/{webhook_id}/", body=("url", "kinds", "active"))
    def update_webhook(self, webhook_id: int, *, url: str | Unset = UNSET, kinds: list[EventKind] | Unset = UNSET,
                       active: bool | Unset = UNSET) -> Webhook:
        """Change a webhook's URL or kinds, or turn it off or on again (``active``)."""
        return self._call("webhooks_partial_update", {"webhook_id": webhook_id},
                          body={"url": url, "kinds": kinds, "active": active})

    @operation("webhooks_destroy", "DELETE", "/api/webhooks/{webhook_id}/")
    def delete_webhook(self, webhook_id: int) -> None:
        """Delete a webhook and its delivery log."""
        return self._call("webhooks_destroy", {"webhook_id": webhook_id})

    @operation("webhook_deliveries_list", "GET", "/api/webhooks/{webhook_id}/deliveries/", query=("page_size",),
               conditional=True, listed="")
    def webhook_deliveries(self, webhook_id: int, *, page_size: int | Unset = UNSET) -> list[WebhookDelivery]:
        """A webhook's delivery log: each delivery's state, attempts and the receiver's last answer."""
        return self._call("webhook_deliveries_list", {"webhook_id": webhook_id}, query={"page_size": page_size})

    @operation("webhooks_ping", "POST", "/api/webhooks/{webhook_id}/ping/")
    def ping_webhook(self, webhook_id: int) -> WebhookDelivery:
        """Send the webhook a ``ping`` delivery now, to check the receiver."""
        return self._call("webhooks_ping", {"webhook_id": webhook_id})

    @operation("webhooks_rotate_secret", "POST", "/api/webhooks/{webhook_id}/rotate-secret/")
    def rotate_webhook_secret(self, webhook_id: int) -> WebhookWithSecret:
        """Give a webhook a new secret (shown only this once); the old one signs nothing more."""
        return self._call("webhooks_rotate_secret", {"webhook_id": webhook_id})

    # -- friends and blocks --------------------------------------------------------------------
    @operation("following_list", "GET", "/api/me/following/", query=("page_size",), conditional=True, listed="")
    def following(self, *, page_size: int | Unset = UNSET) -> list[Contact]:
        """The players I follow, the latest first."""
        return self._call("following_list", query={"page_size": page_size})

    @operation("following_create", "POST", "/api/me/following/", body=("username",), idempotent=True)
    def follow(self, username: str) -> Contact:
        """Follow a player (they are not told): their open tables and games show among my friends'."""
        return self._call("following_create", body={"username": username})

    @operation("following_destroy", "DELETE", "/api/me/following/{username}/")
    def unfollow(self, username: str) -> None:
        """Stop following a player."""
        return self._call("following_destroy", {"username": username})

    @operation("blocked_list", "GET", "/api/me/blocked/", query=("page_size",), conditional=True, listed="")
    def blocked(self, *, page_size: int | Unset = UNSET) -> list[Contact]:
        """The players I blocked, the latest first."""
        return self._call("blocked_list", query={"page_size": page_size})

    @operation("blocked_create", "POST", "/api/me/blocked/", body=("username",), idempotent=True)
    def block(self, username: str) -> Contact:
        """Block a player, silently: they cannot sit with me, invite me or write to me at a table."""
        return self._call("blocked_create", body={"username": username})

    @operation("blocked_destroy", "DELETE", "/api/me/blocked/{username}/")
    def unblock(self, username: str) -> None:
        """Unblock a player."""
        return self._call("blocked_destroy", {"username": username})

    @operation("friends_tables_list", "GET", "/api/friends/tables/", query=("page_size",), conditional=True,
               listed="")
    def friends_tables(self, *, page_size: int | Unset = UNSET) -> list[FriendsTable]:
        """The public tables taking players at which someone I follow sits, the newest first."""
        return self._call("friends_tables_list", query={"page_size": page_size})

    @operation("friends_games_list", "GET", "/api/friends/games/", query=("page_size",), conditional=True, listed="")
    def friends_games(self, *, page_size: int | Unset = UNSET) -> list[FriendsTable]:
        """The public games in play at which someone I follow sits."""
        return self._call("friends_games_list", query={"page_size": page_size})

    # -- the event stream ----------------------------------------------------------------------
    @operation("stream", "GET", "/api/stream/", query=("last_event_id", "include"))
    def stream_events(self, last_event_id: str | int | None = None, *, reconnect: bool = True,
                      opened: bool = False, renew_after: float | None = None,
                      include: str | None = None) -> Iterator[stream.StreamEvent]:
        """Yield my events as they happen, from the stream at ``stream_url``, resuming after ``last_event_id``.

        Each event's ``data`` is ``{id, kind, game, seq, created_at, data}`` (``data``: the kind's payload,
        as my seat may see it). A dropped connection is opened again with the last event's id, so no event
        is missed; ``"0"`` asks for every event kept. With ``opened``, a ``stream.OPENED`` marker comes each
        time a connection opens (list what waited before it then); ``renew_after`` seconds renews the
        connection that often. With ``include="actions"``, a ``your_turn`` still current carries my ``view``
        and ``legal_moves`` in its payload: answer it with ``submit_move`` alone. Raises ``ApiError`` (404 on
        a server without the stream, 401 for a bad token).
        """
        return stream.read_stream(self.http, last_event_id=None if last_event_id is None else str(last_event_id),
                                  reconnect=reconnect, sleep=self._sleep, url=self.stream_url + stream.STREAM_PATH,
                                  opened=opened, renew_after=renew_after, include=include)
