"""Write the emails: turn notices with the private position, game news, and answers to replies.

Each email is worded and dated for its recipient (``for_reader``), its subject too: in their language
and zone, whoever's action caused it.
"""

from __future__ import annotations

import contextlib
from email.mime.image import MIMEImage
from email.utils import make_msgid

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from turnbased.accounts.models import is_bot_account
from turnbased.accounts.readers import for_reader
from turnbased.chat import selectors as chat_selectors
from turnbased.clocks.services import clock_summaries, format_duration
from turnbased.mail import commands
from turnbased.mail.tokens import reply_address, unsubscribe_token
from turnbased.notes.marks import marks_shown
from turnbased.notes.selectors import note_of
from turnbased.play import records, selectors, store
from turnbased.play.models import Game, GameStatus, Invitation
from turnbased.play.presenters import time_control_summary


@contextlib.contextmanager
def for_recipient(user):
    """Word and date what the block writes for ``user``: in their language, else the site's (English).

    Never in the language of whoever caused the email: a move made in a German browser may deliver its
    notifications inline, and a recipient who chose no language still reads them as a worker writes them.
    """
    with translation.override(settings.LANGUAGE_CODE), for_reader(user):
        yield


def game_url(game: Game) -> str:
    return settings.SITE_URL + reverse("game-detail", args=[game.pk])


def person_name(user) -> str:
    """Name an account in an email: its username, and for a bot account, that it is one (as the pages' badge does)."""
    if is_bot_account(user):
        return _("%(name)s (bot account)") % {"name": user.get_username()}
    return user.get_username()


def seat_names(game: Game) -> list[str]:
    """Name the seats in an email: people by their accounts (a bot account says so), bots as the table names them."""
    seats = game.seats.select_related("user", "user__profile")
    return [person_name(seat.user) if seat.user_id else seat.display_name for seat in seats]


def position_context(game: Game, user) -> dict:
    """Return what a player may know of a game now, worded for an email."""
    seat = next(s.index for s in game.seats.all() if s.user_id == user.pk)
    engine = store.engine_of(game)
    viewer = selectors.Viewer(game=game, seat=seat)
    view = selectors.private_view(viewer)
    moves = [entry["text"] for entry in selectors.legal_moves_for(viewer)]
    previous = store.last_move_of_seat(game, seat, before_seq=game.seq) if game.seq else None
    since = previous.seq if previous else 0
    your_turn = game.status == GameStatus.ACTIVE and seat in game.to_move
    clock = next((row for row in clock_summaries(game) if row["seat"] == seat), None) if your_turn else None
    picture = engine.view_picture(view) if view is not None else None
    # Issue 46: the player's own marks on the cards and tiles, listed with words (the email is theirs alone).
    note = note_of(game, user)
    marks = marks_shown(note.marks, engine.mark_spots(view) if view is not None else [])["marks"] if note else []
    return {
        "marks": [mark for mark in marks if mark["name"]],
        "picture": picture,
        "deadline": clock["deadline"] if clock else None,
        "time_left": format_duration(clock["remaining_seconds"]) if clock and clock["deadline"] else "",
        "game": game,
        "game_name": game.title,
        "user": user,
        "seat": seat,
        "names": list(game.player_names),
        "waiting_for": [game.player_names[i] for i in game.to_move] if game.status == GameStatus.ACTIVE else [],
        "your_turn": your_turn,
        "position": engine.view_text(view) if view is not None else "",
        "news": [entry["text"] for entry in selectors.visible_history(viewer, since=since)],
        # Issue 12, table talk: what the others said since my last move (muted players left out).
        "said": chat_selectors.messages_for_email(game, user, since_seq=since),
        "moves": engine.moves_summary(moves),
        "example_move": moves[0] if moves else "",
        "move_count": len(moves),
        "notation_help": engine.notation_help(),
        "game_url": game_url(game),
        "reply_to": reply_address(user_id=user.pk, game_id=game.pk, seq=game.seq) if your_turn else None,
        "result": game.result,
        # The seed's commitment (the start, and the first turn email that stands in for it) and the seed once over.
        "fairness": records.fairness(game),
        "record_url": settings.SITE_URL + reverse("api-game-record", args=[game.pk]),
        "verify_url": settings.SITE_URL + reverse("game-verify", args=[game.pk]),
    }


def build(
    *,
    to: str,
    subject: str,
    template: str,
    context: dict,
    user=None,
    reply_to: str | None = None,
    in_reply_to: str | None = None,
) -> EmailMultiAlternatives:
    """Render ``email/<template>.txt`` and ``.html`` into one message with our standard headers."""
    context = {**context, "site_url": settings.SITE_URL, "reply_to": reply_to}
    headers = {"Message-ID": make_msgid(domain=settings.MAIL_DOMAIN), "Auto-Submitted": "auto-generated"}
    if user is not None:
        unsubscribe = settings.SITE_URL + reverse("mail-unsubscribe", args=[unsubscribe_token(user.pk)])
        context["unsubscribe_url"] = unsubscribe
        context["settings_url"] = settings.SITE_URL + reverse("mail-settings")
        headers["List-Unsubscribe"] = f"<{unsubscribe}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    if in_reply_to:
        headers["In-Reply-To"] = in_reply_to
        headers["References"] = in_reply_to
    with for_reader(user):  # every time in the email in the recipient's zone, every word in their language
        # The words the email tells the player to reply with, in their language (commands reads them back).
        context["commands"] = commands.shown_words(translation.get_language())
        text = render_to_string(f"email/{template}.txt", context)
        html = render_to_string(f"email/{template}.html", context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[to],
        reply_to=[reply_to] if reply_to else None,
        headers=headers,
    )
    message.attach_alternative(html, "text/html")
    if context.get("picture"):
        message.attach(picture_part(context["picture"]))
    return message


