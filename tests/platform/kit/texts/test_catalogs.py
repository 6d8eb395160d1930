"""Every word of the platform and of every game is translated into every language the site speaks.

The catalogs are read as a translator leaves them (``.po``): no entry empty or fuzzy, every
placeholder kept, each plural form there; and they hold exactly the texts the code marks, gathered
again here from the code (Django's ``makemessages`` for the platform, Babel for the games) into a
copy, so a text marked without being added to the catalogs fails.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.conf import settings

from turnbased.kit.texts import catalogs

BASE_DIR = catalogs.BASE_DIR
LANGUAGES = [code for code, _ in settings.LANGUAGES if code != "en"]
# %(name)s, %s, %d (Django's catalogs) and {name} (the games', str.format).
_PERCENT = re.compile(r"%(?:\([^)]+\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]")
_BRACE = re.compile(r"\{[A-Za-z_]\w*(?:![rsa])?(?::[^{}]*)?\}")  # {name}, {name!r}, {name:>3}: not {"json"}


def _catalog(po: Path):
    with po.open("rb") as source:
        return read_po(source, locale=po.parent.parent.name, domain=po.stem)


def _placeholders(text: str) -> list[str]:
    """Return the placeholders of ``text``, each once (a translation may name a player twice, or once)."""
    return sorted({found for found in _PERCENT.findall(text) + _BRACE.findall(text) if found != "%%"})


def _problems(po: Path, root: Path = BASE_DIR) -> list[str]:
    problems = []
    for message in _catalog(po):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        label = f"{po.relative_to(root)}: {ids[0][:70]!r}"
        if message.fuzzy:
            problems.append(f"{label} is fuzzy")
        if not all(strings):
            problems.append(f"{label} is not translated")
            continue
        wanted = _placeholders(ids[-1])
        for string in strings:
            # A plural form for one may leave the count out ("egy kártya"); every other placeholder stays.
            found = _placeholders(string)
            if found != wanted and not (len(ids) > 1 and set(found) <= set(wanted)):
                problems.append(f"{label}: placeholders {found} in {string[:60]!r}, not {wanted}")
    return problems


def _catalogs_of(language: str) -> list[Path]:
    return [po for po in catalogs.po_files() if po.parent.parent.name == language]


def test_the_site_speaks_english_hungarian_and_german():
    assert [code for code, _ in settings.LANGUAGES] == ["en", "de", "hu"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_is_translated_once_with_its_placeholders(language):
    problems = [problem for po in _catalogs_of(language) for problem in _problems(po)]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


def test_every_catalog_is_in_every_language():
    """A catalog of the platform or of a game exists in each language, or in none (its folder has no texts)."""
    folders = defaultdict(set)
    for po in catalogs.po_files():
        folders[(po.parents[2], po.name)].add(po.parent.parent.name)
    missing = {f"{folder.relative_to(BASE_DIR)}/{name}": sorted(set(LANGUAGES) - found)
               for (folder, name), found in folders.items() if set(LANGUAGES) - found}
    assert not missing
    for package in catalogs.game_packages():
        assert (package / "locale").is_dir(), f"{package.relative_to(BASE_DIR)} has no catalogs"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_text_in_two_platform_catalogs_is_translated_the_same_in_both(language):
    """Django merges the platform's catalogs into one: a text must not mean two things."""
    seen: dict[tuple, dict[tuple, list[str]]] = defaultdict(lambda: defaultdict(list))
    for po in _catalogs_of(language):
        if po.name != "django.po":
            continue
        for message in _catalog(po):
            if message.id and not message.fuzzy:
                seen[(message.context, message.id)][tuple(message.string) if isinstance(message.string, tuple)
                                                    else (message.string,)].append(str(po.relative_to(BASE_DIR)))
    clashes = {key: dict(translations) for key, translations in seen.items() if len(translations) > 1}
    assert not clashes, clashes


def _gathered_again(tmp_path: Path) -> Path:
    """Copy what the catalogs are gathered from into ``tmp_path`` and gather them there."""
    root = tmp_path / "copy"
    ignore = shutil.ignore_patterns("__pycache__", "*.mo", "node_modules")
    for folder in ("turnbased", "templates", "games", "locale", "static"):
        if (BASE_DIR / folder).exists():
            shutil.copytree(BASE_DIR / folder, root / folder, ignore=ignore)
    shutil.copy(BASE_DIR / "manage.py", root / "manage.py")
    catalogs.extract_game_catalogs(root)
    catalogs.extract_platform_catalogs(root)
    return root


