"""A competition's news is emailed to its players (issue 45): the invitation, the start, each round's games, a
round's close with where one stands, the end, a call-off and a withdrawal one did not ask for; written with the
news or not at all, in the reader's language, only to those whose settings take a game's news."""

from __future__ import annotations

import pytest

from tests.platform.competitions.conftest import play_round, settings_for, started
from turnbased.accounts.services.languages import language_choose
from turnbased.competitions.models import Bye
from turnbased.competitions.services import entries
from turnbased.mail.models import EmailKind, OutgoingEmail
from turnbased.mail.services import preferences_update

pytestmark = pytest.mark.django_db


def _subjects(user) -> list[str]:
    return list(OutgoingEmail.objects.filter(kind=EmailKind.COMPETITION, user=user).order_by("pk")
                .values_list("subject", flat=True))


def test_a_player_is_told_of_the_start_each_round_and_the_end(alice, people):
    first, second, third = people(3)
    competition = started(alice, [first, second, third], name="Autumn Cup",
                          stages=[{"format": "swiss", "rounds": 2}])
    play_round(competition)
    play_round(competition)
    for person in (first, second, third):
        byes = Bye.objects.filter(entrant__user=person).count()
        subjects = _subjects(person)
        assert subjects[0] == "Autumn Cup has started" and subjects[-1] == "Autumn Cup has ended"
        assert subjects.count("Autumn Cup: a round has closed") == 2
        assert subjects.count("Autumn Cup: your next games are open") == 2 - byes  # a bye opens no game
    email = OutgoingEmail.objects.filter(kind=EmailKind.COMPETITION, subject__endswith="has closed").first()
    assert "Your place:" in email.text and f"/competitions/{competition.pk}/" in email.text
    opened = OutgoingEmail.objects.filter(kind=EmailKind.COMPETITION, subject__endswith="games are open").first()
    assert "/games/" in opened.text and "deadline" in opened.text
    assert _subjects(alice) == []  # the organiser plays in it only if they enter


def test_an_invitation_and_a_call_off_are_emailed_in_the_readers_language(alice, bob):
    language_choose(user=bob, language="hu")
    competition = entries.competition_create(user=alice, settings=settings_for(entry="invitation", name="Téli Kupa"))
    entries.competition_invite(user=alice, competition_id=competition.pk, username="bob")
    entries.competition_enter(user=bob, competition_id=competition.pk)
    entries.competition_cancel(user=alice, competition_id=competition.pk)
    subjects = _subjects(bob)
    assert len(subjects) == 2 and all("Téli Kupa" in subject for subject in subjects)
    assert not any(subject.startswith("You are invited") for subject in subjects)  # Hungarian, not English


def test_no_email_to_a_player_who_turned_game_emails_off(alice, bob, carol):
    preferences_update(user=bob, turn_emails="immediate", game_emails=False)
    competition = entries.competition_create(user=alice, settings=settings_for())
    entries.competition_enter(user=bob, competition_id=competition.pk)
    entries.competition_enter(user=carol, competition_id=competition.pk)
    entries.entrant_remove(user=alice, competition_id=competition.pk, username="bob")
    entries.entrant_remove(user=alice, competition_id=competition.pk, username="carol")
    assert _subjects(bob) == [] and _subjects(carol) == ["You were withdrawn from Autumn Cup"]
