"""Every relative link of the documentation leads somewhere: its file exists, and its #anchor is a heading there.

The pages read: README.md, every Markdown file under docs/, deploy/README.md and clients/python/README.md. A link
to an http(s) address (or any other scheme: mailto) is not followed. Anchors are made from headings as GitHub
makes them: the heading's text as shown (code marks, emphasis and link targets dropped), lowercased, every
character but letters, digits, spaces, "-" and "_" dropped, each space turned into "-"; a heading that comes
again gets "-1", then "-2". Links and headings inside code (fenced blocks, `spans`) do not count.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from urllib.parse import unquote

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent

PAGES = sorted(
    [ROOT / "README.md", ROOT / "deploy" / "README.md", ROOT / "clients" / "python" / "README.md",
     *(ROOT / "docs").rglob("*.md")]
)

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# [text](target) and ![alt](target), the target optionally in <...> and followed by a "title".
INLINE_LINK = re.compile(r"\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
HTML_LINK = re.compile(r"""\b(?:href|src)=["']([^"']+)["']""")
HTML_ANCHOR = re.compile(r"""<a\s[^>]*\b(?:name|id)=["']([^"']+)["']""")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """Return the lines outside fenced code blocks, with their numbers."""
    lines, fence = [], None
    for number, line in enumerate(text.splitlines(), 1):
        opening = FENCE.match(line)
        if fence is None and opening:
            fence = opening.group(1)[0] * len(opening.group(1))
        elif fence is not None and line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            fence = None
        elif fence is None:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """Return GitHub's anchor for a heading's text (before duplicates are numbered)."""
    shown = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    shown = re.sub(r"<[^>]+>", "", shown).replace("`", "").replace("*", "")
    kept = "".join(character for character in shown.lower()
                   if character in " -_" or unicodedata.category(character)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Return every anchor a link may name in a page: its headings' (duplicates numbered) and explicit ones."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(page.read_text(encoding="utf-8")):
        found.update(HTML_ANCHOR.findall(line))
        heading = HEADING.match(line)
        if not heading:
            continue
        anchor = slug(heading.group(2))
        if anchor in seen:
            seen[anchor] += 1
            while f"{anchor}-{seen[anchor]}" in seen:
                seen[anchor] += 1
            anchor = f"{anchor}-{seen[anchor]}"
        seen.setdefault(anchor, 0)
        found.add(anchor)
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """Return every link target in a page's prose, with its line number."""
    found = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        line = CODE_SPAN.sub("", line)
        for pattern in (INLINE_LINK, REFERENCE_DEFINITION, HTML_LINK):
            found.extend((number, target.strip("<>")) for target in pattern.findall(line))
    return found


def broken_links(page: Path) -> list[str]:
    """Return what is wrong with each relative link of a page: a missing file, or an anchor no heading makes."""
    problems = []
    for number, target in links(page):
        if SCHEME.match(target):
            continue  # http(s) and mailto: not followed
        path, _, anchor = target.partition("#")
        path = unquote(path)
        if not path:
            destination = page
        elif path.startswith("/"):
            destination = ROOT / path.lstrip("/")
        else:
            destination = page.parent / path
        destination = destination.resolve()
        where = f"{page.relative_to(ROOT)}:{number}: {target}"
        if not destination.is_relative_to(ROOT):
            problems.append(f"{where}: outside the repository")
        elif not destination.exists():
            problems.append(f"{where}: no such file")
        elif anchor and destination.suffix == ".md" and unquote(anchor) not in anchors(destination):
            problems.append(f"{where}: no heading makes #{anchor} in {destination.relative_to(ROOT)}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=[str(page.relative_to(ROOT)) for page in PAGES])
def test_every_relative_link_leads_to_a_file_and_a_heading_there(page):
    assert broken_links(page) == []


def test_the_pages_read_include_the_readme_and_the_guides():
    read = {str(page.relative_to(ROOT)) for page in PAGES}
    assert {"README.md", "deploy/README.md", "clients/python/README.md", "docs/api.md", "docs/design.md"} <= read


def test_anchors_are_made_as_github_makes_them():
    assert slug("The REST API (version 1)") == "the-rest-api-version-1"
    assert slug("Clocks, absence and bots") == "clocks-absence-and-bots"
    assert slug("Sending a request again: `Idempotency-Key`") == "sending-a-request-again-idempotency-key"
    assert slug("gunicorn sizing") == "gunicorn-sizing"
    assert slug("Carcassonne – Jäger und Sammler") == "carcassonne--jäger-und-sammler"
    assert slug("`STREAM_URL` and [the stream](api-guide.md)") == "stream_url-and-the-stream"


def test_a_broken_link_or_anchor_is_caught(tmp_path, monkeypatch):
    monkeypatch.setattr(f"{__name__}.ROOT", tmp_path)
    (tmp_path / "other.md").write_text("# Other\n\n## Part\n\n## Part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n"
        "[fine](other.md#part-1) [fine](#page) [fine](https://example.org/none#x) ![fine](other.md)\n"
        "[gone](missing.md) [no part](other.md#part-2) [no anchor here](#nowhere)\n"
        "`[not a link](missing.md)`\n\n```\n[not a link either](missing.md)\n# not a heading\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "page.md:4: missing.md: no such file",
        "page.md:4: other.md#part-2: no heading makes #part-2 in other.md",
        "page.md:4: #nowhere: no heading makes #nowhere in page.md",
    ]
