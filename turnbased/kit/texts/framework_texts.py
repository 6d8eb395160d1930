"""Django's and Django REST framework's texts that our pages and the API show, worded again in the project catalog.

Their own Hungarian and German catalogs translate every one of them, but a few speak to the reader formally
("Adjon meg", "Sie sind nicht berechtigt") where the rest of the site says "te" and "du" (docs/glossary/
platform.md). The project catalog (``locale/``) is read before theirs, so a text listed here is worded by us. The
site never imports this module: ``gettext_noop`` only marks each text for ``makemessages``. Every text must stay
exactly theirs (tests/platform/accounts/test_languages.py checks that Django or DRF still uses it, and that ours
is the one read).
"""

from django.utils.translation import gettext_noop

TEXTS = (
    gettext_noop("Enter a valid email address."),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Enter a valid IPv4 or IPv6 address."),
    gettext_noop("You do not have permission to perform this action."),
)
