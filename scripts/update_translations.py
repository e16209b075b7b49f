"""Extract the web application's strings and update its German catalog.

    .venv/bin/python scripts/update_translations.py    (or: make translations)

Extracts every marked string (babel.cfg: `_()`, `N_()`, `{% trans %}` ...) from
api/web, merges it into api/web/locale/de/LC_MESSAGES/messages.po (new strings get an
empty German, strings no longer used are dropped, nothing is guessed: no fuzzy
matching) and lists the strings that still need their German. There is nothing to
compile: the application reads the .po file (api/web/i18n.py).
tests/web/test_translations.py fails until every string has its German."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "babel.cfg"
CATALOG = ROOT / "api" / "web" / "locale" / "de" / "LC_MESSAGES" / "messages.po"
HEADER = """\
# German of the docintake web application. Edit the msgstr lines; add strings by
# marking them in the code and running scripts/update_translations.py (docs/webapp.md).
#"""
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}


def extract() -> Catalog:
    """The template catalog: every string marked in the code and the templates."""
    with CONFIG.open() as config:
        method_map, options_map = parse_mapping_cfg(config, CONFIG.name)
    template = Catalog(project="docintake", fuzzy=False)
    found = extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True
    )
    for file_name, line, message, comments, context in found:
        template.add(
            message, locations=[(file_name, line)], auto_comments=comments, context=context
        )
    return template


def read_catalog(path: Path = CATALOG) -> Catalog:
    if not path.exists():
        return Catalog(locale="de", project="docintake", fuzzy=False)
    with path.open("rb") as source:
        return read_po(source, locale="de")


def updated(catalog: Catalog, template: Catalog) -> Catalog:
    """The catalog with the template's strings; its dates stay, so an unchanged catalog
    is written byte for byte the same (the test compares)."""
    created = catalog.creation_date
    catalog.update(template, no_fuzzy_matching=True, update_header_comment=False)
    catalog.obsolete.clear()
    catalog.creation_date = created
    catalog.header_comment = HEADER
    catalog.project, catalog.version = "docintake", "0.1"
    catalog.msgid_bugs_address = catalog.last_translator = catalog.language_team = "docintake"
    return catalog


def po_text(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, include_previous=False, sort_output=True)
    return out.getvalue()


def untranslated(catalog: Catalog) -> list[str]:
    return [str(message.id) for message in catalog if message.id and not _translated(message)]


def _translated(message: object) -> bool:
    string = getattr(message, "string", "")
    if isinstance(string, tuple | list):
        return all(string)
    return bool(string)


def main() -> int:
    catalog = updated(read_catalog(), extract())
    CATALOG.parent.mkdir(parents=True, exist_ok=True)
    CATALOG.write_bytes(po_text(catalog))
    missing = untranslated(catalog)
    print(f"{CATALOG.relative_to(ROOT)}: {len(catalog)} strings, {len(missing)} without German")
    for message in missing:
        print(f"  {message!r}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
