"""The installable site and the devices in settings: the service worker at the root, the manifest and its
icons, the offline page, the push script's key, the turn offer beside the turn, and Forget."""

from __future__ import annotations

import json

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from PIL import Image, ImageChops

from turnbased.notifications import icons
from turnbased.notifications.models import PushSubscription
from turnbased.notifications.vapid import public_key_of

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_service_worker_is_served_at_the_root_and_never_from_a_cache():
    answer = Client().get("/service-worker.js")
    assert answer.status_code == 200 and answer["Content-Type"] == "text/javascript; charset=utf-8"
    assert "no-cache" in answer["Cache-Control"] and answer["Service-Worker-Allowed"] == "/"
    source = answer.content.decode()
    assert 'addEventListener("push"' in source and 'OFFLINE_URL = "/offline/"' in source
    assert Client().head("/service-worker.js").status_code == 200


def test_the_manifest_names_the_site_and_its_icons_which_exist_at_their_sizes():
    answer = Client().get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="de")
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert (manifest["name"], manifest["start_url"], manifest["display"]) == ("turnbased", "/", "standalone")
    assert manifest["description"] == "Brettspiele, gemütlich mit Freunden gespielt" and manifest["lang"] == "de"
    purposes = set()
    for icon in manifest["icons"]:
        path = finders.find(icon["src"].removeprefix("/static/"))
        assert path, icon["src"]
        if icon["type"] == "image/png":
            width, height = map(int, icon["sizes"].split("x"))
            assert Image.open(path).size == (width, height)
            purposes.add(icon["purpose"])
    assert purposes == {"any", "maskable"}


def test_the_committed_icons_are_the_favicons_design_drawn():
    for name, size, rounded, scale in icons.ICONS:
        committed = Image.open(icons.FOLDER / name).convert("RGBA")
        drawn = icons.draw(size, rounded, scale)
        assert ImageChops.difference(committed, drawn).getbbox() is None, name


def test_the_offline_page_stands_alone_in_the_readers_language_and_holds_no_account(alice):
    answer = signed_in(alice).get("/offline/", HTTP_ACCEPT_LANGUAGE="hu")
    page = answer.content.decode()
    assert answer.status_code == 200 and "Nincs kapcsolat" in page
    assert "alice" not in page and "csrf" not in page.lower() and "<script" not in page and 'rel="stylesheet"' not in page


def test_every_page_links_the_manifest_and_a_players_carries_the_push_key(alice, vapid_key):
    anonymous = Client().get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in anonymous
    assert 'data-service-worker="/service-worker.js"' in anonymous and "data-push-key" not in anonymous
    player = signed_in(alice).get("/").content.decode()
    assert f'data-push-key="{public_key_of(vapid_key)}"' in player
    assert 'data-push-subscriptions="/api/me/push-subscriptions/"' in player


def test_without_a_vapid_key_no_page_offers_push(alice, settings):
    settings.VAPID_PRIVATE_KEY = ""
    assert "data-push-key" not in signed_in(alice).get("/").content.decode()
    assert "does not send push notifications" in signed_in(alice).get("/accounts/settings/").content.decode()


def test_the_turn_offer_sits_beside_the_turn_for_players_and_in_the_lobby(started_game, alice, carol):
    page = signed_in(alice).get(f"/games/{started_game.pk}/").content.decode()
    turn_line = page.split('<p class="turn">', 1)[1].split("</p>", 1)[0]
    assert "data-notify-turn" in turn_line and "Tell me when it is my turn" in turn_line
    assert page.count("data-notify-turn") == 1  # no longer in the chat
    assert "data-notify-turn" not in signed_in(carol).get(f"/games/{started_game.pk}/").content.decode()
    lobby = signed_in(alice).get("/").content.decode()
    my_games = lobby.split('id="my-games"', 1)[1].split("</section>", 1)[0]
    assert "data-notify-turn" in my_games and lobby.count("data-notify-turn") == 1


def test_settings_list_my_devices_and_forget_one(alice, bob, push_service, subscribe):
    phone = subscribe(alice, push_service.device("phone"), "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) "
                                                           "AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 "
                                                           "Mobile/15E148 Safari/604.1")
    subscribe(bob, push_service.device("bobs-phone"))
    client = signed_in(alice)
    page = client.get("/accounts/settings/").content.decode()
    assert "Notifications on your devices" in page and "Safari on iPhone" in page
    assert f'data-push-endpoint="{phone.endpoint}"' in page and "bobs-phone" not in page
    bobs = PushSubscription.objects.get(user=bob)
    answer = client.post(f"/notifications/devices/{bobs.pk}/forget/", follow=True)
    assert "No such device" in answer.content.decode() and PushSubscription.objects.filter(user=bob).exists()
    answer = client.post(f"/notifications/devices/{phone.pk}/forget/", follow=True)
    assert answer.redirect_chain == [("/accounts/settings/", 302)]
    assert "will no longer be told" in answer.content.decode()
    assert not PushSubscription.objects.filter(user=alice).exists()
    assert client.get(f"/notifications/devices/{phone.pk}/forget/").status_code == 405


def test_settings_in_hungarian_name_the_device_in_hungarian(alice, push_service, subscribe):
    from turnbased.accounts.services.languages import language_choose

    language_choose(user=alice, language="hu")
    subscribe(alice, push_service.device("phone"), "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 "
                                                   "Firefox/133.0")
    page = signed_in(alice).get("/accounts/settings/").content.decode()
    assert "Értesítések az eszközeiden" in page and "Firefox, Linux rendszeren" in page
