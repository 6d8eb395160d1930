"""schemathesis' command line, every check and every phase over every operation: the server is as strict as its schema.

``test_fuzz.py`` draws requests at random (Hypothesis) against every object of a world. This runs
``st run --checks all`` as a third-party client would (issue 42: such a run, in the suite, reports nothing), with
every phase: each documented example, the coverage phase's boundary and near-boundary values of every parameter
and property (the shortest string, one past ``maxLength``, each enum value, a wrong type, a missing required
field...), ``FUZZED_EXAMPLES`` drawn requests per operation, and the stateful phase's chains of calls along the
links it infers (a resource created, then read, changed and deleted). It warns of nothing either: each operation
is seen to take a request (the hooks name real objects and steer some drawn data to data the world takes). Every check must pass: above all ``positive_data_acceptance`` (a request the schema allows is not
refused as malformed: 400 is kept for requests that break the schema, 422 answers one that cannot be done for
what it says) and ``negative_data_rejection`` (a request the schema forbids is refused). Requests naming an
object by id name a real one of the world (``fuzz_hooks.py``). The run is seeded and keeps no example
database, so it repeats exactly.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import get_engine
from tests.platform.api.test_fuzz import build_world
from tests.platform.conftest import api_token
from tests.platform.notifications.push_service import Device
from tests.platform.seats.conftest import taken_over
from turnbased.aftergame.services import rematch_propose
from turnbased.agreements.services import takeback_ask
from turnbased.following.services import watch_make
from turnbased.seats import services as seat_services
from turnbased.play import services
from turnbased.play.services.invitations import invitation_create

User = get_user_model()

HERE = Path(__file__).parent
PLAYED_GAME = "ann's love-letter in play"
# Drawn requests per operation in the fuzzing phase: with the coverage phase's few thousand, a run of about six
# minutes on two cores (2,686 requests: the coverage phase 295 s, fuzzing 59 s, stateful 5 s).
FUZZED_EXAMPLES = 5


@pytest.fixture
def world(transactional_db, make_user, settings):
    settings.RATE_LIMITS_ON = False  # a few thousand requests from one account in a minute
    # Webhooks to loopback (nothing is sent while the run lasts: no worker) and pushes to a known service, so that
    # a registration the hooks steer there is taken (fuzz_hooks.py).
    settings.WEBHOOKS_ALLOW_PRIVATE_ADDRESSES = True
    settings.WEB_PUSH_SERVICES = ["fcm.googleapis.com"]
    return build_world(make_user)


def _stayed_with_a_bot(stayer, late, seed: str):
    """A game in play of ``stayer`` and ``late`` where ``late`` ran out of time and a bot plays their seat: return the
    game and that seat."""
    for attempt in range(20):
        game, seat = taken_over(stayer, late, seed=f"{seed}-{attempt}")
        if game.seats.get(index=seat).user_id == late.pk:
            return game, seat
    raise AssertionError("no seed of twenty left the late player's seat to a bot")


def _seat_offer_targets(ann, ben, cat) -> dict[str, dict[str, int]]:
    """Issue 46: a game where ann stayed beside a bot (to offer its seat); her own offer (to read and withdraw); ben's
    offers of cat's seat, one listed (for ann to take) and one named to ann (to decline)."""
    offering, _ = _stayed_with_a_bot(ann, ben, "offering")
    game, seat = _stayed_with_a_bot(ann, ben, "offered")
    own = seat_services.offer_make(game_id=game.pk, user=ann, seat=seat)
    game, seat = _stayed_with_a_bot(ben, cat, "listed")
    listed = seat_services.offer_make(game_id=game.pk, user=ben, seat=seat)
    game, seat = _stayed_with_a_bot(ben, cat, "named")
    named = seat_services.offer_make(game_id=game.pk, user=ben, seat=seat, username=ann.username)
    late = offering.seats.get(user=ben).index
    # The offering game's seat a bot plays, to offer to a person (fuzz_hooks steers the body to it).
    return {"POST /api/games/{game_id}/seat-offers/": {"game_id": offering.pk, "seat": late},
            "GET /api/seat-offers/{offer_id}/": {"offer_id": own.pk},
            "DELETE /api/seat-offers/{offer_id}/": {"offer_id": own.pk},
            "POST /api/seat-offers/{offer_id}/accept/": {"offer_id": listed.pk},
            "POST /api/seat-offers/{offer_id}/decline/": {"offer_id": named.pk}}


