"""axe-core on every page of the URL walk, at desktop and phone sizes: nothing critical, nothing serious.

The pages are those of the secrecy walk (``tests/platform/secrecy/doors.py`` walks the URL
configuration itself, so a page added later is checked too): every walked route that answers a whole
HTML page. A game's pages (the game, its replay, its invitation, its record…) are read for each game
mid-game, by the player to move, and finished; the site's other pages (the lobby, settings, a
player's page, the leaderboard, the help…) by a player and by a visitor who has not logged in.
Each is opened in Chromium at 1280 × 1000 and at 390 × 844 (a finished game's at the first only: its phone
layout is the mid-game's, stacked the same way; ``make test`` reads so every page of one game and the board's
pages of each, ``make test-long`` every page of each: ``WHOLE``; the site's other pages ``make test`` reads at the
phone's size one of each layout, ``PHONE_SAMPLE``) and axe runs on the whole page; on a
game's page, every tile and card of the board must also be named for what it is and whose
(``positions.assert_board_named``), with no stray letter read out.

What axe finds of moderate impact on a page must be listed in ``MODERATE`` with the reason it stays;
anything else of moderate impact fails too, so a new one is either fixed or justified here. Minor
findings are printed (``-s``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.browser.axe import axe_violations, described, serious
from tests.browser.positions import BOARD_READY, SIZES, assert_board_named, position
from tests.browser.test_play_in_browser import log_in
from tests.platform.secrecy import doors
from turnbased.mail import compose
from turnbased.mail.models import LocalMessage
from turnbased.play.models import GameStatus

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# A game's own pages: their paths need the game (or its invitation, or a position of it).
GAME_PARAMETERS = {"game_id", "invite_code", "seq"}
# Moderate findings that stay, and why: (axe's rule id, the page's path) and the reason.
MODERATE: dict[tuple[str, str], str] = {
    ("region", "/api/docs/"): "Swagger UI draws the API's title and description outside the main landmark it draws "
                              "around the operations; wrapping it in one would nest two main landmarks",
    ("heading-order", "/api/docs/"): "Swagger UI's operation groups are level-three headings under the page's "
                                     "level-one heading (its own title is not a heading element)",
}


def html_pages(door: doors.Door, client: Client, game_pages: bool) -> list[str]:
    """Return the paths of the walked routes that answer this viewer a whole HTML page."""
    found = []
    for route in doors.walked_routes():
        if route.name in doors.POSTS or bool(GAME_PARAMETERS & set(route.parameters)) != game_pages:
            continue
        path = door.path(route)
        response = client.get(path)
        if response.streaming or response.status_code != 200:
            continue
        if "html" in response.get("Content-Type", "") and b"<html" in response.content[:500]:
            found.append(path)
    return found


def check(page, base: str, paths: list[str], ready: dict[str, str] | None = None,
          also: dict[str, Callable] | None = None, sizes: tuple[str, ...] = tuple(SIZES)) -> dict[str, list[dict]]:
    """Open each path at each of ``sizes``, run axe on the whole page, and return what it finds, by size and path.

    ``ready`` names, for a path, what must be drawn before axe runs (a board, Swagger UI's operations);
    ``also``, a check of its own to run on a path's page once it is drawn (the board's names).
    """
    found: dict[str, list[dict]] = {}
    for size in sizes:
        page.set_viewport_size(SIZES[size])
        for path in paths:
            page.goto(base + path)
            page.wait_for_load_state("load")
            if ready and path in ready:
                page.wait_for_selector(ready[path])
                page.wait_for_timeout(300)  # what scripts draw settles
            found[f"{size} {path}"] = axe_violations(page)
            if also and path in also:
                also[path](page)
    return found


def assert_clean(found: dict[str, list[dict]]) -> None:
    """Nothing critical or serious anywhere; nothing moderate that ``MODERATE`` does not justify."""
    blocking = {where: serious(violations) for where, violations in found.items() if serious(violations)}
    unjustified = {where: [v for v in violations
                           if v["impact"] == "moderate" and (v["id"], where.split(" ")[-1]) not in MODERATE]
                   for where, violations in found.items()}
    unjustified = {where: violations for where, violations in unjustified.items() if violations}
    for where, violations in found.items():
        if violations:
            print(f"\n{where}:\n{described(violations)}")
    assert not blocking, "\n".join(f"{where}:\n{described(violations)}" for where, violations in blocking.items())
    assert not unjustified, "moderate, not in MODERATE:\n" + "\n".join(
        f"{where}:\n{described(violations)}" for where, violations in unjustified.items())


# The game whose pages make test reads all at every size, mid-game and finished; of the others, make test reads the
# board's pages (the game's, its replay) mid-game at both sizes, and their other pages (an invitation, a
# record...: the same templates around another game's text) mid-game at the desktop size. make test-long reads
# every page of every game so, and the others' board pages finished too (the mid-game's without the move
# controls, with the result: the finished WHOLE game's pages read those templates in make test).
WHOLE = "love-letter"
GAME_CASES = [
    pytest.param(slug, finished, every_page, id=f"{slug}-{'finished' if finished else 'mid-game'}"
                 + ("-every-page" if every_page else ""),
                 marks=pytest.mark.long if every_page or (finished and slug != WHOLE) else ())
    for slug in sorted(BOARD_READY) for finished in (False, True)
    for every_page in ((False,) if slug == WHOLE else (False, True))]


@pytest.mark.parametrize("slug, finished, every_page", GAME_CASES)
def test_every_page_of_a_game_has_nothing_critical_or_serious(browser, live_server, alice, bob, slug, finished,
                                                              every_page):
    """make test: every game's board pages mid-game at both sizes and finished at the desktop's, its other pages
    mid-game at the desktop's, and every page of one game (``WHOLE``) as make test-long reads every game's:
    each page mid-game at both sizes, finished at the desktop's."""
    game = position(slug, [alice, bob], finished)
    viewer = [alice, bob][game.to_move[0]] if game.status == GameStatus.ACTIVE else alice
    door = doors.Door(game=game, user=viewer)
    paths = html_pages(door, door.client(), game_pages=True)
    assert f"/games/{game.pk}/" in paths and any("replay" in path for path in paths), paths
    page = log_in(browser, live_server, viewer.username)
    boards = {f"/games/{game.pk}/": BOARD_READY[slug], f"/games/{game.pk}/replay/": "#board"}
    # The board's pieces are named for a screen reader at both sizes (axe checks names exist, not what they say).
    named = {f"/games/{game.pk}/": lambda page: assert_board_named(page, slug)}
    # A finished game's pages are the mid-game's without the move controls, with the result: read at the desktop
    # size; the phone's layout (the panels stacked under the board) is read mid-game, where it holds the most.
    sizes = ("desktop",) if finished else tuple(SIZES)
    if every_page or slug == WHOLE:
        assert_clean(check(page, live_server.url, paths, ready=boards, also=named, sizes=sizes))
        return
    found = check(page, live_server.url, [path for path in paths if path in boards], ready=boards, also=named,
                  sizes=sizes)
    if not finished:
        found |= check(page, live_server.url, [path for path in paths if path not in boards], sizes=("desktop",))
    assert_clean(found)


