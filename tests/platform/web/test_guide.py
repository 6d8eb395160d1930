"""The players' guide on the site: docs/players.md in the reader's language, its anchors and links as on GitHub."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.test import Client

from tests.docs.test_links import anchors
from turnbased.accounts.services.languages import language_choose
from turnbased.web import guide

DOCS = Path(__file__).resolve().parents[3] / "docs"
HEADING = re.compile(r"^(#{1,6}) ", re.MULTILINE)


def _headings(name: str) -> list[str]:
    """Each heading's level, in order, outside fenced code."""
    text = re.sub(r"^```.*?^```", "", (DOCS / name).read_text(encoding="utf-8"), flags=re.MULTILINE | re.DOTALL)
    return HEADING.findall(text)


@pytest.mark.parametrize("name", ["players.hu.md", "players.de.md"])
def test_each_translation_has_the_originals_headings_in_order(name):
    """A section added to the English guide and not to a translation fails here, so the three stay one guide."""
    assert _headings(name) == _headings("players.md")


@pytest.mark.parametrize("language, words", [("en", "Playing turnbased"), ("hu", "turnbased"), ("de", "turnbased")])
def test_the_guide_comes_in_the_language_asked(language, words, db):
    page = Client().get(f"/guide/?language={language}")
    assert page.status_code == 200
    body = page.content.decode()
    assert f'lang="{language}"' in body and words in body
    assert guide.guide_html(language) in body


def test_a_reader_gets_their_own_languages_guide_and_a_link_to_the_others(alice):
    language_choose(user=alice, language="hu")
    client = Client()
    client.force_login(alice)
    body = client.get("/guide/").content.decode()
    assert '<article class="card players-guide rules-text" lang="hu">' in body
    assert '?language=en"' in body and '?language=de"' in body and '?language=hu"' not in body
    assert 'name="description"' in body


@pytest.mark.parametrize("language", sorted(guide.FILES))
def test_every_heading_has_githubs_anchor_and_every_in_page_link_lands(language):
    html = str(guide.guide_html(language))
    ids = set(re.findall(r'<h[1-6] id="([^"]+)"', html))
    assert ids == anchors(DOCS / guide.FILES[language])
    for target in re.findall(r'href="#([^"]+)"', html):
        assert unquote(target) in ids, target


def test_links_to_other_files_are_shown_as_their_text_and_raw_html_is_escaped():
    html = str(guide.guide_html("en"))
    assert 'href="../README.md"' not in html and 'href="api-guide.md' not in html
    assert "README" in html
    assert not re.search(r'href="(?!#|/|https?:|mailto:)', html)


def test_a_heading_with_code_gets_githubs_anchor_and_a_link_to_a_file_keeps_its_words_alone(db):
    html = str(guide.rendered("# Write `say` first\n\nSee [the *API* guide](api-guide.md#x), [here](#write-say-first) "
                              "and [English](players.md#games).\n"))
    assert '<h1 id="write-say-first">' in html and 'href="#write-say-first"' in html
    assert "the <em>API</em> guide" in html and 'href="api-guide.md' not in html
    assert html.count("<a ") == html.count("</a>") == 2
    assert 'href="/guide/?language=en#games"' in html


def test_a_heading_met_again_is_numbered_as_github_numbers_it(db):
    html = str(guide.rendered("# Notes\n\n## Notes\n\n### Notes\n"))
    assert re.findall(r'<h[1-6] id="([^"]+)"', html) == ["notes", "notes-1", "notes-2"]


def test_a_regional_language_reads_its_languages_guide():
    from django.utils import translation

    with translation.override("de-at"):
        assert guide.guide_language(None) == "de"
    with translation.override("fr"):
        assert guide.guide_language(None) == "en"
    assert guide.guide_language("hu") == "hu" and guide.guide_language("xx") in guide.FILES
