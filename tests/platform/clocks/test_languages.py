"""Clocks in words, in each language: durations and time controls with their plurals, and absences' refusals."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from turnbased.clocks.models import TableClock
from turnbased.clocks.services import format_duration

HOUR = 3600
DAY = 24 * HOUR


@pytest.fixture(autouse=True)
def _english_after():
    """Leave English active after each test: a request's LocaleMiddleware activates its language and leaves it
    active in the thread, where the next test's services would word their texts in it."""
    yield
    translation.deactivate()


@pytest.mark.parametrize(("language", "one", "five", "mixed"), [
    ("en", ["1 day", "1 hour", "1 minute"], ["5 days", "5 hours", "5 minutes"], ["2 days 3 hours", "3 hours 20 minutes"]),
    ("hu", ["1 nap", "1 óra", "1 perc"], ["5 nap", "5 óra", "5 perc"], ["2 nap 3 óra", "3 óra 20 perc"]),
    ("de", ["1 Tag", "1 Stunde", "1 Minute"], ["5 Tage", "5 Stunden", "5 Minuten"],
     ["2 Tage 3 Stunden", "3 Stunden 20 Minuten"]),
])
def test_a_time_left_is_words_with_the_plural_each_count_needs(language, one, five, mixed):
    with translation.override(language):
        assert [format_duration(seconds) for seconds in (DAY, HOUR, 60)] == one
        assert [format_duration(5 * seconds) for seconds in (DAY, HOUR, 60)] == five
        assert [format_duration(2 * DAY + 3 * HOUR + 59), format_duration(3 * HOUR + 20 * 60 + 30)] == mixed
        assert format_duration(None) == ""


def test_a_time_control_is_described_in_the_readers_language():
    one_day = TableClock(kind="per_move", days_per_move=1)
    bank = TableClock(kind="bank", bank_days=7, increment_days=1, weekends_off=True)
    expected = {
        "en": ["1 day per move", "3 days per move",
               "time bank of 7 days, +1 per move (capped at 7), weekends don't count", "No clock"],
        "hu": ["lépésenként 1 nap", "lépésenként 3 nap",
               "7 napos időbank, lépésenként +1 nap (legfeljebb 7), a hétvége nem számít", "Nincs óra"],
        "de": ["1 Tag pro Zug", "3 Tage pro Zug",
               "Zeitkonto von 7 Tagen, +1 pro Zug (höchstens 7), Wochenenden zählen nicht", "Keine Uhr"],
    }
    for language, words in expected.items():
        with translation.override(language):
            described = [one_day.describe(), TableClock(kind="per_move", days_per_move=3).describe(),
                         bank.describe(), TableClock(kind="none").describe()]
            assert described == words


@pytest.mark.django_db
def test_an_absence_refused_answers_in_the_language_asked_with_the_same_status(alice, api_client_for):
    yesterday = (timezone.now() - timedelta(days=2)).date().isoformat()
    body = {"starts_on": yesterday, "ends_on": yesterday}
    client = api_client_for(alice)
    english = client.post("/api/absences/", body, format="json")
    german = client.post("/api/absences/", body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    hungarian = client.post("/api/absences/", body, format="json", HTTP_ACCEPT_LANGUAGE="hu")
    assert english.status_code == german.status_code == hungarian.status_code == 422  # of the schema's shape
    assert english.json()["detail"] == "An absence cannot start in the past."
    assert german.json()["detail"] == "Eine Abwesenheit kann nicht in der Vergangenheit beginnen."
    assert hungarian.json()["detail"] == "Távollét nem kezdődhet a múltban."
