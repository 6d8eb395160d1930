"""The translation catalogs of the platform and of every game: find, extract and compile them.

    python -m turnbased.kit.texts.catalogs compile   # .po -> .mo wherever the .mo is missing or older (make run/test do it)
    python -m turnbased.kit.texts.catalogs extract   # gather every marked text into the .po files of each language
    python -m turnbased.kit.texts.catalogs extract --language=fr   # ... and start a new language's catalogs
    python -m turnbased.kit.texts.catalogs extract-games [PACKAGE...]   # only the games' (love_letter...), no gettext needed
    python -m turnbased.kit.texts.catalogs extract-platform [APP...]    # only these apps' (play...; project: the rest)

Where the words live:
- the platform's: ``locale/<language>/LC_MESSAGES/django.po`` for ``templates/`` and the modules at the top
  of ``turnbased/``, and ``turnbased/<app>/locale/...`` for each app (its code and its templates);
- each game's: ``games/<package>/locale/<language>/LC_MESSAGES/game.po`` (``games/i18n.py``), and the
  contract's own in ``games/locale/``.

Compiling needs no system tool (Babel writes the .mo files), so a fresh clone's ``make run`` and
``make test`` compile what they need. Extracting the platform's texts uses Django's ``makemessages``,
which needs GNU gettext (``xgettext``); the games' are read by Babel. A new language is a new folder
of catalogs under each of those places: the platform offers every language the project catalog has
(``settings.LANGUAGES``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[3]  # turnbased/kit/texts/ -> the repository
SKIPPED = {".git", ".venv", ".data", "node_modules", "__pycache__", "staticfiles"}
# The languages every catalog must carry besides English, the language of the code.
REQUIRED_LANGUAGES = ("hu", "de")
GAME_DOMAIN = "game"
# The names the games' code marks its texts with (games/i18n.py): _("..."), _.ngettext(...), N_("...").
GAME_KEYWORDS = {
    "_": None,
    "N_": None,
    "noop": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}


def offered_languages(root: Path = BASE_DIR) -> list[tuple[str, str]]:
    """Return ``settings.LANGUAGES``: English, then every language of the project catalog, each named in itself."""
    from django.conf.locale import LANG_INFO

    folder = root / "locale"
    codes = sorted(path.name.lower().replace("_", "-") for path in folder.iterdir()
                   if (path / "LC_MESSAGES" / "django.po").is_file()) if folder.is_dir() else []
    return [(code, LANG_INFO.get(code, {}).get("name_local", code)) for code in dict.fromkeys(["en", *codes])]


def _walk(root: Path):
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if name not in SKIPPED)
        yield Path(folder), files


def po_files(root: Path = BASE_DIR) -> list[Path]:
    """Return every catalog (.po) of the project, sorted."""
    return sorted(Path(folder) / name for folder, files in _walk(root) for name in files
                  if name.endswith(".po") and Path(folder).name == "LC_MESSAGES")


def compile_catalogs(root: Path = BASE_DIR, *, force: bool = False) -> list[Path]:
    """Write the .mo beside each .po that has none or an older one; return the .mo files written.

    Fuzzy entries are left out, as ``msgfmt`` does: a guess never reaches a reader.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in po_files(root):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as source:
            catalog = read_po(source, locale=po.parent.parent.name, domain=po.stem)
        partial = mo.with_name(f".{mo.name}.{os.getpid()}")
        with partial.open("wb") as target:
            write_mo(target, catalog, use_fuzzy=False)
        partial.replace(mo)  # a reader never sees half a file
        written.append(mo)
    return written


_HEADER = {"project": "turnbased", "version": "1", "copyright_holder": "the turnbased authors",
           "msgid_bugs_address": "", "last_translator": "the turnbased authors", "language_team": ""}


def game_packages(root: Path = BASE_DIR) -> list[Path]:
    """Return the folders whose texts form one games catalog: ``games/`` itself and each game package."""
    games = root / "games"
    return [games] + sorted(path for path in games.iterdir() if (path / "__init__.py").is_file()
                            and path.name not in SKIPPED)