def _texts(po: Path) -> set[tuple]:
    return {(message.context, message.id) for message in _catalog(po) if message.id}


def test_the_catalogs_hold_exactly_the_texts_the_code_marks(tmp_path):
    if shutil.which("xgettext") is None:
        pytest.fail("GNU gettext (xgettext) is needed to gather the platform's texts: apt-get install gettext")
    root = _gathered_again(tmp_path)
    committed = {po.relative_to(BASE_DIR): _texts(po) for po in catalogs.po_files()}
    gathered = {po.relative_to(root): _texts(po) for po in catalogs.po_files(root)}
    assert sorted(gathered) == sorted(committed), "catalogs added or missing: run python -m turnbased.kit.texts.catalogs extract"
    stale = {str(name): {"marked, not in the catalog": sorted(map(str, gathered[name] - committed[name]))[:10],
                         "in the catalog, no longer marked": sorted(map(str, committed[name] - gathered[name]))[:10]}
             for name in committed if gathered[name] != committed[name]}
    assert not stale, "run python -m turnbased.kit.texts.catalogs extract, then translate:\n" + str(stale)


def test_the_extraction_tool_finds_a_new_text(tmp_path):
    """The comparison above can fail: a text marked in a copy of the code is missing from its catalogs."""
    root = tmp_path / "copy"
    shutil.copytree(BASE_DIR / "games", root / "games", ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    module = root / "games" / "base.py"
    module.write_text(module.read_text() + '\n\n_("A text nobody translated yet")\n')
    catalogs.extract_game_catalogs(root, only=("games",))
    po = root / "games" / "locale" / "hu" / "LC_MESSAGES" / "game.po"
    assert (None, "A text nobody translated yet") in _texts(po)
    assert any("not translated" in problem for problem in _problems(po, root))


def test_the_platform_extraction_finds_a_new_text_in_an_app_and_in_a_template(tmp_path):
    """The comparison can fail for the platform too: texts marked in an app's code and in a project template of a
    copy reach that app's catalogs and the project's (all of ``makemessages``'s runs share one process)."""
    if shutil.which("xgettext") is None:
        pytest.fail("GNU gettext (xgettext) is needed to gather the platform's texts: apt-get install gettext")
    root = tmp_path / "copy"
    for folder in ("turnbased", "templates", "locale", "games"):  # games: the settings import the engines
        shutil.copytree(BASE_DIR / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__", "*.mo"))
    module = root / "turnbased" / "chat" / "selectors.py"
    module.write_text(module.read_text() + '\n\nfrom django.utils.translation import gettext\n'
                      'gettext("A chat text nobody translated yet")\n')
    page = root / "templates" / "base.html"
    page.write_text(page.read_text() + '\n{% load i18n %}{% translate "A page text nobody translated yet" %}\n')
    catalogs.extract_platform_catalogs(root, only=("chat", "project"))
    assert (None, "A chat text nobody translated yet") in _texts(
        root / "turnbased" / "chat" / "locale" / "hu" / "LC_MESSAGES" / "django.po")
    assert (None, "A page text nobody translated yet") in _texts(root / "locale" / "de" / "LC_MESSAGES" / "django.po")


def test_compiling_writes_what_readers_read(tmp_path):
    """A compiled catalog answers with its translations, and leaves a fuzzy guess out."""
    po = tmp_path / "locale" / "hu" / "LC_MESSAGES" / "game.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                  'msgid "Guard"\nmsgstr "Őr"\n\n#, fuzzy\nmsgid "Priest"\nmsgstr "Pap"\n', encoding="utf-8")
    assert catalogs.compile_catalogs(tmp_path) == [po.with_suffix(".mo")]
    assert catalogs.compile_catalogs(tmp_path) == []  # up to date: nothing written again
    import gettext

    read = gettext.translation("game", localedir=tmp_path / "locale", languages=["hu"])
    assert (read.gettext("Guard"), read.gettext("Priest")) == ("Őr", "Priest")


def test_a_compiled_catalog_is_built_from_the_committed_one():
    """The .mo files are not in the repository: every start builds them (turnbased.local, the image)."""
    listed = subprocess.run(["git", "ls-files", "*.mo"], cwd=BASE_DIR, capture_output=True, text=True, check=True)
    assert listed.stdout == ""
    assert "turnbased.kit.texts.catalogs compile" in (BASE_DIR / "deploy" / "Dockerfile").read_text()
