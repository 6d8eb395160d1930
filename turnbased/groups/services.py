"""Groups: making one, changing and deleting it, and who is in it (joining, requests, invitations, leaving,
removing, roles, handing over ownership). One service per action; each takes the acting person first.

A group's rows change under its own row lock (``_locked``), so two admins deciding at once, or a join racing a
deletion, leave it as one of them would. Blocks are silent here as everywhere: a person the owner blocked cannot
ask to join their group, and an admin cannot invite a person who blocked them, in words that do not name it.
"""

from __future__ import annotations

import unicodedata

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext

from turnbased.accounts.confusables import mixes_scripts, skeletons
from turnbased.contacts.selectors import blockers_between
from turnbased.contacts.services import person_named
from turnbased.events.models import EventKind
from turnbased.events.services import NewEvent, events_record
from turnbased.groups.models import (
    Entry, Group, GroupNameSkeleton, Invitation, Membership, Request, Role, TablesBy,
)
from turnbased.groups.selectors import ADMINS, group_of
from turnbased.groups.signals import invitation_sent, request_made
from turnbased.kit.errors import Conflict, InvalidRequest, NotAllowed, Unprocessable

NAME_MIN, NAME_MAX = 3, 60
DESCRIPTION_MAX = 2000
# How many groups one account may own, and belong to: a club organiser's handful, and far more than anyone reads.
MAX_OWNED = 20
MAX_MEMBERSHIPS = 500
# How many invitations a group may have waiting at once: a club's whole address book, not a mailing list.
MAX_INVITATIONS_WAITING = 500


