"""Table talk reaches only those who may read it, through every door of the site and every email.

Every route (walked from the URL configuration, ``doors.py``) is read before and after messages are
said, and the two readings compare byte for byte once tokens and times are masked:

- a signed-in stranger and an anonymous visitor read a private game's doors the same whatever its
  players say (while its players do read a difference, so the comparison can fail);
- a player who muted another reads every door, and gets every email, the same whatever the muted
  player says (while a spectator of the same public game reads a difference).
"""

from __future__ import annotations

import difflib

import pytest

from tests.platform.secrecy.doors import Door
from turnbased.chat import services
from turnbased.chat.models import MessageSource

pytestmark = pytest.mark.django_db

SAID = "the secret handshake is three taps"


def _everything(game, user, *, seated: bool) -> dict[str, str]:
    door = Door(game=game, user=user)
    return {**door.read_all(seated=seated), **(door.emails() if seated else {})}


def _first_reading(game, user, *, seated: bool) -> dict[str, str]:
    """Read every door once the viewer's token has been used: its first use changes a page (the token's last use,
    on /accounts/tokens/; reading every door twice found no other page that a first visit changes)."""
    if user is not None:
        assert Door(game=game, user=user).client().get("/api/me/").status_code == 200
    return _everything(game, user, seated=seated)


def _same(before: dict[str, str], after: dict[str, str], viewer: str) -> None:
    assert before.keys() == after.keys()
    for door in before:
        difference = "\n".join(list(difflib.unified_diff(before[door].splitlines(), after[door].splitlines(),
                                                         "before", "after", lineterm="", n=1))[:40])
        assert before[door] == after[door], f"{viewer} can tell what was said through {door}:\n{difference}"
        assert SAID not in after[door], (viewer, door)


def _talk(game, *authors) -> None:
    for number, author in enumerate(authors):
        services.message_post(game_id=game.pk, user=author, text=f"{SAID} ({number})",
                              source=[MessageSource.WEB, MessageSource.API, MessageSource.EMAIL][number % 3])


def test_a_private_games_talk_reaches_no_stranger_and_no_visitor(start_scripted_game, alice, bob, carol):
    game = start_scripted_game(alice, bob, visibility="private")
    before = {"stranger": _first_reading(game, carol, seated=False),
              "anonymous": _first_reading(game, None, seated=False)}
    players_before = _first_reading(game, bob, seated=True)

    _talk(game, alice, bob, alice)
    game.refresh_from_db()

    _same(before["stranger"], _everything(game, carol, seated=False), "a stranger")
    _same(before["anonymous"], _everything(game, None, seated=False), "an anonymous visitor")
    players_after = _everything(game, bob, seated=True)
    assert any(SAID in text for text in players_after.values())
    assert players_before != players_after


def test_a_muted_players_words_reach_the_muter_through_no_door_and_no_email(start_scripted_game, alice, bob, carol):
    game = start_scripted_game(alice, bob)
    services.player_mute(user=alice, username="bob")
    before = _first_reading(game, alice, seated=True)
    spectator_before = _first_reading(game, carol, seated=False)

    _talk(game, bob, bob, bob)
    game.refresh_from_db()

    _same(before, _everything(game, alice, seated=True), "alice, who muted bob")
    spectator_after = _everything(game, carol, seated=False)
    assert any(SAID in text for text in spectator_after.values())
    assert spectator_before != spectator_after