# The site's other pages make test reads at the phone's size too (every page is read at the desktop's): one of each
# layout the phone's style sheet changes (a list of games become cards, a form, a player's page with its tables, a
# page of settings); make test-long reads every page at both sizes. The pages share their templates' parts (the
# menu, the lists, the forms): what the phone's layout may break is seen on one page of each kind.
PHONE_SAMPLE = ("/", "/accounts/settings/", "/games/new/", "/friends/", "/accounts/login/")


@pytest.mark.parametrize("every_size", [False, pytest.param(True, marks=pytest.mark.long)],
                         ids=["desktop-and-phone-sample", "every-size"])
def test_every_other_page_has_nothing_critical_or_serious(browser, live_server, alice, bob, settings, every_size):
    game = position("love-letter", [alice, bob], finished=True)
    player = doors.Door(game=game, user=alice)
    visitor = doors.Door(game=game, user=None)
    player_paths = html_pages(player, player.client(), game_pages=False)
    visitor_paths = html_pages(visitor, visitor.client(), game_pages=False)
    assert {"/", "/accounts/settings/", f"/players/{alice.username}/"} <= set(player_paths), player_paths
    assert {"/accounts/login/", "/accounts/signup/"} <= set(visitor_paths), visitor_paths
    # Pages the walk leaves out because they hold no game are pages a person reads all the same: the API's
    # description, and (under make run, DEBUG on) the development mailbox with a message the site sent.
    settings.DEBUG = True
    kept = LocalMessage.objects.create(
        sender="turnbased@localhost", recipients=[alice.email], subject="Your game ended", reply_to="",
        text="The game ended.", html=_email_html(game, alice))
    ready = {reverse("api-docs"): ".opblock-summary", reverse("mailbox"): f"a[href='/mailbox/{kept.pk}/']",
             reverse("mailbox-message", args=[kept.pk]): "iframe.mail-html"}
    player_paths += list(ready)
    # Issue 44: a group's pages with something in each section (the walk's table is no group's). The group's own
    # page at both sizes; the others, the same templates' lists and forms, at the desktop size (axe costs seconds a
    # page).
    group_paths = _group_pages(alice, bob)
    player_paths.append(group_paths[2])
    page = log_in(browser, live_server, alice.username)
    phone = [path for path in player_paths if every_size or path in PHONE_SAMPLE or path.startswith("/players/")]
    assert every_size or len(phone) >= 4, phone
    found = check(page, live_server.url, player_paths, ready, sizes=("desktop",))
    found |= check(page, live_server.url, phone, ready, sizes=("phone",))
    found |= check(page, live_server.url, group_paths[:2] + group_paths[3:], sizes=("desktop",))
    found |= {f"visitor {where}": violations for where, violations in
              check(browser.new_page(), live_server.url, visitor_paths,
                    sizes=tuple(SIZES) if every_size else ("desktop",)).items()}
    if not every_size:
        found |= {f"visitor {where}": violations for where, violations in
                  check(browser.new_page(), live_server.url, [path for path in visitor_paths if path in PHONE_SAMPLE],
                        sizes=("phone",)).items()}
    found |= {f"visitor {where}": violations for where, violations in
              check(browser.new_page(), live_server.url, group_paths[:1] + group_paths[2:3], sizes=("desktop",)).items()}
    assert_clean(found)


