"""The words a player may reply with instead of a move, in English and in each language the site speaks.

A reply's first line is read in the player's language first, then in English: a Hungarian player may
write "mutasd" or "show", a German one "zeigen" or "show". Case, accents and a closing full stop, exclamation
or question mark are ignored ("Állás!", "allas", "állás?" and "állás" are one command; "?" alone asks for help).
A word that is a command only in another language is no command for this player: the game reads it as a move
(a German player's "Stand" shows the position; an English or Hungarian player's "stand" goes to the game, which
refuses it). Each list holds the forms a native player writes (the imperative, the first person, the noun: "mondd",
"mondom", "üzenet"; "sag", "sage", "sagen"), and the phrases ("mutasd az állást", "Stellung zeigen"); no form is
two commands in one language, nor in it and English, and none is a move of any game (tests/platform/mail).

``say`` starts its line, the rest of the reply going to the table talk, and so does ``note``, the rest going to
the player's private notes on the game; a colon may close their words ("mondd: Sziasztok", "say:hi"), and is no
part of what is written (``said``). ``pause`` and ``more time`` are the first words of their line, which may add a
number of days ("pause 3", "szünet 3 nap", "mehr Zeit 2 Tage"); the others are the whole line. ``resign`` with a
question mark ("feladom?") is a question, not a resignation: it is answered with the help.
``takeback`` asks the others at the table to let the player take back their last move, ``pause``, ``more time``,
``draw`` and ``cancel`` propose the others a pause of the table's clocks, extra time for the player, a draw or a
cancel (``vote_replies``); ``accept`` and ``decline`` answer a group's email, and in a game's reply a proposal
waiting there (``agreement_replies``). The first word of each list is the one the emails
tell the player to write (``shown_words``), so every word an email names is one this module reads.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from django.conf import settings
from django.utils import translation
from django.utils.translation import pgettext_lazy

SHOW, HELP, RESIGN, SAY, NOTE = "show", "help", "resign", "say", "note"
# Ask the others at the table to let the player take back their last move (issue 46, agreements).
TAKEBACK = "takeback"
# Propose the others at the table a pause of every clock, extra time for the player's own turn, a draw, a cancel
# (issue 46, agreements by vote). The first two may be followed by a number of days (``days_in``).
PAUSE, MORE_TIME, DRAW, CANCEL = "pause", "more_time", "draw", "cancel"
PROPOSALS = (PAUSE, MORE_TIME, DRAW, CANCEL)
# The commands that start a line whose rest (and the lines below) is what the player writes.
LEADING = (SAY, NOTE)
# The commands that are the whole line.
WHOLE = (SHOW, HELP, RESIGN, TAKEBACK, DRAW, CANCEL)
# The days a pause or more time proposes when the line names none.
DEFAULT_DAYS = {PAUSE: 3, MORE_TIME: 2}
# What may follow a number of days: the word for days (the list ``DAYS_WORDS``), nothing else.
_DAYS = re.compile(r"(\d{1,3})(?: (\S+))?")
# The answers to a group's invitation, or to a request to join a group (issue 44); in a game's reply, to a proposal
# waiting at that game (issue 46).
ACCEPT, DECLINE = "accept", "decline"
# The answer to a followed game's news (issue 46): stop following what brought it.
STOP = "stop"
ENGLISH = "en"
# What may close a command and is no part of it: "Állás!", "help?", "feladom." (``folded``).
_CLOSING = " .!?"
_TOKEN = re.compile(r"\S+")

# What each language's players type, written as they write it (accents are folded when compared), from the
# catalogs: a new language brings its own words. The first of each list is the one emails name.
WORDS = {
    SHOW: pgettext_lazy("email commands: the words that ask for the position again, separated by |",
                        "show|position|board|show position|show the position|show board|show the board"),
    HELP: pgettext_lazy("email commands: the words that ask how to write a move, separated by |", "help|?|help me"),
    RESIGN: pgettext_lazy("email commands: the words that give up the game, separated by |",
                          "resign|I resign|give up|I give up"),
    # Translators: a colon may follow each ("say: hi"); add the forms a player writes (imperative, first person,
    # noun), none of them a move of a game.
    SAY: pgettext_lazy("email commands: the words that start a message to the table, separated by |",
                       "say|message"),
    NOTE: pgettext_lazy("email commands: the words that start a line added to the player's private notes on the "
                        "game, separated by |", "note|note to self"),
    # Translators: for example Hungarian "visszavonás|visszavon|takeback", German "zurücknehmen|zurücknahme|takeback"
    # (keep "takeback": the English word works in every language).
    TAKEBACK: pgettext_lazy("email commands: the words that ask the others at the table to let the player take back "
                            "their last move, separated by |", "takeback|take back|undo"),
    # Translators: for example Hungarian "szünet|szünetet kérek", German "Pause|pausieren"; a number of days may
    # follow each ("szünet 3"), so keep each free of digits.
    PAUSE: pgettext_lazy("email commands: the words that propose to pause every clock at the table, each followed by "
                         "an optional number of days, separated by |", "pause"),
    # Translators: for example Hungarian "több idő|több időt|plusz idő", German "mehr Zeit|Zusatzzeit"; a number of
    # days may follow each ("több idő 2").
    MORE_TIME: pgettext_lazy("email commands: the words that propose to give the player more time for their turn, "
                             "each followed by an optional number of days, separated by |",
                             "more time|extra time"),
    DRAW: pgettext_lazy("email commands: the words that propose to end the game now as a draw, separated by |",
                        "draw|offer draw|offer a draw"),
    CANCEL: pgettext_lazy("email commands: the words that propose to cancel the game (it ends with no result, "
                          "unrated), separated by |", "cancel|cancel the game|abort"),
    ACCEPT: pgettext_lazy("email commands: the words that accept an invitation to a group or a request to join one, "
                          "separated by |", "accept|yes|ok|I accept|I agree"),
    DECLINE: pgettext_lazy("email commands: the words that decline an invitation to a group or a request to join "
                           "one, separated by |", "decline|no|I decline"),
    # Translators: for example Hungarian "leállít|követés vége|stop", German "stopp|entfolgen|stop" (keep "stop").
    STOP: pgettext_lazy("email commands: the words that stop following a game (or a group's or a competition's "
                        "games), in a reply to the news of a followed game, separated by |", "stop|unfollow"),
}
# The word for days a number may be followed by after ``pause`` or ``more time`` ("pause 3 days"), in every form a
# player writes it; not a command of its own (``vocabulary`` leaves it out).
DAYS_WORDS = pgettext_lazy("email commands: the forms of the word for days, written after a number (\"pause 3 "
                           "days\"), separated by |", "day|days")


@functools.cache
def vocabulary(language: str) -> dict[str, tuple[str, ...]]:
    """Return the words of each command in ``language`` (a code the site speaks), as its catalog gives them."""
    with translation.override(language):
        return {kind: tuple(word.strip() for word in str(words).split("|") if word.strip())
                for kind, words in WORDS.items()}


def _fold(text: str) -> str:
    """Return ``text`` in lower case and without accents, its length in words kept."""
    text = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    return "".join(char for char in text if not unicodedata.combining(char))


def folded(text: str) -> str:
    """Return ``text`` as commands are compared: lower case, without accents, spaces single, no closing . ! or ?
    ("?" alone stays: it asks for help)."""
    whole = " ".join(_fold(text).split())
    return whole.rstrip(_CLOSING) or whole[:1]


def _asks(line: str) -> bool:
    """Tell whether the line closes with a question mark (among its closing marks: "feladom?!")."""
    return "?" in line[len(line.rstrip(_CLOSING)):]


def _languages(language: str | None) -> list[str]:
    offered = dict(settings.LANGUAGES)
    base = (language or ENGLISH).lower().split("-")[0]
    return list(dict.fromkeys(code for code in (base, ENGLISH) if code in offered))


def _words(language: str, kind: str) -> set[str]:
    return {folded(word) for word in vocabulary(language)[kind]}


@functools.cache
def _leads(language: str) -> tuple[tuple[tuple[str, ...], str], ...]:
    """Return the words of ``say`` and ``note`` in ``language``, each as its folded words, the longest first (so
    "note to self" is read before "note")."""
    found = {(tuple(_fold(word).split()), kind) for kind in LEADING for word in vocabulary(language)[kind]}
    return tuple(sorted(found, key=lambda lead: (-len(lead[0]), lead)))


def _lead_end(words: tuple[str, ...], tokens: list[re.Match], written: list[str]) -> int | None:
    """Return where the text after ``words`` begins when the line's tokens (``written``: folded) start with them,
    a colon closing them or not ("say hi", "say: hi", "say:hi", "say : hi"); else None."""
    count = len(words)
    if len(written) < count or tuple(written[:count - 1]) != words[:-1]:
        return None
    last, token = written[count - 1], tokens[count - 1]
    if last == words[-1] or (count == len(written) and last.rstrip(_CLOSING) == words[-1]):  # "say!" alone
        colon = len(written) > count and written[count] == ":"
        return tokens[count].end() if colon else token.end()
    if last.startswith(f"{words[-1]}:"):
        return token.start() + token.group().index(":") + 1
    return None


def _lead(text: str, language: str) -> tuple[str, int] | None:
    """Return the ``say`` or ``note`` the first line of ``text`` starts with in ``language``, and where what it
    writes begins in ``text``; None for neither."""
    tokens = list(_TOKEN.finditer(text.split("\n", 1)[0]))
    written = [_fold(token.group()) for token in tokens]
    for words, kind in _leads(language):
        end = _lead_end(words, tokens, written)
        if end is not None:
            return kind, end
    return None


@functools.cache
def _day_words(language: str) -> frozenset[str]:
    with translation.override(language):
        return frozenset(folded(word) for word in str(DAYS_WORDS).split("|") if word.strip())


def _days_after(whole: str, words: set[str], language: str) -> tuple[bool, int | None]:
    """Whether ``whole`` is one of ``words`` alone or followed by a number of days (and maybe the word for days),
    and that number (None when none is written)."""
    for word in words:
        if whole == word:
            return True, None
        found = _DAYS.fullmatch(whole[len(word) + 1:]) if whole.startswith(f"{word} ") else None
        if found and (found.group(2) is None or found.group(2) in _day_words(language)):
            return True, int(found.group(1))
    return False, None


def read(line: str, language: str | None) -> str | None:
    """Return the command the first line of a reply gives (``SHOW``, ``HELP``, ``RESIGN``, ``TAKEBACK``, ``PAUSE``,
    ``MORE_TIME``, ``DRAW``, ``CANCEL``, ``SAY``, ``NOTE``), or None for a move (or an answer: ``read_answer``).

    Each language is read in turn, the player's first, then English; within one language a line is
    a ``say`` or a ``note`` when it starts with one's words, a ``pause`` or ``more time`` when its words are one's
    followed by nothing but a number of days (``days_in``), else it must be the whole of a command.
    """
    whole = folded(line)
    if not whole:
        return None
    for code in _languages(language):
        lead = _lead(line, code)
        if lead is not None:
            return lead[0]
        for kind in WHOLE:
            if whole in _words(code, kind):
                # "feladom?" asks how to resign, or whether to: a resignation is never done on a question.
                return HELP if kind == RESIGN and _asks(line) else kind
        for kind in DEFAULT_DAYS:
            if _days_after(whole, _words(code, kind), code)[0]:
                return kind
    return None


def said(text: str, language: str | None) -> str:
    """Return what a reply whose new text ``text`` starts with ``say`` or ``note`` writes: the text after the
    command's words and the colon that may close them, the lines below included ("" when it starts with neither)."""
    for code in _languages(language):
        lead = _lead(text, code)
        if lead is not None:
            return text[lead[1]:].strip()
    return ""


