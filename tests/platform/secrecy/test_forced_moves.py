"""A move played for its seat as its only legal one reads to the others as any move of that seat.

The twin worlds of ``worlds.py`` (``_love_letter_forced_countess``: bob's Countess played for him beside a
King, or by him beside a Baron) are walked through every door by ``test_every_door`` and the stream by
``test_stream``. Here: that comparison can fail. Were the history's note, or the record's source, shown
to alice, she would tell the worlds apart (bob holds a King).
"""

from __future__ import annotations

import pytest

from tests.platform.secrecy import doors
from tests.platform.secrecy.test_every_door import _play_world
from tests.platform.secrecy.worlds import scenarios
from turnbased.play import records, selectors

pytestmark = pytest.mark.django_db

FORCED = next(scenario for scenario in scenarios() if scenario.forced_moves)


@pytest.fixture
def users(make_user):
    seated = [make_user("alice"), make_user("bob")]
    for user in seated:
        user.api_key = doors.api_token(user)  # made outside the worlds, which are rolled back
    return seated, make_user("stranger")


def alices_reading(users):
    def read(game):
        client = doors.Door(game=game, user=users[0]).client()
        return {path: doors._mask(client.get(path).content.decode(), game)
                for path in (f"/api/games/{game.pk}/history/", f"/api/games/{game.pk}/record/", f"/games/{game.pk}/")}

    return read


def final_readings(users, stranger) -> list[dict[str, str]]:
    return [_play_world(FORCED, world, users, stranger, read=alices_reading(users))[-1][1] for world in (0, 1)]


def test_alice_reads_both_worlds_alike(users):
    one, two = final_readings(*users)
    assert one == two
    assert "played the Countess" in one[next(iter(one))]


def test_the_note_shown_to_everyone_would_tell_alice(users, monkeypatch):
    monkeypatch.setattr(selectors, "_reads_forced_note", lambda game, seat, viewer_seat: True)
    one, two = final_readings(*users)
    history = next(path for path in one if path.endswith("/history/"))
    assert one[history] != two[history] and "the only legal move" in one[history]


def test_the_source_shown_to_everyone_would_tell_alice(users, monkeypatch):
    monkeypatch.setattr(records, "source_shown", lambda game, source, **where: source)
    one, two = final_readings(*users)
    record = next(path for path in one if path.endswith("/record/"))
    assert one[record] != two[record] and '"auto"' in one[record]