def _text(value, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidRequest(gettext("%(field)s must be text.") % {"field": field})
    if "\x00" in value:
        raise InvalidRequest(gettext("%(field)s may not hold a null character.") % {"field": field})
    return unicodedata.normalize("NFC", value)


def group_name(value) -> str:
    """Return the name as a group bears it (spaces collapsed); refuse one too short or long, one with invisible
    or control characters, or one mixing alphabets (Latin with Cyrillic look-alikes, say)."""
    name = " ".join(_text(value, gettext("The name")).split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise Unprocessable(gettext("A group's name is %(min)s to %(max)s characters long.")
                            % {"min": NAME_MIN, "max": NAME_MAX})
    if any(unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn") for char in name):
        raise Unprocessable(gettext("A group's name may hold only letters, digits, spaces and punctuation."))
    if mixes_scripts(name):
        raise Unprocessable(gettext("A group's name may not mix alphabets."))
    return name


def _name_keys(name: str) -> set[str]:
    # Spaces fold with the separators a username folds, so "Thursday club" and "thursday-club" are one name.
    return skeletons(name.replace(" ", "_"))


def _description(value) -> str:
    text = _text(value, gettext("The description")).strip()
    if len(text) > DESCRIPTION_MAX:
        raise Unprocessable(gettext("A group's description is at most %(max)s characters long.")
                            % {"max": DESCRIPTION_MAX})
    return text


def _choice(value, choices, field: str) -> str:
    if value not in choices.values:
        raise InvalidRequest(gettext("%(field)s must be one of %(values)s.")
                             % {"field": field, "values": ", ".join(choices.values)})
    return value


def _take_name(group: Group, name: str) -> None:
    GroupNameSkeleton.objects.filter(group=group).delete()
    try:
        with transaction.atomic():
            GroupNameSkeleton.objects.bulk_create([GroupNameSkeleton(group=group, skeleton=key)
                                                   for key in _name_keys(name)])
    except IntegrityError:
        raise Conflict(gettext("A group called “%(name)s”, or by a name that looks the same, already exists.")
                       % {"name": name}) from None


def _lock_person(user: AbstractBaseUser) -> None:
    get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)


def _within_memberships(user: AbstractBaseUser) -> None:
    if Membership.objects.filter(user=user).count() >= MAX_MEMBERSHIPS:
        raise Conflict(gettext("You belong to as many groups as one account may (%(cap)s): leave one first.")
                       % {"cap": MAX_MEMBERSHIPS})


def _add_member(group: Group, user: AbstractBaseUser, role: str = Role.MEMBER) -> Membership:
    membership = Membership.objects.create(group=group, user=user, role=role)
    Group.objects.filter(pk=group.pk).update(member_count=F("member_count") + 1)
    Invitation.objects.filter(group=group, invitee=user).delete()
    Request.objects.filter(group=group, user=user).delete()
    return membership


def _drop_member(group: Group, membership: Membership) -> None:
    membership.delete()
    Group.objects.filter(pk=group.pk).update(member_count=F("member_count") - 1)


def _told(group: Group, kind: str, user_ids, person: AbstractBaseUser) -> None:
    """Tell ``user_ids`` of an invitation or a request (their stream and webhooks), in its transaction."""
    events_record(events=[NewEvent(user_id=user_id, kind=kind, payload={
        "group": {"id": group.pk, "name": group.name}, "username": person.get_username()}) for user_id in user_ids])


def _locked(group_id) -> Group:
    group = group_of(group_id)
    return Group.objects.select_for_update().get(pk=group.pk)


def _role(group: Group, user: AbstractBaseUser) -> str | None:
    return Membership.objects.filter(group=group, user=user).values_list("role", flat=True).first()


def as_admin(group: Group, user: AbstractBaseUser) -> str:
    """Return the user's role in the group if they are one of its admins (or its owner); refuse anyone else."""
    role = _role(group, user)
    if role not in ADMINS:
        raise NotAllowed(gettext("Only the group's admins may do this."))
    return role


# -- the group itself ---------------------------------------------------------------------------------------


def group_create(*, user: AbstractBaseUser, name, description="", entry=Entry.OPEN,
                 tables_by=TablesBy.MEMBERS) -> Group:
    """Make a group with the user as its owner (and first member)."""
    name = group_name(name)
    description = _description(description)
    entry = _choice(entry, Entry, "entry")
    tables_by = _choice(tables_by, TablesBy, "tables_by")
    with transaction.atomic():
        _lock_person(user)
        if Membership.objects.filter(user=user, role=Role.OWNER).count() >= MAX_OWNED:
            raise Conflict(gettext("You own as many groups as one account may (%(cap)s): hand one over or delete "
                                   "it first.") % {"cap": MAX_OWNED})
        _within_memberships(user)
        group = Group.objects.create(name=name, description=description, entry=entry, tables_by=tables_by)
        _take_name(group, name)
        _add_member(group, user, Role.OWNER)
    group.refresh_from_db()
    return group


def group_update(*, user: AbstractBaseUser, group_id, **changes) -> Group:
    """Change the group's name, description, entry or who makes its tables (its admins only)."""
    unknown = set(changes) - {"name", "description", "entry", "tables_by"}
    if unknown:
        raise InvalidRequest(gettext("Unknown fields: %(names)s.") % {"names": ", ".join(sorted(unknown))})
    with transaction.atomic():
        group = _locked(group_id)
        as_admin(group, user)
        if "name" in changes:
            name = group_name(changes["name"])
            if name != group.name:
                _take_name(group, name)
            group.name = name
        if "description" in changes:
            group.description = _description(changes["description"])
        if "entry" in changes:
            group.entry = _choice(changes["entry"], Entry, "entry")
            if group.entry == Entry.OPEN:  # the door is open: whoever asked is in
                for request in Request.objects.filter(group=group).select_related("user"):
                    _add_member(group, request.user)
        if "tables_by" in changes:
            group.tables_by = _choice(changes["tables_by"], TablesBy, "tables_by")
        group.save(update_fields=["name", "description", "entry", "tables_by"])
    group.refresh_from_db()
    return group


def group_delete(*, user: AbstractBaseUser, group_id) -> None:
    """Delete the group (its owner only): its members, invitations and requests go; its tables play on, private
    to the people seated at them."""
    with transaction.atomic():
        group = _locked(group_id)
        if _role(group, user) != Role.OWNER:
            raise NotAllowed(gettext("Only the group's owner may delete it."))
        group.delete()


# -- coming in ----------------------------------------------------------------------------------------------


def join(*, user: AbstractBaseUser, group_id) -> tuple[Membership | None, Request | None]:
    """Come into the group as its entry allows: an open group at once, one taking requests by a request to its
    admins, one taking invitations only if one was invited (accepting it). Return the membership, or the request.
    Joining again changes nothing."""
    with transaction.atomic():
        group = _locked(group_id)
        _lock_person(user)
        membership = Membership.objects.filter(group=group, user=user).first()
        if membership:
            return membership, None
        invited = Invitation.objects.filter(group=group, invitee=user).exists()
        if group.entry == Entry.OPEN or invited:
            _within_memberships(user)
            return _add_member(group, user), None
        if group.entry == Entry.INVITATION:
            raise NotAllowed(gettext("This group takes members by invitation only."))
        owner_id = Membership.objects.filter(group=group, role=Role.OWNER).values_list("user_id", flat=True).first()
        if owner_id and owner_id in blockers_between(user.pk, owner_id):
            raise NotAllowed(gettext("You cannot ask to join this group."))
        request, made = Request.objects.get_or_create(group=group, user=user)
        if made:
            admins = list(Membership.objects.filter(group=group, role__in=ADMINS).values_list("user_id", flat=True))
            _told(group, EventKind.GROUP_REQUEST, admins, user)
            request_made.send(sender=Request, request=request, admin_ids=admins)
        return None, request


def request_withdraw(*, user: AbstractBaseUser, group_id) -> None:
    """Take back one's request to join (nothing happens if there was none)."""
    Request.objects.filter(group=group_of(group_id), user=user).delete()


def request_answer(*, user: AbstractBaseUser, group_id, username, accept: bool) -> AbstractBaseUser:
    """Accept or decline a person's request to join (the group's admins); return the person."""
    with transaction.atomic():
        group = _locked(group_id)
        as_admin(group, user)
        other = person_named(user, username)
        request = Request.objects.filter(group=group, user=other).first()
        if request is None:
            raise Conflict(gettext("%(name)s has not asked to join.") % {"name": other.get_username()})
        if accept:
            _lock_person(other)
            _within_memberships(other)
            _add_member(group, other)
        else:
            request.delete()
    return other


def invite(*, user: AbstractBaseUser, group_id, username) -> tuple[Invitation, bool]:
    """Invite a person to the group (its admins); return the invitation and whether it is new."""
    with transaction.atomic():
        group = _locked(group_id)
        as_admin(group, user)
        other = person_named(user, username)
        if Membership.objects.filter(group=group, user=other).exists():
            raise Conflict(gettext("%(name)s is already a member.") % {"name": other.get_username()})
        blockers = blockers_between(user.pk, other.pk)
        if user.pk in blockers:
            raise Conflict(gettext("You blocked %(name)s: unblock them first.") % {"name": other.get_username()})
        if other.pk in blockers:
            raise Conflict(gettext("%(name)s does not take invitations from you.") % {"name": other.get_username()})
        existing = Invitation.objects.filter(group=group, invitee=other).first()
        if existing:
            return existing, False
        if Invitation.objects.filter(group=group).count() >= MAX_INVITATIONS_WAITING:
            raise Conflict(gettext("The group has %(cap)s invitations waiting for an answer, as many as it may: "
                                   "withdraw some first.") % {"cap": MAX_INVITATIONS_WAITING})
        if Request.objects.filter(group=group, user=other).exists():  # they asked already: the invitation lets them in
            _lock_person(other)
            _within_memberships(other)
            _add_member(group, other)
            return Invitation(group=group, invitee=other, inviter=user), True
        invitation = Invitation.objects.create(group=group, invitee=other, inviter=user)
        _told(group, EventKind.GROUP_INVITATION, [other.pk], user)
        invitation_sent.send(sender=Invitation, invitation=invitation)
        return invitation, True


def invitation_withdraw(*, user: AbstractBaseUser, group_id, username) -> AbstractBaseUser:
    """Take back an invitation the group sent (its admins; nothing happens if there was none)."""
    with transaction.atomic():
        group = _locked(group_id)
        as_admin(group, user)
        other = person_named(user, username)
        Invitation.objects.filter(group=group, invitee=other).delete()
    return other


def invitation_answer(*, user: AbstractBaseUser, group_id, accept: bool) -> Membership | None:
    """Accept (a membership) or decline an invitation to the group."""
    with transaction.atomic():
        group = _locked(group_id)
        _lock_person(user)
        if not Invitation.objects.filter(group=group, invitee=user).exists():
            if Membership.objects.filter(group=group, user=user).exists():
                return Membership.objects.get(group=group, user=user)
            raise Conflict(gettext("You have no invitation to this group."))
        if not accept:
            Invitation.objects.filter(group=group, invitee=user).delete()
            return None
        _within_memberships(user)
        return _add_member(group, user)


# -- going out, and roles -----------------------------------------------------------------------------------


def leave(*, user: AbstractBaseUser, group_id) -> None:
    """Leave the group (its owner hands it over or deletes it instead). One's seats at its tables stay."""
    with transaction.atomic():
        group = _locked(group_id)
        membership = Membership.objects.filter(group=group, user=user).first()
        if membership is None:
            raise Conflict(gettext("You are not a member of this group."))
        if membership.role == Role.OWNER:
            raise Conflict(gettext("You own this group: hand it over to another member, or delete it."))
        _drop_member(group, membership)


def member_remove(*, user: AbstractBaseUser, group_id, username) -> AbstractBaseUser:
    """Remove a member (the admins remove members; the owner removes admins too); return them."""
    with transaction.atomic():
        group = _locked(group_id)
        role = as_admin(group, user)
        other = person_named(user, username)
        membership = Membership.objects.filter(group=group, user=other).first()
        if membership is None:
            raise Conflict(gettext("%(name)s is not a member.") % {"name": other.get_username()})
        if membership.role == Role.OWNER or (membership.role == Role.ADMIN and role != Role.OWNER):
            raise NotAllowed(gettext("Only the owner may remove an admin, and nobody the owner."))
        _drop_member(group, membership)
    return other


def role_set(*, user: AbstractBaseUser, group_id, username, role) -> Membership:
    """Make a member an admin, or an admin a member again (the owner only)."""
    if role not in (Role.ADMIN, Role.MEMBER):
        raise InvalidRequest(gettext("%(field)s must be one of %(values)s.")
                             % {"field": "role", "values": ", ".join((Role.ADMIN, Role.MEMBER))})
    with transaction.atomic():
        group = _locked(group_id)
        if _role(group, user) != Role.OWNER:
            raise NotAllowed(gettext("Only the group's owner may choose its admins."))
        other = person_named(user, username)
        membership = Membership.objects.filter(group=group, user=other).first()
        if membership is None:
            raise Conflict(gettext("%(name)s is not a member.") % {"name": other.get_username()})
        if membership.role == Role.OWNER:
            raise Conflict(gettext("The owner's role changes only by handing the group over."))
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def owner_hand_over(*, user: AbstractBaseUser, group_id, username) -> Membership:
    """Hand the group over to another member (the owner only), who becomes its owner; the owner stays an admin."""
    with transaction.atomic():
        group = _locked(group_id)
        mine = Membership.objects.filter(group=group, user=user).first()
        if mine is None or mine.role != Role.OWNER:
            raise NotAllowed(gettext("Only the group's owner may hand it over."))
        other = person_named(user, username)
        theirs = Membership.objects.filter(group=group, user=other).first()
        if theirs is None:
            raise Conflict(gettext("%(name)s is not a member: only a member can own the group.")
                           % {"name": other.get_username()})
        if Membership.objects.filter(user=other, role=Role.OWNER).count() >= MAX_OWNED:
            raise Conflict(gettext("%(name)s owns as many groups as one account may.") % {"name": other.get_username()})
        mine.role = Role.ADMIN
        mine.save(update_fields=["role"])
        theirs.role = Role.OWNER
        theirs.save(update_fields=["role"])
    return theirs
