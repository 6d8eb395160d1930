"""A reply whose handling fails part way is handled in full when it is delivered again: one move, one answer.

The duplicate-check row, the move and the answer's outbox row commit together,
so a failure after the duplicate-check row (a database error, a killed worker)
leaves nothing that would make the redelivery look like a duplicate.
"""

from __future__ import annotations

import base64
from datetime import timedelta

import pytest

import time_machine
from django.db import OperationalError
from django.utils import timezone

from tests.platform.mail.conftest import HANDMAID, move_in, reply_bytes, worded
from turnbased.kit.db import dispatch
from turnbased.celery import app
from turnbased.mail import compose, outbox, tasks
from turnbased.mail.inbound import handle_inbound
from turnbased.mail.models import EmailKind, InboundEmail, OutgoingEmail
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db


def fails_once(real, when=lambda *args, **kwargs: True):
    """Wrap ``real`` to raise a database error, as a dropped connection does, the first time ``when`` holds."""
    failed = []

    def wrapper(*args, **kwargs):
        if not failed and when(*args, **kwargs):
            failed.append(1)
            raise OperationalError("server closed the connection unexpectedly")
        return real(*args, **kwargs)

    return wrapper


def writing_an_answer(message, **kwargs) -> bool:
    return kwargs["kind"] == EmailKind.ANSWER


@pytest.fixture
def retries_run_inline():
    """Let a task run in the test process retry as a worker would (a propagated error would end it instead)."""
    propagates = app.conf.task_eager_propagates
    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = propagates


def answers_to_alice(mailoutbox) -> list:
    return [m for m in mailoutbox if m.to == ["alice@example.com"] and m.subject.startswith("Re: ")]


@pytest.mark.parametrize(("module", "name", "when"), [(outbox, "put", writing_an_answer),
                                                     (compose, "answer_email", lambda *a, **k: True)],
                         ids=["writing the answer", "composing the answer after the move"])
def test_a_failure_after_the_duplicate_row_is_undone_and_the_redelivery_plays_and_answers_once(
        players_language, started_game, turn_email, mailoutbox, monkeypatch, module, name, when):
    monkeypatch.setattr(module, name, fails_once(getattr(module, name), when))
    raw = reply_bytes(turn_email, "handmaid", message_id="<once@client.example>")
    written = move_in(players_language, started_game, HANDMAID)
    with pytest.raises(OperationalError):
        handle_inbound(raw)
    assert not InboundEmail.objects.exists() and not Move.objects.filter(game=started_game).exists()
    assert handle_inbound(raw) == "played handmaid"  # the redelivery
    assert handle_inbound(raw) == "duplicate"
    assert Move.objects.filter(game=started_game).count() == 1
    assert OutgoingEmail.objects.filter(kind=EmailKind.ANSWER, inbound__message_id="<once@client.example>").count() == 1
    [answer] = answers_to_alice(mailoutbox)
    assert worded(players_language, 'Your move "%(move)s" was played.', move=written) in answer.body


@pytest.mark.django_db(transaction=True)
def test_the_task_retries_a_database_error_and_the_reply_is_played_and_answered_once(
        players_language, started_game, turn_email, mailoutbox, monkeypatch, retries_run_inline):
    monkeypatch.setattr(outbox, "put", fails_once(outbox.put, writing_an_answer))
    result = tasks.process_inbound_email.delay(
        base64.b64encode(reply_bytes(turn_email, "handmaid", message_id="<retried@client.example>")).decode())
    assert result.get() == "played handmaid"
    assert Move.objects.filter(game=started_game).count() == 1 and InboundEmail.objects.count() == 1
    assert OutgoingEmail.objects.filter(kind=EmailKind.ANSWER).count() == 1
    assert len(answers_to_alice(mailoutbox)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_failure_in_the_moves_after_commit_step_leaves_one_move_and_one_answer(
        started_game, turn_email, mailoutbox, monkeypatch, retries_run_inline):
    """Past the commit the move and its answer are kept: the retry finds a duplicate, the sweep sends the answer."""
    monkeypatch.setattr(dispatch, "queue", fails_once(dispatch.queue))
    result = tasks.process_inbound_email.delay(
        base64.b64encode(reply_bytes(turn_email, "handmaid", message_id="<late@client.example>")).decode())
    assert result.get() == "duplicate"  # the retry: the first run had committed the move and its answer
    assert Move.objects.filter(game=started_game).count() == 1
    [answer] = OutgoingEmail.objects.filter(kind=EmailKind.ANSWER)
    with time_machine.travel(timezone.now() + outbox.SWEEP_AFTER + timedelta(seconds=1)):
        tasks.sweep_outbox.delay()
        tasks.sweep_outbox.delay()
    assert [m.extra_headers["Message-ID"] for m in answers_to_alice(mailoutbox)] == [answer.message_id]


def test_a_message_id_longer_than_its_column_is_kept_cut_and_known_when_redelivered(started_game, turn_email,
                                                                                   mailoutbox):
    message_id = f"<{'x' * 983}@client.example>"
    assert len(message_id) == 1000
    raw = reply_bytes(turn_email, "handmaid", message_id=message_id)
    assert handle_inbound(raw) == "played handmaid"
    assert handle_inbound(raw) == "duplicate"
    assert list(InboundEmail.objects.values_list("message_id", flat=True)) == [message_id[:200]]
    assert Move.objects.filter(game=started_game).count() == 1 and len(answers_to_alice(mailoutbox)) == 1
