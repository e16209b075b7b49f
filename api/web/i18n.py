"""The web application's languages: German and English, through gettext catalogs.

The source strings (msgids) are English; `locale/de/LC_MESSAGES/messages.po` holds their
German. The catalog is read from its `.po` file when first asked for, once per process
(30 ms on a free core, up to 100 ms with both cores at load 20) and compiled in memory:
there is no `.mo` file that could be older than its source, and no build step.
`scripts/update_translations.py` extracts the strings (`babel.cfg`) and updates the
catalog; tests/web/test_translations.py fails on any string without German.

Python code marks what it shows with `N_` (a constant label) or builds a `Message` (a
text with values); the templates translate both when the page is rendered, in the
page's language (`render.request_language`)."""

from __future__ import annotations

import gettext
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("de", "en")
DEFAULT_LANGUAGE = "de"
SOURCE_LANGUAGE = "en"  # the msgids: English needs no catalog
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "messages"
LANGUAGE_NAMES = {"de": "Deutsch", "en": "English"}  # each in its own language


def N_(message: str) -> str:
    """Marks a constant for extraction; it is translated where it is shown."""
    return message


@dataclass(frozen=True)
class Message:
    """A text with values (`'Unknown status %(value)s'`), translated when shown."""

    msgid: str
    values: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.msgid % self.values


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> gettext.NullTranslations:
    if language not in LANGUAGES or language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    with catalog_path(language).open("rb") as source:
        catalog = read_po(source, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


def translate(language: str, text: str | Message) -> str:
    """A msgid or a Message in `language` (a Message among its values too); text not in
    the catalog stays as it is."""
    found = translations(language)
    if isinstance(text, Message):
        values = {
            name: translate(language, value) if isinstance(value, Message) else value
            for name, value in text.values.items()
        }
        return found.gettext(text.msgid) % values
    return found.gettext(text)


def supported(language: str | None) -> str | None:
    return language if language in LANGUAGES else None


def negotiate(accept_language: str | None) -> str:
    """The first supported language of an Accept-Language header, by weight."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")[:20]):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                continue
        primary = tag.strip().split("-")[0].lower()
        if primary in LANGUAGES and weight > 0:
            ranked.append((-weight, index, primary))
    return min(ranked)[2] if ranked else DEFAULT_LANGUAGE
