"""The German catalog is complete: every string the code and the templates mark has its
German, nothing fuzzy, nothing left over, the placeholders match, and the committed
.po file is what scripts/update_translations.py writes (run it after changing a string)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

from api.web.i18n import catalog_path, translate, translations
from api.web.render import TEMPLATE_DIR
from api.web.results import STORAGE_REFUSALS
from scripts.update_translations import extract, po_text, read_catalog, updated
from storage.repositories import web_results


@pytest.fixture(scope="module")
def template() -> Catalog:
    return extract()


@pytest.fixture(scope="module")
def german() -> Catalog:
    return read_catalog()


def _ids(catalog: Catalog) -> set[str]:
    return {_key(message) for message in catalog if message.id}


def _key(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def test_every_marked_string_has_its_german(template: Catalog, german: Catalog) -> None:
    missing = sorted(_ids(template) - _ids(german))
    assert not missing, f"not in the catalog (run scripts/update_translations.py): {missing}"
    empty = [_key(m) for m in german if m.id and not all(_strings(m))]
    assert not empty, f"no German yet: {empty}"


def test_the_catalog_has_nothing_fuzzy_or_left_over(template: Catalog, german: Catalog) -> None:
    assert not [_key(m) for m in german if m.id and m.fuzzy]
    assert not german.obsolete
    assert _ids(german) == _ids(template), sorted(_ids(german) ^ _ids(template))


def test_placeholders_match(german: Catalog) -> None:
    problems = [(_key(message), errors) for message, errors in german.check() if errors]
    assert not problems


def test_the_committed_catalog_is_what_the_update_script_writes(template: Catalog) -> None:
    assert catalog_path("de").read_bytes() == po_text(updated(read_catalog(), template))


def test_the_application_reads_the_committed_catalog(german: Catalog) -> None:
    loaded = translations("de")
    for message in german:
        if message.id and isinstance(message.id, str):
            assert loaded.gettext(message.id) == message.string
    assert translate("de", "Inbox") == "Eingang" and translate("en", "Inbox") == "Inbox"


def test_the_catalog_marks_the_string_of_a_template(template: Catalog) -> None:
    """Extraction reaches templates and Python: one string from each."""
    sources = {path for message in template for path, _ in message.locations}
    assert any(path.endswith(".html") for path in sources)
    assert any(path.endswith("labels.py") for path in sources)


def _strings(message: Message) -> tuple[str, ...]:
    string = message.string
    return tuple(string) if isinstance(string, tuple | list) else (string,)


# Words that are the same in both languages: codes and the product's name.
_SAME_IN_BOTH = {"docintake", "IBAN", "BIC", "SHA", "UTC"}
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_TAG = re.compile(r"<[^>]*>")
_ATTRIBUTE = re.compile(r'[\w-]+="[^"]*"')  # outside a tag in a macro that writes attributes
_SHOWN_ATTRIBUTE = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"{]*)"')


def _untranslated_words(source: str) -> list[str]:
    without_jinja = _JINJA.sub(" ", source)
    text = _ATTRIBUTE.sub(" ", _TAG.sub(" ", without_jinja))
    shown = [*_SHOWN_ATTRIBUTE.findall(without_jinja), text]
    words = re.findall(r"[A-Za-zÄÖÜäöüß]{2,}", " ".join(shown))
    return [word for word in words if word not in _SAME_IN_BOTH]


@pytest.mark.parametrize(
    "template_file",
    sorted(TEMPLATE_DIR.rglob("*.html")),
    ids=lambda path: str(path.relative_to(TEMPLATE_DIR)),
)
def test_templates_show_no_text_outside_gettext(template_file: Path) -> None:
    """Text written straight into a template would not be translated: every word a
    page shows comes from _(), ngettext() or a value."""
    assert _untranslated_words(template_file.read_text()) == []


def test_the_template_check_finds_text_outside_gettext() -> None:
    assert _untranslated_words('<p title="Hello">Total {{ _("Sum") }}</p>') == ["Hello", "Total"]


def test_the_storage_refusals_the_pages_translate_are_still_raised() -> None:
    source = Path(web_results.__file__).read_text()
    for detail in STORAGE_REFUSALS:
        assert f'"{detail}"' in source, detail
