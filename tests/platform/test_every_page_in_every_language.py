"""A Hungarian or German player never meets a word of English: every page, email and human API text, in every game.

For each game and language, two players whose accounts read that language sit at a table in
mid-game; every route of the site (the URL-configuration walk of ``secrecy/doors.py``, so a new page
is walked too) is read by the player to move, and so are the emails they get. What a person reads
(the text of a page, its ``aria-label``, ``title``, ``alt`` and ``placeholder`` texts, its buttons, an
email, and the human fields of the API's answers) must hold no English word: a word of the English
texts the project translates (every ``msgid`` of its catalogs) that no translation into that language
uses. Names, numbers, codes, addresses, what a page marks as another language (``lang="en"``) or as
not to be translated (``translate="no"``: the IANA names of time zones) are not words to translate;
the few English words a translation rightly keeps are listed in ``KEPT``.
"""

from __future__ import annotations

import json
import re
from functools import cache
from html.parser import HTMLParser

import pytest
from babel.messages.pofile import read_po
from django.core import mail
from django.test import Client

from games import engines
from tests.platform.secrecy import doors
from turnbased.kit.texts import catalogs
from turnbased.accounts.services.languages import language_choose
from turnbased.play import selectors, services
from turnbased.play.models import GameStatus

pytestmark = pytest.mark.django_db

LANGUAGES = ("hu", "de")
WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
# English words a translation keeps on purpose: names of things that are the same in every language.
KEPT = {"api", "json", "html", "http", "https", "url", "svg", "png", "token", "tokens", "webhook", "webhooks",
        "turnbased", "bot", "bots", "lobby", "email", "e-mail", "seed", "sha", "iso", "utc", "gmt"}
# The fields of an API answer a person reads (everything else is a code, a name, a number or a key).
HUMAN_FIELDS = {"detail", "text", "summary", "label", "help", "description", "expiry_description", "message",
                "notation", "name", "outcome", "heading", "position", "moves", "reason"}
# Routes whose answers are machine documents, not texts for a person: the verifiable record keeps the log's
# English notation and the record's English summary whatever the reader's language (docs/record-format.md).
MACHINE_ROUTES = {"api-game-record"}
# Documents translated as a whole, not from the catalogs: the players' guide (docs/players.<language>.md) names the
# Django admin's English labels and a few loanwords (JSON Lines, Message-ID) on purpose. Its page is read here for its
# frame (menu, title, links to the other languages: the catalogs' words), its text by tests/platform/web/test_guide.py
# (the same sections as the original) and by a native reader.
WHOLE_DOCUMENTS = {"players-guide"}
# Attributes whose values a person reads (or a screen reader says).
READ_ATTRIBUTES = {"aria-label", "title", "alt", "placeholder", "aria-description", "data-confirm"}


def _msgs(language: str | None) -> list:
    found = []
    for po in catalogs.po_files():
        if language is None and po.parent.parent.name != "hu":  # English: the msgids, read from one language
            continue
        if language is not None and po.parent.parent.name != language:
            continue
        with po.open("rb") as source:
            found.extend(message for message in read_po(source) if message.id)
    return found


# What is not a word of a language: placeholders and tags (in catalogs), addresses, format names, and digests
# (a seed's commitment is 64 hex digits: "3fa0bad1..." once read "bad" on a German page, one run in many).
_NOT_WORDS = re.compile(r"%\([^)]*\)[sdr]|\{[^}]*\}|<[^>]*>|\S+://\S+|\S+@\S+|\b[\w-]+/\d+\b|\b[0-9a-fA-F]{16,}\b")
# A machine value under a field a person reads: one lowercase code (``last_standing``, ``edition``).
_CODE = re.compile(r"[a-z0-9_-]+")


def _words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(_NOT_WORDS.sub(" ", text))}


@cache
def english_words(language: str) -> frozenset[str]:
    """Return the words of the texts the project translates that no translation into ``language`` uses."""
    english: set[str] = set()
    for message in _msgs(None):
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
            english |= _words(text)
    used: set[str] = set()
    for message in _msgs(language):
        for text in (message.string if isinstance(message.string, tuple) else (message.string,)):
            used |= _words(text or "")
    return frozenset(english - used - KEPT)


