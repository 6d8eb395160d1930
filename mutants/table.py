"""The modules the mutants are planted in, and the tests that mirror each (run for each of its mutants).

Each module's tests are listed cheapest and broadest first: a run stops at its first failing test (``-x``), so a
mutant is killed soonest by a test that goes through the whole module quickly. ``keyword`` narrows the listed
paths with pytest's ``-k`` (the engine contract runs every engine; a game's mutant needs only its own).
``within`` names the top-level functions and classes mutated when only part of a file is the door.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Target:
    path: str
    tests: tuple[str, ...]
    keyword: str | None = None
    within: tuple[str, ...] = ()


def _engine(package: str, slug: str) -> Target:
    return Target(f"games/{package}/engine.py",
                  ("tests/games/test_record.py", "tests/games/test_engine_contract.py", f"tests/games/{package}"),
                  keyword=slug if slug == package else f"{slug} or {package}")


# Email replies go through a pipeline of modules (``turnbased/mail/inbound.py`` calls the others, a stage each);
# one reply's tests go through every stage, so each stage's mutants meet them all.
_INBOUND_TESTS = ("tests/platform/mail/test_inbound.py", "tests/platform/mail/test_inbound_drops.py",
                  "tests/platform/mail/test_inbound_resign.py", "tests/platform/mail/test_inbound_redelivery.py",
                  "tests/platform/mail/test_inbound_limits.py", "tests/platform/mail/test_bot_accounts.py",
                  "tests/platform/mail/test_provider_verdicts.py", "tests/platform/mail/test_table_talk_by_email.py",
                  "tests/platform/mail/test_commands.py", "tests/platform/mail/test_accepted_replies.py")

TARGETS = {target.path: target for target in (
    # The engines: setup, apply and resign of each game, the module the platform's door calls. The golden records'
    # replays first: whole games in seconds, which most of an engine's mutants already change.
    _engine("love_letter", "love-letter"),
    _engine("halali", "halali"),
    _engine("savernake_forest", "savernake-forest"),
    _engine("carcassonne_hg", "carcassonne-hg"),
    # The doors: the one service every move comes through, email replies (each stage of their pipeline), the
    # API's move, the stream's authorisation, the webhook signer.
    Target("turnbased/play/services/moves.py",
           ("tests/platform/play/test_services.py", "tests/platform/play/test_bot_seats.py",
            "tests/platform/clocks/test_clocks.py", "tests/platform/play/test_forced_moves.py",
            "tests/platform/play/test_api.py", "tests/platform/play/test_bad_input.py",
            "tests/platform/agreements/test_takebacks.py")),
    # Takebacks (issue 46): the log's rule, pure, then the table's rules of asking and answering.
    Target("games/takebacks.py", ("tests/games/test_takebacks.py", "tests/games/test_record.py")),
    Target("turnbased/agreements/checks.py", ("tests/platform/agreements/test_takebacks.py",
                                               "tests/platform/agreements/test_votes.py")),
    Target("turnbased/agreements/services.py", ("tests/platform/agreements/test_takebacks.py",
                                                 "tests/platform/agreements/test_votes.py",
                                                 "tests/platform/agreements/test_takeback_email.py")),
    # Agreements by vote (issue 46): the clock's rules of a pause and of extra time, and a decided game's result.
    Target("turnbased/clocks/agreed.py", ("tests/platform/agreements/test_votes.py",
                                          "tests/platform/clocks/test_agreed_time.py")),
    Target("games/decisions.py", ("tests/games/test_decided_results.py",)),
    # Seats changing hands (issue 46): the core's change of a seat, the offers, and ratings' rule for such a seat.
    Target("turnbased/play/services/seats.py", ("tests/platform/seats/test_offers.py",
                                                "tests/platform/seats/test_secrecy.py")),
    Target("turnbased/seats/services.py", ("tests/platform/seats/test_offers.py",)),
    Target("turnbased/seats/selectors.py", ("tests/platform/seats/test_offers.py",
                                            "tests/platform/seats/test_secrecy.py")),
    # Issue 46, following games.
    *(Target(f"turnbased/following/{module}.py", ("tests/platform/following",))
      for module in ("services", "selectors", "reactions")),
    Target("turnbased/mail/followed_news.py", ("tests/platform/following",)),
    Target("turnbased/mail/watch_replies.py", ("tests/platform/following/test_email_replies.py",)),
    Target("turnbased/notes/services.py", ("tests/platform/notes",)),
    # Issue 47: the game told in short, the guide on the site, the commands as people write them.
    Target("turnbased/aftergame/summary.py", ("tests/platform/aftergame/test_summary.py",)),
    Target("turnbased/web/guide.py", ("tests/platform/web/test_guide.py",)),
    Target("turnbased/mail/commands.py", ("tests/platform/mail/test_command_words.py",
                                          "tests/platform/mail/test_commands.py")),
    *(Target(f"games/{game}/marks.py", ("tests/games/test_mark_spots.py",))
      for game in ("halali", "love_letter", "carcassonne_hg", "savernake_forest")),
    *(Target(f"turnbased/mail/{stage}.py", _INBOUND_TESTS)
      for stage in ("inbound", "reading", "verifying", "acting", "answering")),
    Target("turnbased/api/views.py",
           ("tests/platform/play/test_api.py", "tests/platform/play/test_turn_actions.py",
            "tests/platform/play/test_bad_input.py", "tests/platform/api/test_created_location.py",
            "tests/platform/idempotency/test_once.py", "tests/platform/api/test_deprecation.py",
            "tests/platform/kit/http/limits/test_api_throttles.py"),
           within=("_move_key", "answers_the_whole_game", "MoveSubmitApi", "prefers_minimal")),
    Target("turnbased/events/credentials.py",
           ("tests/platform/events/test_credentials.py", "tests/platform/events/test_asgi.py",
            "tests/platform/events/test_sessions.py", "tests/platform/events/test_api.py")),
    Target("turnbased/webhooks/signing.py",
           ("tests/platform/webhooks/test_signing.py", "tests/platform/webhooks/test_delivery.py")),
)}
