"""Two players play a whole Love Letter game only by replying to the emails they receive.

Real pieces throughout: the local SMTP sink keeps what the service sends, the
inbound SMTP server takes the replies, and a real Celery worker (Redis broker)
does the delivering and the processing.
"""

from __future__ import annotations

import random
import smtplib
from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from tests.platform.embedded_worker import embedded_worker
from tests.waiting import wait_for
from turnbased.mail.models import InboundEmail, LocalMessage
from turnbased.mail.tokens import read_reply_address
from turnbased.play import services
from turnbased.play.models import Game, GameStatus, Move

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def listed_moves(text: str) -> list[str]:
    """Read the moves an email lists under "Your moves", as a person would."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Your moves"))
    moves = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        moves.append(line.strip())
    return moves


def send_reply(port: int, original: LocalMessage, body: str) -> None:
    reply = EmailMessage()
    reply["From"] = original.recipients[0]
    reply["To"] = original.reply_to
    reply["Subject"] = f"Re: {original.subject}"
    reply["Message-ID"] = make_msgid(domain="client.example")
    reply["In-Reply-To"] = original.message_id
    quoted = "\n".join(f"> {line}" for line in original.text.splitlines())
    reply.set_content(f"{body}\n\nOn Sunday, turnbased wrote:\n{quoted}\n")
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
        smtp.send_message(reply)


@pytest.fixture
def celery_worker_thread():
    # One worker for both queues: the service's own and the mail queue (a worker of its own in production).
    with embedded_worker(queues=("celery", "mail")):
        yield


def test_two_players_finish_a_game_by_email_alone(make_user, mail_servers, celery_worker_thread):
    inbound_port = mail_servers["inbound"]
    alice, bob = make_user("alice"), make_user("bob")
    game = services.create_game(creator=alice, engine_slug="love-letter", players=2, seed="played-by-email")
    services.join_game(game_id=game.pk, user=bob)
    rng = random.Random(5)
    answered_seqs: set[int] = set()
    replies = 0

    while Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE:
        seq = Game.objects.get(pk=game.pk).seq

        def email_for_this_position():
            for message in LocalMessage.objects.exclude(reply_to="").order_by("-pk"):
                token = read_reply_address(message.reply_to)
                if token.seq == seq and token.seq not in answered_seqs:
                    return message
            return None

        message = wait_for(email_for_this_position, what=f"an email to answer at position {seq}")
        answered_seqs.add(seq)
        send_reply(inbound_port, message, rng.choice(listed_moves(message.text)))
        replies += 1
        wait_for(lambda: Game.objects.get(pk=game.pk).seq > seq, what=f"the reply at {seq} to be played")
        assert replies < 400

    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and len(game.result["winners"]) == 1
    assert Move.objects.filter(game=game).exclude(source="email").count() == 0
    assert Move.objects.filter(game=game).count() == replies
    wait_for(lambda: InboundEmail.objects.filter(status="moved").count() == replies, what="every reply recorded")
    for address in ("alice@example.com", "bob@example.com"):
        wait_for(lambda: LocalMessage.objects.filter(recipients=[address], subject__startswith="Game over").exists(),
                 what=f"the game-over email to {address}")