def _watch_targets(ann, ben, cat) -> dict[str, dict[str, int]]:
    """Issue 46: a public table of ben and cat for ann to follow, and ann's watches of two more (one to read and
    change, one to stop)."""
    tables = [services.create_game(creator=creator, engine_slug="love-letter", players=3)
              for creator in (ben, cat, ben)]
    kept, dropped = (watch_make(user=ann, kind="game", target_id=table.pk)[0] for table in tables[1:])
    return {"POST /api/watches/": {"target": tables[0].pk},
            "GET /api/watches/{watch_id}/": {"watch_id": kept.pk},
            "PATCH /api/watches/{watch_id}/": {"watch_id": kept.pk},
            "DELETE /api/watches/{watch_id}/": {"watch_id": dropped.pk}}


def operation_targets(world) -> dict[str, dict[str, int]]:
    """Return the objects the operations that need one of their own name: a table to join, a rematch, an invitation."""
    ann, ben = world.player, User.objects.get(username="ben")
    finished = world.targets["game_id"]["ann's finished game"]
    rematch_propose(game_id=finished, user=ben)
    inviting = services.create_game(creator=ben, engine_slug="love-letter", players=3)
    invitation_create(game_id=inviting.pk, user=ben, username=ann.username)
    rematch = {"game_id": finished}
    bens_club = world.targets["group_id"]["ben's club"]
    open_table = world.targets["game_id"]["ann's open table"]
    asked = {}
    for asker, other in ((ann, ben), (ben, ann)):  # Savernake Forest: the asker's first turn may be taken back
        forest = services.create_game(creator=asker, engine_slug="savernake-forest", players=2, seed="t1")
        services.join_game(game_id=forest.pk, user=other)
        forest.refresh_from_db()
        services.submit_move(game_id=forest.pk, user=asker, expected_seq=0,
                             move=get_engine(forest.engine).legal_moves(forest.state, 0)[0])
        asked[asker.username] = {"game_id": forest.pk, "proposal_id": takeback_ask(game_id=forest.pk, user=asker).pk}
    cat = User.objects.get(username="cat")
    return {
            **_seat_offer_targets(ann, ben, cat), **_watch_targets(ann, ben, cat),
            "POST /api/games/{game_id}/join/": {"game_id": world.targets["game_id"]["cat's open table"]},
            # Issue 46: ann's own takeback request (to withdraw), and ben's (to answer).
            "DELETE /api/games/{game_id}/proposals/{proposal_id}/": asked["ann"],
            "POST /api/games/{game_id}/proposals/{proposal_id}/answer/": asked["ben"],
            "GET /api/games/{game_id}/rematch/": rematch, "POST /api/games/{game_id}/rematch/": rematch,
            "POST /api/games/{game_id}/rematch/accept/": rematch, "POST /api/games/{game_id}/rematch/decline/": rematch,
            "POST /api/games/{game_id}/invitations/decline/": {"game_id": inviting.pk},
            # ann's open table, where the invitation is: she may start it with the players seated.
            "GET /api/games/{game_id}/invitations/{invitation_id}/": {"game_id": open_table},
            "POST /api/games/{game_id}/start/": {"game_id": open_table},
            # Someone else to stop following or unblock (the first username of the world may be ann's own).
            "DELETE /api/me/following/{username}/": {"username": ben.username},
            "DELETE /api/me/blocked/{username}/": {"username": ben.username},
            # Issue 44: ann's club's invitations of dot (to withdraw) and eve (to read), fay's request (to accept),
            # and ben's club's invitation of ann (to accept or decline).
            "DELETE /api/groups/{group_id}/invitations/{username}/": {"username": "dot"},
            "GET /api/groups/{group_id}/invitations/{username}/": {"username": "eve"},
            "POST /api/groups/{group_id}/requests/{username}/": {"username": "fay"},
            "POST /api/me/group-invitations/{group_id}/": {"group_id": bens_club},
            "DELETE /api/me/group-invitations/{group_id}/": {"group_id": bens_club},
            # The club the steered hand-over gives to ben is no longer ann's to delete: her spare one is.
            "DELETE /api/groups/{group_id}/": {"group_id": world.targets["group_id"]["ann's spare club"]},
            # Issue 45: ben is entered in ann's cup (to remove); her spare cup is hers to call off; ben's cup is the
            # one she was invited to (to enter).
            "DELETE /api/competitions/{competition_id}/entrants/{username}/": {"username": "ben"},
            "POST /api/competitions/{competition_id}/cancel/": {
                "competition_id": world.targets["competition_id"]["ann's spare cup"]},
            "POST /api/competitions/{competition_id}/entry/": {
                "competition_id": world.targets["competition_id"]["ben's cup"]}}


