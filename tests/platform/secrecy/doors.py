"""Every door through which a person can read something: each URL of the site, and the emails.

``routes()`` walks the URL configuration itself, so a page or endpoint added
later is walked too: any route whose path needs only a game id, an invite code,
an unsubscribe token, a username or a game's slug is fetched with GET for every viewer; a route that
refuses GET must say here which harmless POSTs to send it (``POSTS``), and a
route that can be neither must say why it is left out (``LEFT_OUT``), or
``test_every_route_is_walked_or_explained`` fails.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any, Callable

from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.platform.conftest import api_token
from turnbased.chat.models import Message
from turnbased.groups.selectors import group_of_table
from turnbased.mail import compose
from turnbased.mail.tokens import unsubscribe_token
from turnbased.play.models import Invitation
from turnbased.agreements.models import Proposal
from turnbased.following.models import Watch
from turnbased.seats.models import SeatOffer

# Whole parts of the site that show no game to anyone but staff or a mail provider.
LEFT_OUT_PREFIXES = {
    "admin/": "Django admin: staff only (test_admin_shows_players_nothing checks a player gets the login page)",
    "anymail/": "provider webhooks: they take mail in and answer a provider, never show a game",
}
# Single routes that are not walked, and why.
LEFT_OUT = {
    "account_confirm_email": "a key mailed to the address's owner: the page names the account, no game",
    "account_reset_password_from_key": "a key mailed to the account's owner: a password form, no game",
    "api-token-detail": "one of the caller's own API tokens, by its id: a name and times, no game",
    "api-schema": "the API's description, generated from the code alone: it holds no game",
    "api-docs": "the page that shows the API's description (api-schema): it holds no game",
    "api-absence": "a user's own absence, by its id: dates only, no game",
    "api-game-takebacks": "asking for a takeback changes the table when the game allows it: each blind seat's ask, "
                          "and the reason a refusal gives, is compared at the end of every scenario "
                          "(test_every_door._takebacks_asked)",
    "mailbox-message": "the development mailbox: DEBUG only, 404 otherwise (test_mailbox_is_off_without_debug)",
    # Issue 15, webhooks: what a hook is sent is compared between the twin worlds in test_webhooks.py.
    "api-webhook": "a user's own webhook, by its id: its URL, kinds and state, no game; another user's answers 404 "
                   "(tests/platform/webhooks/test_api.py)",
    "api-webhook-deliveries": "a user's own webhook's delivery log: kinds, states, times and their receiver's "
                              "answers, never an event's payload; another user's answers 404 (test_api.py)",
    # Issue 25, push notifications: what a push says is checked in tests/platform/notifications/test_push.py.
    "api-me-push-subscription": "one of the user's own devices told of their turns, by its id: its endpoint, "
                                "browser and times, no game; another user's answers 404 (notifications/test_api.py)",
    # Issue 45, competitions: the walk's table is no competition's; every door of a competition (its page, CSV,
    # lists, API, the stream's events) is read by twin worlds whose competition's game differs only in what is
    # hidden, in test_competitions.py.
    **{name: "a competition's door: compared between twin worlds in test_competitions.py" for name in (
        "competition-list", "competition-detail", "competition-standings-csv", "api-competitions",
        "api-my-competitions", "api-competition", "api-competition-entrants", "api-competition-standings",
        "api-competition-rounds")},
    "competition-new": "the form that makes a competition: the games offered and the viewer's groups, no game",
    "competition-cancel": "asks a competition's organiser to confirm calling it off: its name, no game",
    "game-asset": "a game's static asset (Engine.assets), by slug, name and digest: the same for every game and"
                  " viewer (test_engine_contract checks no state changes it), linked from the walked pages",
}

# How to fill a path's parameters for a world and a viewer.
PARAMETERS: dict[str, Callable[["Door", Any], str]] = {
    "game_id": lambda door, user: str(door.game.pk),
    "invite_code": lambda door, user: door.game.invite_code,
    "token": lambda door, user: unsubscribe_token(user.pk) if user is not None else "not-a-token",
    # A player's page and archive, and the leaderboard of the game being played: the creator's here, and every
    # seated player's in ``read_all`` (a seat's page must not tell of its moves either: their reliability).
    "username": lambda door, user: door.game.created_by.get_username(),
    "game_slug": lambda door, user: door.game.engine,
    # A position of the game (the replay): ``read_all`` walks every one, from the start to now.
    "seq": lambda door, user: str(door.game.seq),
    # The table talk's first message and the table's first invitation (0 where there is none: a 404 to everyone).
    "message_id": lambda door, user: str(_first_id(Message.objects.filter(game=door.game))),
    "invitation_id": lambda door, user: str(_first_id(Invitation.objects.filter(game=door.game))),
    # Issue 44: the group the table is kept for (0 where there is none: a 404 to everyone). What a group's pages
    # and lists show of its tables is compared in test_groups.py, where the table is a group's.
    "group_id": lambda door, user: str(group_of_table(door.game.pk) or 0),
    # Issue 46: the table's first proposal (a takeback asked for; 0 where there is none).
    "proposal_id": lambda door, user: str(_first_id(Proposal.objects.filter(game=door.game))),
    # Issue 46: the table's first seat offer (0 where there is none: a 404 to everyone).
    "offer_id": lambda door, user: str(_first_id(SeatOffer.objects.filter(game=door.game))),
    # The confirm step of a proposal put to a vote: a draw's (whether a table may be drawn reads nothing hidden; a
    # proposal made through the API is compared in test_every_door._takeback_asked).
    "kind": lambda door, user: "draw",
    # Issue 46: the viewer's first watch (0 where they follow nothing: a 404). What a follower reads of a followed
    # game (the feed, its lists, its emails and events) is compared between twin worlds in test_following.py.
    "watch_id": lambda door, user: str(_first_id(Watch.objects.filter(user=user)) if user is not None else 0),
}


def _first_id(rows) -> int:
    return rows.order_by("pk").values_list("pk", flat=True).first() or 0


def _move_posts(game, api: bool) -> list[dict]:
    """Moves that change nothing: a stale position, a move no game has, a text no game reads."""
    stale, current = game.seq + 5, game.seq
    bodies = [
        {"expected_seq": stale, "move": {"card": "guard", "x": 0}},
        {"expected_seq": current, "move": {"no": "such move"}},
        {"expected_seq": current, "text": "xyzzy plugh"},
    ]
    if api:
        return bodies
    return [{**body, "move": json.dumps(body["move"])} if "move" in body else body for body in bodies]


# Routes that refuse GET: the POSTs sent to them, none of which may change anything in a game in
# play (so resigning is sent only by viewers without a seat, who are refused).
POSTS: dict[str, Callable[[Any], list[dict]]] = {
    "game-move": lambda game: _move_posts(game, api=False),
    "api-moves": lambda game: _move_posts(game, api=True),
    "game-join": lambda game: [{}],
    "api-game-join": lambda game: [{}],
    "game-start": lambda game: [{}],
    "api-game-start": lambda game: [{}],
    "game-leave": lambda game: [{}],
    "api-game-leave": lambda game: [{}],
    "game-abort": lambda game: [{}],
    "api-game-abort": lambda game: [{}],
    "game-resign": lambda game: [{}],
    "api-game-resign": lambda game: [{}],
    # Table talk: posts the chat refuses (nothing to say, too long), a mute of nobody, a report of no message,
    # a read mark that is not an id.
    "chat-post": lambda game: [{"text": "   "}, {"text": "x" * 501}],
    "chat-mute": lambda game: [{"username": "nobody-by-this-name"}, {"username": "nobody", "action": "unmute"}],
    "chat-report": lambda game: [{"message": "0"}, {"message": "not a number"}],
    "chat-read": lambda game: [{"last": "x"}],
    # Invitations: a name nobody has, and declining without an invitation; both refused.
    "game-invitations": lambda game: [{"username": "nobody-by-this-name"}],
    "game-invitation-decline": lambda game: [{}],
    "api-game-invitation-decline": lambda game: [{}],
    # The time-zone offer: a name that is no zone, refused (a real one would move the viewer's deadlines).
    "account-time-zone": lambda game: [{"time_zone": "Not/A_Zone", "next": f"/games/{game.pk}/"}],
    # A rematch follows only a finished game: on a game in play each answers 409 or 404 and changes nothing.
    "game-rematch": lambda game: [{}],
    "game-rematch-accept": lambda game: [{}],
    "game-rematch-decline": lambda game: [{}],
    "api-game-rematch-accept": lambda game: [{}],
    "api-game-rematch-decline": lambda game: [{}],
    # Issue 46, agreements: an answer that is not yes or no, a withdrawal by the API's POST (405), and the page's
    # answer and withdrawal of the table's first proposal (none, or one settled: 404 or 409 to everyone).
    "api-game-proposal-answer": lambda game: [{"accept": "maybe"}],
    "api-game-proposal": lambda game: [{}],
    "game-proposal-answer": lambda game: [{"accept": "yes"}],
    "game-proposal-withdraw": lambda game: [{}],
    # Issue 46, seats changing hands: an offer of a seat to nobody there is (a 404 to a player, 403 to anyone else:
    # the same in both worlds), and the table's first offer taken up, declined, withdrawn (none: 404 to everyone).
    "api-game-seat-offers": lambda game: [{"seat": 0, "username": "nobody-sits-here"}],
    "api-seat-offer-accept": lambda game: [{}],
    "api-seat-offer-decline": lambda game: [{}],
    "seat-offer-accept": lambda game: [{}],
    "seat-offer-decline": lambda game: [{}],
    "seat-offer-withdraw": lambda game: [{}],
    # Issue 46, marks in private notes: a mark of no symbol, and taking off a mark on no card (both change nothing).
    "game-note-marks": lambda game: [{"spot": "nowhere", "symbol": "heart"}],
    "game-note-mark-remove": lambda game: [{"spot": "nowhere"}],
}
# Routes fetched again with the queries a page sends later (and as htmx asks, where that answers
# differently): a poll from an older position, which gets the history entries since then; older
# history, a page at a time.
def _polls(game) -> list[tuple[str, dict]]:
    seated = game.seats.count()
    return [(f"?seq={seq}&status={game.status}&seated={seated}", {}) for seq in sorted({0, max(0, game.seq - 1)})]


def _older_history(game) -> list[tuple[str, dict]]:
    return [(f"?before={before}", headers) for before in sorted({1, max(1, game.seq)})
            for headers in ({}, {"HTTP_HX_REQUEST": "true"})]


def _every_position(game) -> list[tuple[str, dict]]:
    """Every position of the replay from the start to now (the path's own seq is the latest)."""
    return [(f"?seq={seq}", {}) for seq in range(game.seq + 1)]


def _chat_polls(game) -> list[tuple[str, dict]]:
    """The chat's poll from the start, as a player who thinks it is or is not their turn, and the API's pages."""
    return [("?after=0", {}), ("?after=0&turn=0", {}), ("?after=0&turn=1", {})]


VARIANTS: dict[str, Callable[[Any], list[tuple[str, dict]]]] = {
    "game-panel": _polls,
    "game-history": _older_history,
    "chat-poll": _chat_polls,
    "api-messages": lambda game: [("?after=0&page_size=1", {})],
    "lobby-changes": lambda game: [("?v=0", {})],
    "game-replay": _every_position,
    # The event stream (issue 15) from the start: every event kept for the viewer, worded for their seat; and with
    # the actions a current turn carries (issue 26: the seat's view and legal moves).
    "api-stream": lambda game: [("?last_event_id=0", {}), ("?last_event_id=0&include=actions", {})],
}
SEATED_MAY_NOT_POST = {"game-resign", "api-game-resign"}  # would end the game: only the seatless try
# POST-only routes with nothing of a game to show, and what they do instead.
POST_ONLY_WITHOUT_GAMES = {
    # Issue 44, friends and blocks: what the lists of friends' games show is compared in test_friends.py.
    "contacts-follow": "follows a player by name: answers with a redirect, the caller's own list changed",
    "contacts-unfollow": "stops following a player by name: answers with a redirect",
    "contacts-block": "blocks a player by name: answers with a redirect (the blocked player is told nothing)",
    "contacts-unblock": "unblocks a player by name: answers with a redirect",
    "api-following-detail": "DELETE only: stops following the player the path names; answers 204",
    "api-blocked-detail": "DELETE only: unblocks the player the path names; answers 204",
    # Issue 44, groups: who is in a group changes; what a group's pages and lists show of its games is compared in
    # test_groups.py (the walk's table is no group's: group_id is 0, so each answers 404 here anyway).
    "api-group-owner": "hands a group over to a member: answers with the new owner's membership",
    "api-group-request": "accepts or declines a request to join a group: answers with the membership, or 204",
    "api-my-group-invitation": "accepts or declines the caller's invitation to a group: the membership, or 204",
    "groups-join": "joins a group, or asks to: answers with a redirect",
    "groups-request-withdraw": "takes back the caller's request to join a group: answers with a redirect",
    "groups-request-answer": "accepts or declines a request to join a group: answers with a redirect",
    "groups-invite": "invites a player to a group by name: answers with a redirect",
    "groups-invitation-withdraw": "withdraws a group's invitation: answers with a redirect",
    "groups-invitation-answer": "accepts or declines the caller's invitation to a group: answers with a redirect",
    "groups-role": "makes a member an admin, or a member again: answers with a redirect",
    # Issue 45, competitions: who is entered changes; what a competition's pages and lists show of its games is
    # compared in test_competitions.py (the walk's table is no competition's: each answers 404 here anyway).
    "competition-enter": "enters the caller in a competition: answers with a redirect",
    "competition-withdraw": "withdraws the caller from a competition: answers with a redirect",
    "competition-invite": "invites a player to a competition by name: answers with a redirect",
    "competition-remove": "withdraws an entrant by name (the organiser): answers with a redirect",
    "api-competition-cancel": "calls a competition off (the organiser): answers with the competition",
    "api-competition-entry": "POST enters the caller, DELETE withdraws them: answers with the entry's state, or 204",
    "api-competition-invitations": "invites a player by name (the organiser): answers with the name",
    "api-competition-entrant": "DELETE only: withdraws the entrant the path names (the organiser); answers 204",
    "competition-challenge": "challenges a player on a ladder by name: answers with a redirect",
    "api-competition-challenges": "challenges a player on a ladder by name: answers with the challenge's table (its "
                                  "players and game, which any watcher of the ladder reads on its page)",
    "account-token-revoke": "revokes one of the caller's own API tokens",
    "logout": "ends the session",
    "api-accounts": "signs up: answers with the new account only",
    "api-token": "answers with a token only",
    "api-absence-end": "ends the caller's absence: answers with their absences",
    "api-webhook-ping": "sends the caller's own webhook a test event (no game in it); answers its log entry",
    "api-webhook-rotate-secret": "gives the caller's own webhook a new secret; answers the hook",
    "language-switch": "sets the language the caller reads the site in; answers with the page it came from",
    # Issue 46, following games: what a follower reads of a game is compared in test_following.py.
    "following-follow-game": "follows the game the path names: answers with a redirect",
    "following-follow-group": "follows the games of the group the path names: answers with a redirect",
    "following-follow-competition": "follows the games of the competition the path names: answers with a redirect",
    "following-change": "changes what one of the caller's own watches tells them: answers with a redirect",
    "following-stop": "stops one of the caller's own watches: answers with a redirect",
    "push-subscription-forget": "forgets one of the caller's own devices told of their turns; answers with a "
                                "redirect to the settings page",
}


@dataclass(frozen=True)
class Route:
    path: str          # the route as written, e.g. "api/games/<int:game_id>/history/"
    name: str | None
    parameters: tuple[str, ...]


def _walk(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.name


_PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


def routes() -> list[Route]:
    """Return every route of the URL configuration, with the names of its path parameters."""
    found = []
    for path, name in _walk(get_resolver().url_patterns):
        found.append(Route(path=path, name=name, parameters=tuple(_PARAMETER.findall(path))))
    return found


def left_out_reason(route: Route) -> str | None:
    for prefix, reason in LEFT_OUT_PREFIXES.items():
        if route.path.startswith(prefix):
            return reason
    if route.name in LEFT_OUT:
        return LEFT_OUT[route.name]
    if route.name in POST_ONLY_WITHOUT_GAMES:
        return POST_ONLY_WITHOUT_GAMES[route.name]
    unknown = [parameter for parameter in route.parameters if parameter not in PARAMETERS]
    if unknown or "(" in route.path or "^" in route.path:
        return None  # a route the walker cannot fill: it must be listed above to be left out
    return ""


def walked_routes() -> list[Route]:
    """Return the routes the walker fetches (everything not left out with a reason)."""
    return list(_walked_routes_of(get_resolver()))


@functools.cache
def _walked_routes_of(resolver: URLResolver) -> tuple[Route, ...]:
    # Once per URL configuration (a test that overrides ROOT_URLCONF gets another resolver): a walk reads every
    # door of several viewers at each checkpoint, and walking the configuration each time was a fiftieth of it.
    return tuple(route for route in routes() if left_out_reason(route) == "")


# -- reading every door -------------------------------------------------------------------------


def _mask(text: str, game, *, keep_times: bool = False) -> str:
    """Mask what legitimately differs between two tables: invite codes, tokens, times (the ids are equal); with
    ``keep_times``, the times stay (the API tokens' are the same in both worlds: made before them)."""
    text = text.replace(game.invite_code, "<invite>")
    text = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "<csrf>", text)
    text = re.sub(r'"X-CSRFToken": "[^"]+"', "<csrf>", text)
    text = re.sub(r"\b[A-Za-z0-9]{64}\b", "<csrf>", text)  # a masked CSRF token anywhere else (the API docs)
    text = re.sub(r'name="idempotency_key" value="[^"]+"', "<key>", text)
    text = re.sub(r"play\+[\w.]+@", "play+<token>@", text)
    text = re.sub(r"/mail/unsubscribe/[^/\s\"<>]+/", "/mail/unsubscribe/<token>/", text)
    if keep_times:
        return text
    text = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?", "<time>", text)
    text = re.sub(r"\d{4}-\d\d-\d\d( \d\d:\d\d)?", "<date>", text)  # a token's created and last-used times
    text = re.sub(r"\d{4}\. \d\d\. \d\d\.( \d\d:\d\d)?", "<date>", text)  # the same in Hungarian
    text = re.sub(r"\d\d\.\d\d\.\d{4}(, \d\d:\d\d)?", "<date>", text)  # and in German
    text = re.sub(r"<small>[^<]*(ago|ezelőtt)</small>", "<ago>", text)
    text = re.sub(r"<small>vor [^<]*</small>", "<ago>", text)
    text = re.sub(r"<small>[^<]* her</small>", "<ago>", text)  # German's other way: "1 Minute her" (a token's use)
    return text


def masked(text: str, game) -> str:
    """Mask ids too, for comparing two games that exist side by side (and so have different ids)."""
    text = text.replace(f"/games/{game.pk}/", "/games/<id>/")
    text = re.sub(rf"#{game.pk}\b", "#<id>", text)
    text = re.sub(rf'"id": {game.pk}\b', '"id": <id>', text)
    return _mask(text, game)


@dataclass
class Door:
    """The doors of one game, read by one viewer."""

    game: Any
    user: Any  # None: an anonymous visitor
    language: str | None = None  # the Accept-Language a visitor's browser sends (a person's account says theirs)

    def client(self) -> Client:
        client = Client()
        if self.language:
            client.defaults["HTTP_ACCEPT_LANGUAGE"] = self.language
        if self.user is not None:
            client.force_login(self.user)
            # One token per user for the whole test (made before the worlds): the tokens page lists them.
            if not hasattr(self.user, "api_key"):
                self.user.api_key = api_token(self.user)
            client.defaults["HTTP_AUTHORIZATION"] = f"Token {self.user.api_key}"
        return client

    def path(self, route: Route, **given: str) -> str:
        """Return the route's path for this door; ``given`` fills parameters by name instead of ``PARAMETERS``."""
        def fill(match) -> str:
            name = match.group(1)
            return given[name] if name in given else PARAMETERS[name](self, self.user)

        return "/" + _PARAMETER.sub(fill, route.path)

    def read_all(self, *, seated: bool, keep_times: bool = False) -> dict[str, str]:
        """Return every answer this viewer gets from every walked route (and the POSTs), masked (but for the times
        when ``keep_times``: two worlds played on one clock must read the same times too)."""
        client = self.client()
        seen: dict[str, str] = {}
        for route in walked_routes():
            path = self.path(route)
            if "username" in route.parameters:  # every seated player's page, not only the creator's
                for name in self._players():
                    seen[f"GET /{route.path} username={name}"] = _answer(client.get(self.path(route, username=name)))
                continue
            if route.name in POSTS:
                if seated and route.name in SEATED_MAY_NOT_POST:
                    continue
                for number, body in enumerate(POSTS[route.name](self.game)):
                    seen[f"POST /{route.path} #{number}"] = self._post(client, path, body)
            elif "seq" in route.parameters:  # a position: every one of the game so far
                for seq in range(self.game.seq + 1):
                    seen[f"GET /{route.path} seq={seq}"] = _answer(client.get(self.path(route, seq=str(seq))))
            else:
                seen[f"GET /{route.path}"] = _answer(client.get(path))
            for query, headers in VARIANTS.get(route.name, lambda game: [])(self.game):
                label = f"GET /{route.path}{query}" + (" (htmx)" if headers else "")
                seen[label] = _answer(client.get(path + query, **headers))
        return {door: _mask(text, self.game, keep_times=keep_times) for door, text in seen.items()}

    def _players(self) -> list[str]:
        return sorted({seat.user.get_username() for seat in self.game.seats.select_related("user") if seat.user_id})

    def _post(self, client: Client, path: str, body: dict) -> str:
        if path.startswith("/api/"):
            return _answer(client.post(path, body, content_type="application/json"))
        return _answer(client.post(path, body, HTTP_HX_REQUEST="true"))

    def emails_as_sent(self) -> dict[str, Any]:
        """Return the emails this seated viewer would get now (the turn email, a digest, game news), as messages."""
        return {
            "turn email": compose.turn_email(self.game, self.user),
            "digest": compose.digest_email(self.user, [self.game]),
            "game news": compose.game_news_email(self.game, self.user, "game_started"),
        }

    def emails(self, *, keep_times: bool = False) -> dict[str, str]:
        """Return the emails this seated viewer would get now, as text, masked."""
        return {name: _mask(_email_text(message), self.game, keep_times=keep_times)
                for name, message in self.emails_as_sent().items()}


def _answer(response) -> str:
    """Return everything a client receives that could carry information: status, where to, and the body."""
    head = f"{response.status_code} {response.get('Location', '')} {response.get('Content-Type', '')}"
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return f"{head}\n{body.decode(errors='replace')}"


def _email_text(message) -> str:
    parts = [f"Subject: {message.subject}", f"Reply-To: {message.reply_to}", message.body]
    parts += [content for content, _ in message.alternatives]
    # Attached pictures (a PNG of the position) compared by their bytes.
    parts += [attachment.get_payload() for attachment in message.attachments]
    return "\n".join(parts)