class _ReadText(HTMLParser):
    """Collect what a person reads on a page: its text and the attributes said or shown."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping: list[str] = []  # script, style, and elements in another language

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        other_language = attributes.get("lang") not in (None, "", self.language) and tag != "html"
        if tag in ("script", "style", "template") or other_language or attributes.get("translate") == "no":
            if tag not in ("br", "img", "input", "meta", "link", "use"):
                self._skipping.append(tag)
            return
        if self._skipping:
            return
        self.parts.extend(value for name, value in attrs if name in READ_ATTRIBUTES and value)
        if tag == "input" and attributes.get("type") in ("submit", "button") and attributes.get("value"):
            self.parts.append(attributes["value"])

    def handle_endtag(self, tag):
        if self._skipping and self._skipping[-1] == tag:
            self._skipping.pop()

    def handle_data(self, data):
        if not self._skipping:
            self.parts.append(data)


def read_text(html: str, language: str) -> str:
    parser = _ReadText()
    parser.language = language
    parser.feed(html)
    return " ".join(parser.parts)


def _human_fields(value, found: list[str]) -> list[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in HUMAN_FIELDS and isinstance(item, str):
                found.extend([item] if not _CODE.fullmatch(item) else [])
            elif key in HUMAN_FIELDS and isinstance(item, list) and all(isinstance(x, str) for x in item):
                found.extend(text for text in item if not _CODE.fullmatch(text))
            else:
                _human_fields(item, found)
    elif isinstance(value, list):
        for item in value:
            _human_fields(item, found)
    return found


def leftovers(text: str, language: str, names: set[str]) -> list[str]:
    english = english_words(language)
    return sorted({word for word in _words(text) if word in english and word not in names})


def mid_game(slug: str, users: list) -> object:
    """A table of the game in mid-game: a few moves played by the first legal move each time."""
    engine = engines()[slug]
    game = services.create_game(creator=users[0], engine_slug=slug, players=engine.min_players,
                                seed=f"words-{slug}")
    for user in users[1:engine.min_players]:
        services.join_game(game_id=game.pk, user=user)
    for _ in range(5):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat = game.to_move[0]
        legal = selectors.legal_moves_for(selectors.Viewer(game=game, seat=seat))
        mover = next(s.user for s in game.seats.all() if s.index == seat)
        services.submit_move(game_id=game.pk, user=mover, expected_seq=game.seq, move=legal[len(legal) // 2]["move"])
    game.refresh_from_db()
    return game


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", list(engines()))
def test_a_player_reads_no_english_on_any_page_email_or_api_answer(slug, language, make_user):
    users = [make_user(f"{language}player{index}") for index in range(4)]
    for user in users:
        language_choose(user=user, language=language)
    game = mid_game(slug, users)
    reader = next(s.user for s in game.seats.all() if s.index == (game.to_move or [0])[0])
    names = {word.lower() for user in users for word in WORD.findall(user.username)}
    door = doors.Door(game=game, user=reader)
    found: dict[str, list[str]] = {}
    client = door.client()
    for route in doors.walked_routes():
        if route.name in doors.POSTS or route.name in MACHINE_ROUTES:
            continue
        path = door.path(route)
        response = client.get(path)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        kind = response.get("Content-Type", "")
        if "html" in kind and route.name in WHOLE_DOCUMENTS:
            text = read_text(re.sub(r"(?s)<article\b.*?</article>", "", body.decode()), language)
        elif "html" in kind:
            text = read_text(body.decode(), language)
        elif "json" in kind:
            text = " ".join(_human_fields(json.loads(body or b"null"), []))
        else:
            continue
        words = leftovers(text, language, names)
        if words:
            found[f"GET {path}"] = words
    mail.outbox.clear()
    for name, message in door.emails_as_sent().items():
        words = leftovers(" ".join([message.subject, message.body,
                                    *(read_text(html, language) for html, _ in message.alternatives)]),
                          language, names)
        if words:
            found[name] = words
    assert not found, f"English left in {language} ({slug}):\n" + "\n".join(
        f"  {where}: {', '.join(words[:15])}" for where, words in found.items())


def test_the_walk_finds_an_english_word():
    """The check can fail: an English sentence of the site, shown to a Hungarian reader, is caught."""
    assert leftovers(read_text("<p>Your turn. <span title='Resign this game'>x</span></p>", "hu"), "hu", set())
    assert not leftovers(read_text("<p lang='en'>English</p><p>Te következel.</p>", "hu"), "hu", set())


def test_a_digest_is_no_word_of_any_language():
    """A seed's commitment (hex) once read "bad" on a German page: digests are set aside, words are not."""
    assert _words("commitment 3fa0bad1c2d3e4f5a6b7c8d9e0f1a2b3 bad") == {"commitment", "bad"}
    assert _words("3fa0bad1c2d3e4f5a6b7c8d9e0f1a2b3") == set()
