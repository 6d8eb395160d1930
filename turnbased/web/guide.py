"""The players' guide on the site (``/guide/``): docs/players.md, in the reader's language when translated.

The guide is written once, as Markdown in the repository (``docs/players.md``, ``docs/players.hu.md``,
``docs/players.de.md``), and read here as the documentation a clone holds: the page renders the file of the
reader's language (``?language=`` chooses another), with raw HTML escaped. Headings carry the anchors GitHub makes,
so the guide's own ``#links`` work on the site as in the repository; a link to another of the repository's files
is shown as its text (the site serves no other file), one to another language's guide leads to its page.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path

from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe
from markdown_it import MarkdownIt

DOCS = Path(settings.BASE_DIR) / "docs"
# The guide's file in each language; English is the original, the others its translations.
FILES = {"en": "players.md", "hu": "players.hu.md", "de": "players.de.md"}
_GUIDE_LINK = re.compile(r"^(?:\./)?players(?:\.(hu|de))?\.md(#.*)?$")
_OTHER_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def anchor_of(text: str) -> str:
    """Return GitHub's anchor for a heading's text: lower case, only letters, digits, spaces, "-" and "_" kept,
    each space a "-" (tests/docs/test_links.py checks the guide's links the same way)."""
    kept = "".join(character for character in text.lower()
                   if character in " -_" or unicodedata.category(character)[0] in "LNM")
    return kept.replace(" ", "-")


def _with_anchors(state) -> None:
    """Give each heading its GitHub anchor (a heading met again gets "-1", "-2"...)."""
    seen: dict[str, int] = {}
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        inline = tokens[index + 1]
        text = "".join(child.content for child in inline.children or [] if child.type in ("text", "code_inline"))
        anchor = anchor_of(text)
        if anchor in seen:
            seen[anchor] += 1
            anchor = f"{anchor}-{seen[anchor]}"
        seen.setdefault(anchor, 0)
        token.attrSet("id", anchor)


def _code_untranslated(state) -> None:
    """Mark code (commands, paths, fields: machine words, the same in every language) for translators and
    translating browsers alike (``translate="no"``)."""
    for block in state.tokens:
        if block.type in ("fence", "code_block"):
            block.attrSet("translate", "no")
        for child in block.children or []:
            if child.type == "code_inline":
                child.attrSet("translate", "no")


def _links_on_the_site(state) -> None:
    """Point a link to a guide at its page; show a link to another file of the repository as its text."""
    guide = reverse("players-guide")
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children, depth_dropped = [], []
        for child in block.children:
            if child.type == "link_open":
                href = child.attrGet("href") or ""
                found = _GUIDE_LINK.match(href)
                if found:
                    child.attrSet("href", f"{guide}?language={found.group(1) or 'en'}{found.group(2) or ''}")
                elif not (href.startswith("#") or href.startswith("/") or _OTHER_SCHEME.match(href)):
                    depth_dropped.append(True)
                    continue
                depth_dropped.append(False)
            elif child.type == "link_close" and depth_dropped and depth_dropped.pop():
                continue
            children.append(child)
        block.children = children


def rendered(text: str) -> SafeString:
    """Return Markdown ``text`` as the guide's page shows it: headings with anchors, links for the site, code marked."""
    parser = MarkdownIt("commonmark", {"html": False}).enable("table")
    parser.core.ruler.push("anchors", _with_anchors)
    parser.core.ruler.push("site_links", _links_on_the_site)
    parser.core.ruler.push("code_untranslated", _code_untranslated)
    return mark_safe(parser.render(text))  # noqa: S308 (html off: the text's own HTML is escaped)


@cache
def guide_html(language: str) -> SafeString:
    """Return the guide in ``language`` (a key of ``FILES``) as HTML."""
    return rendered((DOCS / FILES[language]).read_text(encoding="utf-8"))


def guide_language(asked: str | None) -> str:
    """Return the guide's language: the one asked for when there is a guide in it, else the reader's, else English."""
    if asked in FILES:
        return asked
    reader = (get_language() or "en").split("-")[0]
    return reader if reader in FILES else "en"


@require_safe
def players_guide(request) -> HttpResponse:
    language = guide_language(request.GET.get("language"))
    others = [(code, name) for code, name in settings.LANGUAGES if code in FILES and code != language]
    return render(request, "guide/players.html", {
        "guide": guide_html(language), "guide_language": language, "other_languages": others,
        "page_description": gettext("How to play on turnbased: tables, clocks, moves on the board, by email and "
                                    "through the API, ratings, groups and competitions."),
    })