def extract_game_catalogs(root: Path = BASE_DIR, languages: tuple[str, ...] = REQUIRED_LANGUAGES,
                          only: tuple[str, ...] = ()) -> list[Path]:
    """Gather the marked texts of each game package into its ``game.po`` per language; return the files written.

    New texts come untranslated, texts no longer marked are dropped, and translations of kept texts
    stay. ``games/`` itself gathers only its own modules, not its packages'. ``only`` names the
    packages to gather (``love_letter``, ``games`` for the contract's own); every one by default.
    """
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file
    from babel.messages.pofile import read_po, write_po

    written = []
    for package in game_packages(root):
        if only and package.name not in only:
            continue
        template = Catalog(domain=GAME_DOMAIN, fuzzy=False, **_HEADER)
        modules = sorted(package.glob("*.py")) if package.name == "games" else sorted(package.rglob("*.py"))
        for module in modules:
            relative = module.relative_to(root).as_posix()
            for line, message, comments, context in extract_from_file(
                "python", str(module), keywords=GAME_KEYWORDS, comment_tags=("Translators:",),
                options={"encoding": "utf-8"},
            ):
                template.add(message, None, [(relative, line)], auto_comments=comments, context=context)
        for language in languages:
            po = package / "locale" / language / "LC_MESSAGES" / f"{GAME_DOMAIN}.po"
            if po.exists():
                with po.open("rb") as source:
                    catalog = read_po(source, locale=language, domain=GAME_DOMAIN)
            else:
                catalog = Catalog(locale=language, domain=GAME_DOMAIN, fuzzy=False, **_HEADER,
                                  header_comment=f"# The words of {package.relative_to(root).as_posix()}/ in {language}: "
                                                 "turnbased/kit/texts/catalogs.py says how they are gathered.")
            catalog.update(template, no_fuzzy_matching=True, update_header_comment=False, update_creation_date=False)
            catalog.obsolete.clear()
            po.parent.mkdir(parents=True, exist_ok=True)
            with po.open("wb") as target:
                write_po(target, catalog, width=100, sort_by_file=True, omit_header=False, ignore_obsolete=True,
                         include_previous=False, include_lineno=False)
            written.append(po)
    return written


def tidy_platform_header(po: Path) -> None:
    """Give a catalog ``makemessages`` made a real header: not fuzzy (a fuzzy header is left out when compiled,
    and its plural rule with it), its language named, no template placeholders."""
    text = po.read_text(encoding="utf-8")
    head, separator, body = text.partition('\nmsgid ""\nmsgstr ""\n')
    if not separator:
        return
    language = po.parent.parent.name
    head = "\n".join(line for line in head.splitlines() if line.startswith("#") and line != "#, fuzzy")
    head = (f"# The platform's words in {language}: turnbased/kit/texts/catalogs.py says how they are gathered."
            if "SOME DESCRIPTIVE TITLE" in head or not head.strip() else head)
    fields = {"Project-Id-Version": "turnbased 1", "Last-Translator": "the turnbased authors",
              "Language-Team": language, "Language": language}
    lines = body.split("\n")
    for index, line in enumerate(lines):
        if not line.startswith('"'):
            break
        name = line[1:].partition(":")[0]
        if name in fields:
            lines[index] = f'"{name}: {fields[name]}\\n"'
        elif name == "PO-Revision-Date" and "YEAR" in line:
            lines[index] = line.replace("YEAR-MO-DA HO:MI+ZONE", "2026-12-01 00:00+0000")
    po.write_text(f'{head}\nmsgid ""\nmsgstr ""\n' + "\n".join(lines), encoding="utf-8")


def platform_locale_roots(root: Path = BASE_DIR) -> list[Path]:
    """Return the folders whose texts form one platform catalog: each app of ``turnbased/``, then the project."""
    apps = sorted(path for path in (root / "turnbased").iterdir() if (path / "apps.py").is_file())
    return [*apps, root]


