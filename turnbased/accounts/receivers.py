"""Keep each username's look-alike keys stored beside it, and each cached zone and language fresh, whichever door
changed them; note the language a person signs up in."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from turnbased.accounts.confusables import skeletons
from turnbased.accounts.models import Profile, UsernameSkeleton
from turnbased.accounts.readers import forget_reader_settings, reader_settings


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


@receiver(post_save, sender=Profile, dispatch_uid="accounts-time-zone-cache")
def forget_cached_reader_settings(sender, instance, **kwargs) -> None:
    """Drop the cached zone and language now and once the change commits (a page read in between may have cached
    the old ones)."""
    user_id = instance.user_id
    forget_reader_settings(user_id)
    transaction.on_commit(lambda: forget_reader_settings(user_id))


@receiver(user_logged_in, dispatch_uid="accounts-time-zone-warm")
def cache_reader_settings_at_login(sender, user, **kwargs) -> None:
    """Read the person's zone and language once as they log in, so their pages find them in the cache."""
    reader_settings(user)