# make test: the documented examples, a few drawn requests (``QUICK_EXAMPLES``: every operation is tested) and the
# chains of calls of every operation, with every check; the coverage phase's walk of every boundary (four fifths of
# the full run's time) and the fuzzing phase's ``FUZZED_EXAMPLES`` only in make test-long. What make test keeps of
# those: test_fuzz.py's drawn requests, valid and invalid alike, on every operation against every object of its
# world.
QUICK_PHASES = ("Examples", "Fuzzing", "Stateful")
QUICK_EXAMPLES = 3
FULL_PHASES = ("Examples", "Coverage", "Fuzzing", "Stateful")


@pytest.mark.parametrize("phases, examples, least", [
    pytest.param(QUICK_PHASES, QUICK_EXAMPLES, 100, id="quick"),
    pytest.param(FULL_PHASES, FUZZED_EXAMPLES, 1500, id="full", marks=pytest.mark.long)])
def test_every_check_passes_in_every_phase_on_every_operation(live_server, world, tmp_path, phases, examples, least):
    """Every check passes on every operation: in make test in the examples, fuzzing and stateful phases (at least
    ``least`` requests), in make test-long in the coverage phase as well."""
    targets = {name: next(iter(objects.values())) for name, objects in world.targets.items() if objects}
    targets["game_id"] = world.targets["game_id"][PLAYED_GAME]
    valid = {"push_subscription": Device(name="fuzzed", endpoint="https://fcm.googleapis.com/fcm/send/fuzzed")
             .subscription(),
             "contacts": {"POST /api/me/following/": "ben", "POST /api/me/blocked/": "cat",
                          # Issue 44: a player to invite to ann's club, a member to hand it over to.
                          "POST /api/groups/{group_id}/invitations/": "gil",
                          "POST /api/groups/{group_id}/owner/": "ben",
                          # Issue 45: a player to invite to ann's cup.
                          "POST /api/competitions/{competition_id}/invitations/": "gil"}}
    environment = {**os.environ, "SCHEMATHESIS_HOOKS": "tests.platform.api.fuzz_hooks",
                   "TURNBASED_FUZZ_TARGETS": json.dumps(targets), "PYTHONPATH": str(Path.cwd()),
                   "TURNBASED_FUZZ_OPERATION_TARGETS": json.dumps(operation_targets(world)),
                   "TURNBASED_FUZZ_VALID": json.dumps(valid), "TURNBASED_FUZZ_BASE_URL": live_server.url}
    report = tmp_path / "report.ndjson"
    command = [
        str(Path(sys.executable).with_name("st")), "--config-file", str(HERE / "schemathesis.toml"), "--no-color",
        "run", f"{live_server.url}/api/schema/?format=json", "--checks", "all",
        "--phases", ",".join(phase.lower() for phase in phases), "--max-examples", str(examples),
        "--header", f"Authorization: Token {api_token(world.player)}", "--seed", "1", "--workers", "1",
        "--generation-database", "none", "--continue-on-failure",
        "--report", "ndjson", "--report-ndjson-path", str(report),
    ]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=900, env=environment, cwd=tmp_path)
    summary = finished.stdout[-20000:]
    assert finished.returncode == 0, summary
    counts = re.search(r"(\d+) generated, (\d+) passed", summary)
    assert counts and counts[1] == counts[2] and int(counts[1]) >= least, summary  # every case sent, all passed
    ran = re.search(r"Test Phases:\n(.*?)\n\S", summary, re.DOTALL)
    assert ran and all(f"✅ {phase}" in ran[1] for phase in phases), summary
    operations = re.search(r"Selected: (\d+)/(\d+)\n\s*Tested: (\d+)", summary)
    assert operations and operations[1] == operations[2] == operations[3], summary  # every operation, each tested
    assert "WARNINGS" not in summary and "Warnings:" not in summary, summary  # it reports nothing
