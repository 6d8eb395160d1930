"""An accepted reply is a row in PostgreSQL until a worker has handled it, and is handled exactly once (issue 27).

Before, the inbound server said 250 once the message was in the broker: a Redis that lost its memory lost it,
and a worker killed mid-reply left it for the broker's visibility timeout (an hour). The fault tests kill the
real processes (tests/faults/test_inbound.py); these hold the rules.
"""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
import time_machine
from django.db import OperationalError
from django.utils import timezone

from tests.platform.mail.conftest import reply_bytes
from tests.platform.mail.test_inbound_redelivery import fails_once, retries_run_inline, writing_an_answer  # noqa: F401
from turnbased.kit.db import dispatch
from turnbased.mail import accepted, acting, outbox, tasks
from turnbased.mail.models import AcceptedReply, EmailKind, InboundEmail, OutgoingEmail
from turnbased.play.models import Move

pytestmark = pytest.mark.django_db(transaction=True)

AFTER_THE_SWEEPS_WAIT = timedelta(minutes=2)


def _moves(game) -> int:
    return Move.objects.filter(game=game).count()


def _answers() -> int:
    return OutgoingEmail.objects.filter(kind=EmailKind.ANSWER).count()


def test_an_accepted_reply_is_kept_then_handled_once_and_forgotten(started_game, turn_email):
    queued = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dispatch, "queue", lambda task, args, countdown=0: queued.append((task, args)))
        pk = accepted.accept(reply_bytes(turn_email, "handmaid"), ["reply@example.com"])
    # Committed, and its handling named once it was: nothing done yet.
    assert AcceptedReply.objects.filter(pk=pk, attempts=0).exists()
    assert queued == [(accepted.HANDLE_TASK, [pk])] and _moves(started_game) == 0
    assert tasks.handle_accepted_reply.delay(pk).get() == "played handmaid"
    assert not AcceptedReply.objects.exists()
    assert _moves(started_game) == 1 and InboundEmail.objects.count() == 1 and _answers() == 1
    assert tasks.handle_accepted_reply.delay(pk).get() == "handled already, or in hand"
    assert _moves(started_game) == 1 and _answers() == 1


def test_the_inbound_path_handles_it_at_once_when_all_is_well(started_game, turn_email):
    tasks.enqueue_inbound(reply_bytes(turn_email, "handmaid"))  # the tests run the queued task in the process
    assert not AcceptedReply.objects.exists() and _moves(started_game) == 1 and _answers() == 1


def test_a_reply_whose_task_was_lost_is_handled_by_the_sweep_once(started_game, turn_email, settings):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dispatch, "queue", lambda *args, **kwargs: False)  # the broker lost it
        tasks.enqueue_inbound(reply_bytes(turn_email, "handmaid"))
    assert AcceptedReply.objects.count() == 1
    assert tasks.sweep_accepted_replies.delay().get() == 0  # too soon: its own task may yet come
    with time_machine.travel(timezone.now() + timedelta(seconds=settings.INBOUND_SWEEP_AFTER_SECONDS + 1)):
        assert tasks.sweep_accepted_replies.delay().get() == 1
        assert tasks.sweep_accepted_replies.delay().get() == 0
    assert _moves(started_game) == 1 and _answers() == 1


def test_a_database_error_mid_reply_undoes_it_all_and_the_retry_handles_it_once(
        started_game, turn_email, monkeypatch, retries_run_inline):  # noqa: F811
    monkeypatch.setattr(outbox, "put", fails_once(outbox.put, writing_an_answer))
    tasks.enqueue_inbound(reply_bytes(turn_email, "handmaid"))
    assert not AcceptedReply.objects.exists()
    assert _moves(started_game) == 1 and InboundEmail.objects.count() == 1 and _answers() == 1


def test_a_reply_that_keeps_failing_is_left_for_an_operator_after_its_attempts(
        started_game, turn_email, monkeypatch, settings, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(acting, "act", broken)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dispatch, "queue", lambda *args, **kwargs: False)
        pk = accepted.accept(reply_bytes(turn_email, "handmaid"))
    later = timezone.now() + timedelta(seconds=settings.INBOUND_SWEEP_AFTER_SECONDS + 1)
    with time_machine.travel(later):
        for attempt in range(1, accepted.MAX_ATTEMPTS + 1):
            with pytest.raises(RuntimeError):
                tasks.sweep_accepted_replies.delay().get()
            assert AcceptedReply.objects.get(pk=pk).attempts == attempt  # counted though its transaction failed
        with caplog.at_level(logging.ERROR, logger="turnbased.mail.accepted"):
            assert tasks.sweep_accepted_replies.delay().get() == 0
    assert "left for an operator" in caplog.text
    assert AcceptedReply.objects.filter(pk=pk).exists() and _moves(started_game) == 0
    assert not InboundEmail.objects.exists()


def test_without_the_database_the_message_is_not_accepted(started_game, turn_email, monkeypatch):
    """The SMTP server answers 451 (try later) when this raises: the sender's server keeps the message."""
    monkeypatch.setattr(AcceptedReply.objects, "create", fails_once(AcceptedReply.objects.create))
    with pytest.raises(OperationalError):
        tasks.enqueue_inbound(reply_bytes(turn_email, "handmaid"))
    assert not AcceptedReply.objects.exists() and _moves(started_game) == 0