def extract_platform_catalogs(root: Path = BASE_DIR, languages: tuple[str, ...] = REQUIRED_LANGUAGES,
                              only: tuple[str, ...] = ()) -> None:
    """Run Django's ``makemessages`` for each app (its code and templates) and for the project (the rest).

    ``only`` names the apps to gather (``play``, and ``project`` for the project's catalog); all by default.
    """
    apps = [app for app in platform_locale_roots(root)[:-1] if not only or app.name in only]
    environment = {**os.environ, "DJANGO_SETTINGS_MODULE": "turnbased.settings",
                   "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    language_args = [f"--locale={language}" for language in languages]
    # Scripts read their words from the page (data attributes the templates translate): no djangojs catalogs.
    common = ["--no-obsolete", "--add-location=file", "--no-wrap", *language_args]
    runs = [(str(app), common) for app in apps]
    if not only or "project" in only:
        # The project: templates/ and turnbased/'s own modules; games, apps and tests have catalogs or need none.
        ignored = ["games/*", "tests/*", "benchmarks/*", "mutants/*", "clients/*", "examples/*", "deploy/*", "docs/*",
                   "static/vendor/*", *(f"turnbased/{app.name}/*" for app in platform_locale_roots(root)[:-1])]
        runs.append((str(root), [*common, *(f"--ignore={pattern}" for pattern in ignored)]))
    for folder, _ in runs:
        (Path(folder) / "locale").mkdir(exist_ok=True)
    # One process for every folder: Django starts once, not once per app (most of the time a run took).
    # python -m from the root, not django-admin in each folder: an app's selectors.py must not hide the
    # standard library's, and -m puts the root's absolute path first on sys.path, never the folder it is in.
    subprocess.run([sys.executable, "-m", "turnbased.kit.texts.catalogs", MAKEMESSAGES_IN_EACH, json.dumps(runs)],
                   cwd=root, env=environment, check=True)
    for folder, _ in runs:
        for po in (Path(folder) / "locale").glob("*/LC_MESSAGES/django.po"):
            tidy_platform_header(po)


MAKEMESSAGES_IN_EACH = "makemessages-in-each"  # the command extract_platform_catalogs runs in its one process


def _makemessages_in_each(runs: list[tuple[str, list[str]]]) -> None:
    """Run ``makemessages`` with each run's arguments in each run's folder (it gathers from where it runs), each
    as ``django-admin`` runs it (which also runs it when the settings cannot load: a shell without a database)."""
    from django.core.management import execute_from_command_line

    for folder, arguments in runs:
        os.chdir(folder)
        execute_from_command_line(["django-admin", "makemessages", *arguments])


def catalog_languages(root: Path = BASE_DIR) -> tuple[str, ...]:
    """Return the languages to gather catalogs for: the required ones and every one the project catalog has."""
    found = (path.name for path in (root / "locale").iterdir() if path.is_dir()) if (root / "locale").is_dir() else ()
    return tuple(sorted({*REQUIRED_LANGUAGES, *found}))


def main(argv: list[str]) -> int:
    # --language=xx gathers a new language's catalogs too (its first catalogs, empty for translating).
    new = tuple(arg.split("=", 1)[1] for arg in argv if arg.startswith("--language="))
    argv = [arg for arg in argv if not arg.startswith("--language=")]
    languages = tuple(sorted({*catalog_languages(), *new}))
    command = argv[0] if argv else "compile"
    if command == MAKEMESSAGES_IN_EACH:
        _makemessages_in_each(json.loads(argv[1]))
        return 0
    if command == "compile":
        written = compile_catalogs(force="--force" in argv)
        print(f"compiled {len(written)} catalog(s)")
        return 0
    if command == "extract":
        extract_platform_catalogs(languages=languages)
        written = extract_game_catalogs(languages=languages)
        compile_catalogs()
        print(f"extracted the platform's catalogs and {len(written)} game catalog(s)")
        return 0
    if command == "extract-platform":
        extract_platform_catalogs(languages=languages, only=tuple(argv[1:]))
        compile_catalogs()
        print("extracted the platform's catalogs")
        return 0
    if command == "extract-games":
        written = extract_game_catalogs(languages=languages, only=tuple(argv[1:]))
        compile_catalogs()
        print(f"extracted {len(written)} game catalog(s)")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
