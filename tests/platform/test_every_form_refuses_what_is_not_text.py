"""Every form of the site refuses a field that is not UTF-8 text with a 400 page, and changes nothing (issue 42).

The forms are found as a browser finds them: every page of the URL configuration (``secrecy/doors.py``) is
read by a player and by a visitor, and each ``<form>`` on it is sent back as a browser would send it, its
fields at their values, once for each field with that field's value replaced by bytes that are not UTF-8:
urlencoded, and once more as ``multipart/form-data``. A form added to a page later is sent too.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urljoin

import pytest
from django.test import Client
from lxml import html

from tests.platform.play.test_bad_input import database_rows
from tests.platform.secrecy import doors

pytestmark = pytest.mark.django_db

# A surrogate's own UTF-8 bytes (what a lone "\ud800" becomes when percent-encoded), and a sequence cut short.
NOT_UTF8 = ("%ED%A0%80", "%C3")


@dataclass(frozen=True)
class Form:
    method: str
    action: str
    fields: tuple[tuple[str, str], ...]  # what a browser sends, in order
    page: str


def forms_of(client: Client, door: doors.Door) -> list[Form]:
    """Return every form on every page the door's viewer can read, once each."""
    found: dict[tuple, Form] = {}
    for route in doors.walked_routes():
        if route.name in doors.POSTS:
            continue  # a route that takes POSTs only: no page to read
        page = door.path(route)
        answer = client.get(page)
        if answer.status_code != 200 or not answer["Content-Type"].startswith("text/html"):
            continue
        for form in html.fromstring(answer.content).forms:
            action = urljoin(page, form.action or page)
            fields = tuple((name, value or "") for name, value in form.form_values())
            # A field the browser leaves out as it stands (an unchecked box, a button) is sent too, empty.
            fields += tuple((name, "") for name in form.fields.keys() if name and name not in dict(fields))
            named = tuple(sorted({name for name, _ in fields}))
            found.setdefault((form.method, action, named), Form(form.method, action, fields, page))
    return list(found.values())


def urlencoded(fields, bad_name: str, bad: str) -> str:
    return "&".join(f"{quote(name)}={bad if name == bad_name else quote(value)}" for name, value in fields)


def multipart(fields, bad_name: str) -> tuple[bytes, str]:
    parts = [f'--XyZ\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'.encode()
             + (b"caf\xe9" if name == bad_name else value.encode()) + b"\r\n" for name, value in fields]
    return b"".join(parts) + b"--XyZ--\r\n", "multipart/form-data; boundary=XyZ"


def sent_forms(form: Form):
    """Yield (label, method, path, body, content type) for each way one of the form's fields is not text."""
    fields = form.fields
    for name in dict.fromkeys(name for name, _ in fields):
        for bad in NOT_UTF8:
            if form.method == "GET":
                yield f"{name}={bad}", "GET", f"{form.action}?{urlencoded(fields, name, bad)}", "", ""
            else:
                yield (f"{name}={bad}", "POST", form.action, urlencoded(fields, name, bad),
                       "application/x-www-form-urlencoded")
        if form.method == "POST":
            body, content_type = multipart(fields, name)
            yield f"{name} (multipart)", "POST", form.action, body, content_type


@pytest.mark.parametrize("signed_in", [True, False], ids=["player", "visitor"])
def test_every_form_refuses_a_field_that_is_not_text_and_changes_nothing(started_game, alice, signed_in, settings,
                                                                         subtests):
    settings.RATE_LIMITS_ON = False
    settings.ACCOUNT_RATE_LIMITS = False
    door = doors.Door(game=started_game, user=alice if signed_in else None)
    client = door.client()
    forms = forms_of(client, door)
    before = database_rows()
    sent = []
    for form in forms:
        for label, method, path, body, content_type in sent_forms(form):
            sent.append((form.action, label))
            with subtests.test(f"{method} {path} {label} (the form of {form.page})"):
                if method == "GET":
                    answer = client.get(path)
                else:
                    answer = client.generic(method, path, body, content_type=content_type)
                assert answer.status_code == 400, (answer.status_code, answer.content[:300])
                assert answer["Content-Type"].startswith("text/html")
                assert b"Bad request (400)" in answer.content and b"is not valid text" in answer.content
    # The walk found the forms that matter: a move, a new table, table talk, settings, signing in.
    actions = {action for action, _ in sent}
    wanted = ({f"/games/{started_game.pk}/move/", "/games/new/", f"/games/{started_game.pk}/chat/post/",
               "/accounts/settings/", "/accounts/tokens/"} if signed_in
              else {"/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"})
    assert wanted <= actions, wanted - actions
    assert len(sent) > (100 if signed_in else 20)
    assert database_rows() == before
