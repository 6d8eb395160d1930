"""A new game brings its own words in every language, and the platform needs no change to speak them.

A fifth game is written here, as a package of its own with a Hungarian catalog beside its code, and
put where the platform looks for games. Nothing of the platform is told about it: its name, options,
history lines, moves, result and illegal-move reasons reach a Hungarian player in Hungarian and an
English one in English, through the pages, the API and the engine contract alone.
"""

from __future__ import annotations

import sys
import textwrap

import pytest
from django.test import Client

import games
from turnbased.kit.texts import catalogs
from turnbased.accounts.services.languages import language_choose
from turnbased.play import services

pytestmark = pytest.mark.django_db

ENGINE = '''
"""Take one or two: two players take turns; whoever takes the last of seven stones wins."""

from games.base import Engine, Event, IllegalMove, OptionSpec
from games.i18n import catalog_of

_ = catalog_of(__name__)
N_ = _.noop


class TakeEngine(Engine):
    slug = "take-the-last"
    name = N_("Take the Last Stone")
    summary = N_("Take one or two stones; the last one wins.")
    min_players = max_players = 2
    option_specs = (OptionSpec("stones", N_("Stones"), ((7, N_("Seven")),), 7),)

    def validate_options(self, players, options):
        return {"stones": 7, **options}

    def setup(self, players, options, seed):
        return {"players": list(players), "left": options["stones"], "turn": 0, "winner": None}

    def to_move(self, state):
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_moves(self, state, seat):
        return [{"take": n} for n in (1, 2) if n <= state["left"]] if seat in self.to_move(state) else []

    def apply(self, state, seat, move):
        if move not in self.legal_moves(state, seat):
            raise IllegalMove(_("Take one or two stones, no more than are left."))
        left = state["left"] - move["take"]
        winner = seat if left == 0 else None
        return ({**state, "left": left, "turn": 1 - seat, "winner": winner},
                [Event("took", {"seat": seat, "take": move["take"], "left": left})])

    def result(self, state):
        if state["winner"] is None:
            return None
        return {"winners": [state["winner"]], "scores": [int(seat == state["winner"]) for seat in (0, 1)],
                "ranking": [state["winner"], 1 - state["winner"]], "summary": "someone wins"}

    def describe_result(self, result, players):
        return _("{player} took the last stone.").format(player=players[result["winners"][0]])

    def view(self, state, seat):
        return {"left": state["left"], "turn": state["turn"]}

    def describe_event(self, event, players, viewer):
        return _.ngettext("{player} took {count} stone.", "{player} took {count} stones.",
                          event.data["take"]).format(player=players[event.data["seat"]], count=event.data["take"])

    def describe_move(self, state, move):
        return _("take {count}").format(count=move["take"])

    def parse_move(self, text, state, seat):
        words = text.split()
        return {"take": int(words[-1])} if words and words[-1].isdigit() else {"take": 0}

    def notation_help(self):
        return _("Write take 1 or take 2.")


ENGINE = TakeEngine()
'''

CATALOG = '''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\\n"

msgid "Take the Last Stone"
msgstr "Az utolsó kavics"

msgid "Take one or two stones; the last one wins."
msgstr "Vegyél el egy vagy két kavicsot; aki az utolsót viszi el, nyer."

msgid "Stones"
msgstr "Kavicsok"

msgid "Seven"
msgstr "Hét"

msgid "Take one or two stones, no more than are left."
msgstr "Egy vagy két kavicsot vehetsz el, de nem többet, mint amennyi maradt."

msgid "{player} took the last stone."
msgstr "{player} vitte el az utolsó kavicsot."

msgid "{player} took {count} stone."
msgid_plural "{player} took {count} stones."
msgstr[0] "{player} elvett {count} kavicsot."
msgstr[1] "{player} elvett {count} kavicsot."

msgid "take {count}"
msgstr "elvesz {count}"

msgid "Write take 1 or take 2."
msgstr "Írd: elvesz 1 vagy elvesz 2."
'''


@pytest.fixture
def fifth_game(tmp_path, monkeypatch):
    """Install a game package the platform has never seen, with its Hungarian catalog compiled."""
    package = tmp_path / "take_the_last"
    (package / "locale" / "hu" / "LC_MESSAGES").mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(ENGINE))
    (package / "locale" / "hu" / "LC_MESSAGES" / "game.po").write_text(textwrap.dedent(CATALOG).lstrip(),
                                                                     encoding="utf-8")
    catalogs.compile_catalogs(tmp_path)
    monkeypatch.setattr(games, "__path__", [*games.__path__, str(tmp_path)])
    games.engines.cache_clear()
    games._engine_at.cache_clear()
    yield "take-the-last"
    games.engines.cache_clear()
    games._engine_at.cache_clear()
    sys.modules.pop("games.take_the_last", None)


def test_a_new_game_speaks_each_players_language_with_no_platform_change(fifth_game, alice, bob):
    language_choose(user=alice, language="hu")
    game = services.create_game(creator=alice, engine_slug=fifth_game, players=2, seed="words")
    services.join_game(game_id=game.pk, user=bob)
    game.refresh_from_db()
    mover, other = (alice, bob) if game.seats.get(index=game.to_move[0]).user == alice else (bob, alice)
    services.submit_move(game_id=game.pk, user=mover, expected_seq=game.seq, move={"take": 2})

    hungarian, english = Client(), Client()
    hungarian.force_login(alice)
    english.force_login(bob)
    page_hu = hungarian.get(f"/games/{game.pk}/").content.decode()
    page_en = english.get(f"/games/{game.pk}/").content.decode()
    assert "Az utolsó kavics" in page_hu and "elvett 2 kavicsot." in page_hu
    assert "Take the Last Stone" in page_en and "took 2 stones." in page_en

    types = Client().get("/api/game-types/", HTTP_ACCEPT_LANGUAGE="hu").json()
    (listed,) = [entry for entry in types if entry["game"] == fifth_game]
    assert listed["name"] == "Az utolsó kavics" and listed["notation"] == "Írd: elvesz 1 vagy elvesz 2."
    assert listed["options"][0]["label"] == "Kavicsok" and listed["options"][0]["name"] == "stones"

    game.refresh_from_db()
    player = game.seats.get(index=game.to_move[0]).user
    language_choose(user=player, language="hu")
    client = Client()
    client.force_login(player)
    refused = client.post(f"/api/games/{game.pk}/moves/", {"move": {"take": 5}, "expected_seq": game.seq},
                          content_type="application/json")
    assert refused.status_code in (400, 409, 422), refused.content
    assert "Egy vagy két kavicsot vehetsz el" in refused.json()["detail"]
    assert mover != player and other == player