def picture_part(png: bytes) -> MIMEImage:
    """The position's picture: the HTML shows it inline (cid:position); text-only readers get an attachment."""
    image = MIMEImage(png, "png")
    image.add_header("Content-ID", "<position>")
    image.add_header("Content-Disposition", "inline", filename="position.png")
    return image


def turn_email(game: Game, user, *, reminder: bool = False) -> EmailMultiAlternatives:
    with for_recipient(user):  # the subject too, in the recipient's language
        context = position_context(game, user)
        context["reminder"] = reminder
        subject = _("Your turn: %(game)s") % {"game": context["game_name"]}
        if reminder and context["time_left"]:
            subject = _("Reminder: %(time)s left for your move in %(game)s") % {
                "time": context["time_left"], "game": context["game_name"]}
        return build(to=user.email, subject=subject, template="turn", context=context, user=user,
                     reply_to=context["reply_to"])


def game_news_email(game: Game, user, kind: str) -> EmailMultiAlternatives:
    """A game started, ended, or someone joined your table."""
    with for_recipient(user):  # the subject too, in the recipient's language
        context = position_context(game, user) if game.state is not None else {
            "game": game, "game_name": game.title, "game_url": game_url(game),
        }
        context["kind"] = kind
        context["players"] = seat_names(game)
        if kind == "rematch_offered":
            # The offer is accepted on the finished game's page, which the invited player may always open.
            rematch = game.rematch_of
            context.update(proposer=person_name(rematch.proposed_by), game_url=game_url(rematch.original),
                           original_name=f"{context['game_name'].rsplit(' #', 1)[0]} #{rematch.original_id}")
        subjects = {
            "rematch_offered": _("Rematch offered: %(game)s"),
            "game_started": _("Game started: %(game)s"),
            "game_finished": _("Game over: %(game)s"),
            "player_joined": _("A player joined: %(game)s"),
        }
        # News of a join shows no position, so it offers no reply address for a move.
        return build(
            to=user.email, subject=subjects[kind] % {"game": context["game_name"]}, template="game_news",
            context=context, user=user,
            reply_to=None if kind in ("player_joined", "rematch_offered") else context.get("reply_to"),
        )


def invitation_email(game: Game, user) -> EmailMultiAlternatives:
    """Someone invited ``user`` to an open table: who, which table, and the link to take the seat or decline."""
    with for_recipient(user):  # the subject too, in the recipient's language
        invitation = Invitation.objects.select_related("invited_by", "invited_by__profile").get(game=game, user=user)
        context = {
            "game": game, "game_name": game.title, "game_url": game_url(game), "user": user,
            "invited_by": person_name(invitation.invited_by),
            "seated": seat_names(game),
            "time_control": time_control_summary(game)["description"],
        }
        subject = _("%(name)s invites you to %(game)s") % {"name": context["invited_by"], "game": game.title}
        return build(to=user.email, subject=subject, template="invitation", context=context, user=user)


def digest_email(user, games: list[Game]) -> EmailMultiAlternatives:
    with for_recipient(user):  # the subject too, in the recipient's language
        entries = [position_context(game, user) for game in games]
        return build(
            to=user.email,
            subject=ngettext("%(count)s game waiting for you", "%(count)s games waiting for you", len(entries))
            % {"count": len(entries)},
            template="digest", context={"entries": entries}, user=user,
        )


def answer_email(*, to: str, subject: str, heading: str, detail: str, original_message_id: str | None,
                 game: Game | None = None, user=None, reply_to_current: bool = False) -> EmailMultiAlternatives:
    """Answer a reply: what was done, or why nothing was, with the position when it helps.

    With ``reply_to_current`` the answer carries a reply address for the current
    position even when it is not the player's turn (to confirm a resign).
    """
    with for_recipient(user):  # the subject too, in the recipient's language
        context = {"heading": heading, "detail": detail}
        reply_to = None
        if game is not None and user is not None and game.seats.filter(user=user).exists():
            context.update(position_context(game, user))
            reply_to = context["reply_to"]
            if reply_to is None and reply_to_current and game.status == GameStatus.ACTIVE:
                reply_to = reply_address(user_id=user.pk, game_id=game.pk, seq=game.seq)
        # "Re:" is what mail clients put before a reply's subject whatever their language: it threads the answer.
        subject = subject if subject.lower().startswith("re:") else f"Re: {subject}" if subject else heading
        return build(
            to=to, subject=subject, template="answer", context=context, user=user, reply_to=reply_to,
            in_reply_to=original_message_id,
        )


def webhook_disabled_email(hook) -> EmailMultiAlternatives:
    """One of the owner's webhooks failed too long and was disabled: which, why, and how to turn it on again.

    Sent whatever the owner's game-email settings (it is about something they set up, not a game).
    """
    with for_recipient(hook.owner):  # the subject too, in the recipient's language
        context = {
            "user": hook.owner, "hook": hook,
            "api_url": settings.SITE_URL + reverse("api-webhook", args=[hook.pk]),
            "log_url": settings.SITE_URL + reverse("api-webhook-deliveries", args=[hook.pk]),
        }
        return build(to=hook.owner.email, subject=_("A webhook of yours was disabled"), template="webhook_disabled",
                     context=context)
