"""Making a competition and entering it: settings refused before anything exists, who may see and enter (open, a
group's members, the invited; never a person the organiser blocked; never over the cap), the requirements of fair
entry, withdrawing and entering again, the organiser's removals, invitations and calling it off."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.platform.competitions.conftest import current_round, open_waiting_rounds, play_round, settings_for
from turnbased.competitions import selectors
from turnbased.competitions.models import (
    Bye, Competition, CompetitionStatus, Entrant, EntrantStatus, EventTable, Stage,
)
from turnbased.competitions.services import entries, rounds
from turnbased.contacts.services import block_add
from turnbased.events.models import Event, EventKind
from turnbased.groups import services as groups
from turnbased.kit.errors import Conflict, InvalidRequest, NotAllowed, NotFound, Unprocessable

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("changed", "error", "words"), [
    ({"game": "chess"}, InvalidRequest, "Unknown game"),
    ({"table_size": 5, "game": "halali"}, Unprocessable, "from 2 to 2"),
    ({"name": "x"}, Unprocessable, "3 to 80"),
    ({"name": 7}, InvalidRequest, "must be text"),
    ({"time_control": {"kind": "none"}}, Unprocessable, "Without a clock"),
    ({"time_control": {"kind": "per_move", "days_per_move": 4}}, InvalidRequest, "days_per_move"),
    ({"starts_at": None}, Unprocessable, "Say when"),
    ({"starts_at": "2001-01-01T00:00:00+00:00"}, Unprocessable, "in the future"),
    ({"starts_at": "tomorrow"}, InvalidRequest, "ISO 8601"),
    ({"start_when_full": True, "starts_at": None}, Unprocessable, "max_entrants"),
    ({"stages": []}, Unprocessable, "1 to 4 stages"),
    ({"stages": [{"format": "elimination"}, {"format": "swiss"}]}, Unprocessable, "comes last"),
    ({"stages": [{"format": "double_elimination"}], "table_size": 3}, Unprocessable, "two-player"),
    ({"stages": [{"format": "swiss", "advance": 4}]}, Unprocessable, "sends nobody on"),
    ({"stages": [{"format": "round_robin", "pool_size": 9}], "table_size": 4}, Unprocessable, "4 to 6 players"),
    ({"points": {"2": [0, 1]}}, Unprocessable, "never scores more"),
    ({"points": {"3": [5, 2, 0]}}, Unprocessable, "table sizes"),
    ({"tiebreaks": ["buchholz", "buchholz"]}, Unprocessable, "once each"),
    ({"tiebreaks": ["coin toss"]}, InvalidRequest, "once each"),
    ({"description": "a\x07bell"}, Unprocessable, "only letters"),
    ({"entry": "group"}, Unprocessable, "names its group"),
    ({"late_entry_rounds": 2, "stages": [{"format": "round_robin"}]}, Unprocessable, "Swiss stage only"),
    ({"colour": "red"}, InvalidRequest, "Unknown competition settings"),
    ({"requirements": {"min_finished": -1}}, Unprocessable, "min_finished"),
])
def test_settings_that_cannot_run_are_refused_before_anything_exists(alice, changed, error, words):
    with pytest.raises(error, match=words):
        entries.competition_create(user=alice, settings=settings_for(**changed))
    assert not Competition.objects.exists()


def test_a_competition_is_made_with_its_stages(alice):
    competition = entries.competition_create(user=alice, settings=settings_for(
        stages=[{"format": "swiss", "rounds": 4, "advance": 8}, {"format": "elimination"}]))
    assert competition.status == CompetitionStatus.ENTRY and competition.organiser_id == alice.pk
    assert list(Stage.objects.filter(competition=competition).values_list("format", "rounds", "advance")) == [
        ("swiss", 4, 8), ("elimination", 1, None)]
    assert competition.tiebreaks == ["sonneborn_berger", "buchholz", "head_to_head"]


def test_entering_withdrawing_and_entering_again_before_the_start(alice, bob):
    competition = entries.competition_create(user=alice, settings=settings_for(max_entrants=2))
    entries.competition_enter(user=bob, competition_id=competition.pk)
    with pytest.raises(Conflict, match="already"):
        entries.competition_enter(user=bob, competition_id=competition.pk)
    entries.competition_withdraw(user=bob, competition_id=competition.pk)
    assert Competition.objects.get(pk=competition.pk).entrant_count == 0
    entries.competition_enter(user=bob, competition_id=competition.pk)
    assert Entrant.objects.get(competition=competition, user=bob).status == EntrantStatus.ACTIVE
    assert Competition.objects.get(pk=competition.pk).entrant_count == 1


def test_a_full_competition_takes_nobody_more_and_one_that_starts_when_full_starts(alice, people):
    first, second, third = people(3)
    competition = entries.competition_create(user=alice, settings=settings_for(
        max_entrants=2, start_when_full=True, starts_at=None))
    entries.competition_enter(user=first, competition_id=competition.pk)
    entries.competition_enter(user=second, competition_id=competition.pk)
    with pytest.raises(Conflict, match="full"):
        entries.competition_enter(user=third, competition_id=competition.pk)
    assert rounds.competition_start(competition_id=competition.pk) is not None
    assert Competition.objects.get(pk=competition.pk).status == CompetitionStatus.RUNNING
    assert Event.objects.filter(kind=EventKind.COMPETITION_STARTED).count() == 2


def test_a_groups_competition_is_seen_and_entered_by_its_members_alone(alice, bob, carol):
    club = groups.group_create(user=alice, name="Thursday Club")
    groups.join(user=bob, group_id=club.pk)
    with pytest.raises(NotAllowed, match="members"):
        entries.competition_create(user=carol, settings=settings_for(entry="group", group=club.pk))
    competition = entries.competition_create(user=alice, settings=settings_for(entry="group", group=club.pk))
    assert selectors.competition_for(competition.pk, bob) == competition
    with pytest.raises(NotFound):
        selectors.competition_for(competition.pk, carol)
    with pytest.raises(NotFound):
        entries.competition_enter(user=carol, competition_id=competition.pk)
    entries.competition_enter(user=bob, competition_id=competition.pk)


def test_an_invitation_only_competition_takes_the_invited(alice, bob, carol):
    competition = entries.competition_create(user=alice, settings=settings_for(entry="invitation"))
    with pytest.raises(NotFound):
        entries.competition_enter(user=bob, competition_id=competition.pk)
    invitation, new = entries.competition_invite(user=alice, competition_id=competition.pk, username="bob")
    assert new and entries.competition_invite(user=alice, competition_id=competition.pk, username="BOB")[1] is False
    assert Event.objects.get(kind=EventKind.COMPETITION_INVITATION).user_id == bob.pk
    entries.competition_enter(user=bob, competition_id=competition.pk)
    with pytest.raises(NotAllowed, match="organiser"):
        entries.competition_invite(user=bob, competition_id=competition.pk, username="carol")


def test_a_person_the_organiser_blocked_cannot_enter_nor_be_invited(alice, bob, carol):
    block_add(user=alice, username="bob")
    competition = entries.competition_create(user=alice, settings=settings_for())
    with pytest.raises(Conflict, match="cannot enter"):
        entries.competition_enter(user=bob, competition_id=competition.pk)
    block_add(user=carol, username="alice")
    with pytest.raises(Unprocessable, match="cannot be invited"):
        entries.competition_invite(user=alice, competition_id=competition.pk, username="carol")


def test_the_requirements_of_fair_entry_are_checked_at_entry_and_again_before_the_start(alice, bob, carol):
    competition = entries.competition_create(user=alice, settings=settings_for(requirements={"min_finished": 1}))
    with pytest.raises(Conflict, match="This competition asks for at least 1 finished game"):
        entries.competition_enter(user=bob, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(requirements={})
    entries.competition_enter(user=bob, competition_id=competition.pk)
    entries.competition_enter(user=carol, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(requirements={"min_finished": 1},
                                                         starts_at=timezone.now() + timedelta(hours=2))
    assert rounds.requirements_due_rechecked() == 1
    assert rounds.requirements_due_rechecked() == 0  # once
    assert set(Entrant.objects.filter(competition=competition, status=EntrantStatus.WITHDRAWN)
               .values_list("user__username", flat=True)) == {"bob", "carol"}
    assert Event.objects.filter(kind=EventKind.COMPETITION_REMOVED).count() == 2


def test_the_organiser_removes_an_entrant_and_calls_the_competition_off(alice, bob, carol):
    competition = entries.competition_create(user=alice, settings=settings_for())
    entries.competition_enter(user=bob, competition_id=competition.pk)
    entries.competition_enter(user=carol, competition_id=competition.pk)
    with pytest.raises(NotAllowed):
        entries.entrant_remove(user=bob, competition_id=competition.pk, username="carol")
    entries.entrant_remove(user=alice, competition_id=competition.pk, username="carol")
    assert Event.objects.get(kind=EventKind.COMPETITION_REMOVED).user_id == carol.pk
    with pytest.raises(NotAllowed):
        entries.competition_cancel(user=bob, competition_id=competition.pk)
    entries.competition_cancel(user=alice, competition_id=competition.pk)
    assert Competition.objects.get(pk=competition.pk).status == CompetitionStatus.CANCELLED
    assert Event.objects.get(kind=EventKind.COMPETITION_ENDED).user_id == bob.pk
    with pytest.raises(Conflict, match="no more entries"):
        entries.competition_enter(user=carol, competition_id=competition.pk)


def test_a_swiss_takes_late_entries_until_the_round_set(alice, people):
    first, second, third, late, later = people(5)
    competition = entries.competition_create(user=alice, settings=settings_for(late_entry_rounds=2))
    for person in (first, second, third):
        entries.competition_enter(user=person, competition_id=competition.pk)
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now())
    rounds.competition_start(competition_id=competition.pk)
    open_waiting_rounds()
    entrant = entries.competition_enter(user=late, competition_id=competition.pk)  # round 1 is paired, not 2
    play_round(competition)
    second_round = current_round(competition)
    assert any(entrant.pk in table.players for table in EventTable.objects.filter(round=second_round))
    assert not Bye.objects.filter(round=second_round).exists()  # four now: nobody sits out
    with pytest.raises(Conflict, match="started"):
        entries.competition_enter(user=later, competition_id=competition.pk)


def test_ids_that_name_no_competition_are_not_found(alice):
    for value in (0, -1, 2**63, "1", None, True, 99999):
        with pytest.raises(NotFound):
            selectors.competition_for(value, alice)
