"""Keep each username's look-alike keys stored beside it, whichever door created or renamed the user."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models.signals import post_save
from django.dispatch import receiver

from turnbased.accounts.confusables import skeletons
from turnbased.accounts.models import UsernameSkeleton


@receiver(post_save, sender=get_user_model(), dispatch_uid="accounts-username-skeletons")
def store_username_skeletons(sender, instance, **kwargs) -> None:
    """Store the name's skeletons; a look-alike of another user's name fails on the unique index.

    Callers create users inside a transaction, so a lost race rolls the new user back too.
    """
    update_fields = kwargs.get("update_fields")
    if update_fields and "username" not in update_fields:
        return  # last_login and the like: the name did not change
    keys = skeletons(instance.get_username())
    stored = set(UsernameSkeleton.objects.filter(user=instance).values_list("skeleton", flat=True))
    if stored == keys:
        return
    UsernameSkeleton.objects.filter(user=instance).exclude(skeleton__in=keys).delete()
    UsernameSkeleton.objects.bulk_create([UsernameSkeleton(user=instance, skeleton=key) for key in keys - stored])
