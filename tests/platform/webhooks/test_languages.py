"""Webhooks in words: the API's refusals in the language asked, and what a hook is sent in its owner's language."""

from __future__ import annotations

import pytest
from django.utils import timezone, translation

from turnbased.accounts.services.languages import language_choose
from turnbased.webhooks import delivery, services
from turnbased.webhooks.models import PING, WebhookDelivery

pytestmark = pytest.mark.django_db



def test_a_refused_url_answers_in_the_language_asked_and_names_the_same_field(alice, api_client_for, settings):
    settings.RATE_LIMITS_ON = False
    client = api_client_for(alice)
    body = {"url": "ftp://hooks.example.org/in"}
    english = client.post("/api/webhooks/", body, format="json")
    german = client.post("/api/webhooks/", body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    hungarian = client.post("/api/webhooks/", body, format="json", HTTP_ACCEPT_LANGUAGE="hu")
    assert english.status_code == german.status_code == hungarian.status_code == 400  # the schema's pattern states the scheme (issue 42)
    assert english.json()["errors"] == {"url": ["The URL must start with https://."]}
    assert german.json()["errors"] == {"url": ["Die URL muss mit https:// beginnen."]}
    assert hungarian.json()["errors"] == {"url": ["Az URL-nek https:// előtaggal kell kezdődnie."]}
    missing = client.get("/api/webhooks/999999/", HTTP_ACCEPT_LANGUAGE="de")
    assert missing.status_code == 404 and missing.json()["detail"] == "Diesen Webhook gibt es nicht."


def test_a_ping_and_a_disabled_hooks_reason_are_worded_in_the_owners_language(alice, loopback_allowed):
    language_choose(user=alice, language="hu")
    hook, _ = services.webhook_create(owner=alice, url="http://127.0.0.1:9999/hook", kinds=["your_turn"])
    now = timezone.now()
    ping = WebhookDelivery.objects.create(hook=hook, kind=PING, created_at=now, next_attempt_at=now)
    sent = delivery.document(ping, hook)
    assert sent["kind"] == "ping" and sent["data"]["kinds"] == ["your_turn"]  # machine fields stay as they are
    assert sent["data"]["message"] == "Tesztesemény: erre az URL-re ezeknek a típusoknak az eseményei érkeznek."
    services.webhook_update(owner=alice, hook_id=hook.pk, active=False)
    hook.refresh_from_db()
    assert (hook.active, hook.disabled_reason) == (False, "a tulajdonosa kikapcsolta")