def _group_pages(owner, member) -> list[str]:
    """A group of ``owner``'s with ``member`` in it, a request, an invitation and a table waiting; its pages."""
    from turnbased.groups import services as groups_services
    from turnbased.play import services as play_services

    group = groups_services.group_create(user=owner, name="Thursday Club", entry="request",
                                         description="Slow games among friends.")
    groups_services.join(user=member, group_id=group.pk)
    groups_services.request_answer(user=owner, group_id=group.pk, username=member.username, accept=True)
    asker, invited = (get_user_model().objects.create_user(name, f"{name}@example.com") for name in ("asker", "guest"))
    groups_services.join(user=asker, group_id=group.pk)
    groups_services.invite(user=owner, group_id=group.pk, username=invited.username)
    play_services.create_game(creator=member, engine_slug="love-letter", players=3, visibility="private",
                              terms={"group": group.pk})
    base = f"/groups/{group.pk}/"
    return ["/groups/", "/groups/new/", base, f"{base}members/", f"{base}tables/", f"{base}settings/",
            f"{base}hand-over/", f"{base}delete/", f"{base}members/{member.username}/remove/",
            f"/games/new/?group={group.pk}"]


def _email_html(game, user) -> str:
    message = compose.game_news_email(game, user, "game_started")
    return next(content for content, kind in message.alternatives if kind == "text/html")
