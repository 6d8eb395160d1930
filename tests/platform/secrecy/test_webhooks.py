"""Webhooks send a player nothing they may not know, for every game and edition that hides something.

The twin worlds of ``worlds.py`` are played (as in ``test_every_door``) with every seat holding a
webhook for every kind of event. At each checkpoint the exact bodies the blind seats' hooks are
sent (``delivery.document`` and ``body_of``, as the sending task builds them) must read the same in
both worlds once event ids and times are masked. A leaky document (the game's stored state added)
does tell the worlds apart, so the comparison can fail.

The webhook routes are left out of the URL walk (``doors.LEFT_OUT``): they show a hook's owner their
own hook and its log (kinds, states, statuses, never an event's payload), and another user's hook
answers 404 (``tests/platform/webhooks/test_api.py``); what a hook is sent is checked here.
"""

from __future__ import annotations

import re

import pytest
from django.test import override_settings

from tests.platform.secrecy import doors
from tests.platform.secrecy.test_every_door import SCENARIOS, _play_world
from turnbased.webhooks import delivery, services
from turnbased.webhooks.models import Webhook, WebhookDelivery

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_user):
    seated, stranger = [make_user(f"seat{index}") for index in range(4)], make_user("stranger")
    for user in (*seated, stranger):
        user.api_key = doors.api_token(user)
    with override_settings(WEBHOOKS_ALLOW_PRIVATE_ADDRESSES=True, WEBHOOKS_ALLOW_HTTP=True):
        for user in seated:  # made once, outside the worlds: both worlds write to the same hooks
            services.webhook_create(owner=user, url="http://127.0.0.1:9999/hook")
    return seated, stranger


def _mask(text: str) -> str:
    text = re.sub(r'"id":\d+', '"id":<id>', text)  # event ids differ: the undone world's sequence moved on
    return re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+(Z|[+-]\d\d:\d\d)?", "<time>", text)


def _bodies(user, document=delivery.document) -> list[str]:
    """Return the bodies the user's hook is sent, in order, as the sending task builds them."""
    hook = Webhook.objects.get(owner=user)
    return [_mask(delivery.body_of(document(sent, hook)).decode())
            for sent in WebhookDelivery.objects.filter(hook=hook).order_by("id")]


def _reader(users, seats):
    return lambda game: {seat: _bodies(users[seat]) for seat in sorted(seats)}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[scenario.id for scenario in SCENARIOS])
def test_the_blind_seats_hooks_are_sent_the_same_in_both_worlds(scenario, players):
    seated, stranger = players
    users = seated[: scenario.players]
    worlds = [_play_world(scenario, world, users, stranger, read=_reader(users, scenario.blind)) for world in (0, 1)]
    sent = 0
    for (number, one), (_, two) in zip(*worlds):
        for seat in one:
            assert one[seat] == two[seat], (f"{scenario.id}: after {number} moves, seat {seat}'s webhook tells "
                                            f"the worlds apart:\n{one[seat]}\n{two[seat]}")
            sent += len(one[seat])
    assert sent, f"{scenario.id}: the blind seats' hooks were sent nothing: the test would see no leak"


@pytest.mark.parametrize("scenario", SCENARIOS[:3], ids=[scenario.id for scenario in SCENARIOS[:3]])
def test_a_leaky_document_does_tell_the_worlds_apart(scenario, players):
    """The comparison can fail: bodies that carried the game's stored state would differ between the worlds."""
    seated, stranger = players
    users = seated[: scenario.players]

    def leaky(sent, hook):
        from turnbased.play.models import Game

        document = delivery.document(sent, hook)
        if document["game"] is not None:
            document["data"] = {**document["data"], "state": Game.objects.get(pk=document["game"]).state}
        return document

    def read(game):
        return {seat: _bodies(users[seat], leaky) for seat in sorted(scenario.blind)}

    worlds = [_play_world(scenario, world, users, stranger, read=read) for world in (0, 1)]
    assert any(one != two for (_, one), (_, two) in zip(*worlds))
