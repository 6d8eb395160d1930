"""Choosing the language one's pages and emails are written in."""

from __future__ import annotations

from django.utils.translation import gettext as _

from turnbased.accounts.models import profile_of
from turnbased.accounts.readers import offered_language
from turnbased.kit.errors import InvalidRequest


def language_choose(*, user, language: str) -> None:
    """Set ``user``'s language to ``language`` (a code of ``settings.LANGUAGES``; "" to follow the browser).

    Raises ``InvalidRequest`` for a language the site does not speak; nothing changes then.
    """
    if language and not offered_language(language):
        raise InvalidRequest(_("%(code)r is not a language of this site.") % {"code": str(language)[:16]})
    profile = profile_of(user)
    if profile.language != language:
        profile.language = language
        profile.save(update_fields=["language"])
