"""A game's words in the reader's language, from catalogs the game's own package keeps.

Every text an engine gives a person (history lines, move labels, option labels, illegal-move
reasons, the words on its board, the result) is English in the code, marked for translation,
and looked up in the package's catalogs at the moment it is worded::

    games/<package>/locale/<language>/LC_MESSAGES/game.po    (compiled to game.mo)

A module marks its words with its package's catalog::

    from games.i18n import catalog_of

    _ = catalog_of(__name__)           # _("text"), _.ngettext(...), _.pgettext(...), _.npgettext(...)
    N_ = _.noop                        # marks a text worded later (a table of names, an option label)

The language is the reader's, chosen by whoever calls the engine: the platform installs its own
(``set_language_source``: Django's active language, which follows the account, the request and
each email's recipient); elsewhere ``language("hu")`` chooses one for a block, and English is the
default. A language without a catalog, or a text without a translation, reads in English.

Nothing stored is worded: states, moves, events and results hold codes and numbers, so a game
replays the same whatever language its players read it in. The one exception is the result's
``summary``, the record's English line; ``Engine.describe_result`` words it for the reader.

This module is pure Python (``gettext`` from the standard library): catalogs are compiled by the
platform's tooling (``python -m turnbased.kit.texts.catalogs``), and a game needs no platform change to
bring its translations: a ``locale`` folder beside its code is all.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext as _gettext
import importlib.util
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

DOMAIN = "game"
ENGLISH = "en"

# A language chosen for a block (``language``) wins over the installed source.
_chosen: contextvars.ContextVar[str | None] = contextvars.ContextVar("games_language", default=None)
_source: Callable[[], str | None] = lambda: None


def set_language_source(source: Callable[[], str | None]) -> None:
    """Install where the reader's language comes from when no block chose one (the platform's active language)."""
    global _source
    _source = source


def current_language() -> str:
    """Return the reader's language code (``en``, ``hu``, ``de``, ``pt-br``...): the block's, the source's, or English."""
    return _chosen.get() or _source() or ENGLISH


@contextlib.contextmanager
def language(code: str | None) -> Iterator[None]:
    """Word every text inside the block in ``code`` (None: leave the language to the installed source)."""
    token = _chosen.set(code)
    try:
        yield
    finally:
        _chosen.reset(token)


def in_english() -> contextlib.AbstractContextManager[None]:
    """Word every text inside the block in English: for what is stored (a record's summary), never shown as is."""
    return language(ENGLISH)


def locale_name(code: str) -> str:
    """Return the catalog folder name of a language code: ``hu`` -> ``hu``, ``pt-br`` -> ``pt_BR``."""
    base, _, region = code.replace("_", "-").partition("-")
    if not region:
        return base.lower()
    return f"{base.lower()}_{region.title() if len(region) > 2 else region.upper()}"


class Catalog:
    """One game package's words: call it to translate (``_("text")``), or use its plural and context forms."""

    def __init__(self, folder: Path):
        self.folder = folder

    def _translations(self) -> _gettext.NullTranslations:
        return _translations_in(self.folder, current_language())

    def __call__(self, message: str) -> str:
        return self._translations().gettext(message)

    gettext = __call__

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """Return the form of ``singular``/``plural`` for ``n`` in the reader's language (Hungarian, German: their own rules)."""
        return self._translations().ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """Return ``message`` as meant in ``context`` (one English word with two translations)."""
        return self._translations().pgettext(context, message)

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._translations().npgettext(context, singular, plural, n)

    @staticmethod
    def noop(message: str) -> str:
        """Mark ``message`` for the catalog and return it unchanged: it is worded later, with ``_(message)``."""
        return message

    def languages(self) -> list[str]:
        """Return the languages this package has a catalog for (compiled or not), sorted."""
        folder = self.folder / "locale"
        if not folder.is_dir():
            return []
        return sorted(path.name for path in folder.iterdir() if (path / "LC_MESSAGES" / f"{DOMAIN}.po").is_file())

    def __repr__(self) -> str:
        return f"Catalog({str(self.folder)!r})"


@cache
def _translations_in(folder: Path, code: str) -> _gettext.NullTranslations:
    """Return the compiled catalog of ``folder``'s package in ``code`` (falling back to the base language, then English)."""
    return _gettext.translation(DOMAIN, localedir=folder / "locale", languages=[locale_name(code)], fallback=True)


@cache
def _catalog_in(folder: Path) -> Catalog:
    return Catalog(folder)


def catalog_of(module_name: str) -> Catalog:
    """Return the catalog of the package that ``module_name`` (a module's ``__name__``) belongs to.

    A game's modules (``games.love_letter.engine``) share their game package's catalog; the modules of
    ``games`` itself (the contract's own words) and any other package use their top package's.
    """
    parts = module_name.split(".")
    for package in (".".join(parts[:2]), parts[0]):
        spec = importlib.util.find_spec(package)
        if spec is not None and spec.submodule_search_locations:
            return _catalog_in(Path(next(iter(spec.submodule_search_locations))).resolve())
    raise LookupError(f"{module_name!r} is not inside a package")


def forget_compiled_catalogs() -> None:
    """Drop the catalogs read so far, so the next text reads the compiled files again (after compiling them)."""
    _translations_in.cache_clear()