def days_in(line: str, kind: str, language: str | None) -> int:
    """Return the days a ``PAUSE`` or ``MORE_TIME`` line proposes: the number written after its words, else the
    default (``DEFAULT_DAYS``). Read as ``read`` read the line, the player's language first."""
    whole = folded(line)
    for code in _languages(language):
        matched, days = _days_after(whole, _words(code, kind), code)
        if matched:
            return DEFAULT_DAYS[kind] if days is None else days
    return DEFAULT_DAYS[kind]


def read_answer(line: str, language: str | None) -> str | None:
    """Return ``ACCEPT`` or ``DECLINE`` for the first line of a reply to a group's email (or to a game's, when a
    proposal waits there), or None."""
    whole = folded(line)
    for code in _languages(language):
        for kind in (ACCEPT, DECLINE):
            if whole in _words(code, kind):
                return kind
    return None


def is_stop(line: str, language: str | None) -> bool:
    """Tell whether the first line of a reply to a followed game's news says to stop following."""
    whole = folded(line)
    return any(whole in _words(code, STOP) for code in _languages(language))


def shown_words(language: str | None) -> dict[str, str]:
    """Return the word an email tells the player to write for each command, in ``language`` (else English)."""
    code = _languages(language)[0]
    return {kind: words[0] for kind, words in vocabulary(code).items()}
