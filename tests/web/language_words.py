"""Which words of a page belong to the other language (issue 43, "German everywhere,
English everywhere"): the English words are the catalogue's msgids' words no German
text uses, the German words those of its translations no msgid uses. A page's visible
text (its main content without <code>, ids and the bodies of <details>) may hold none
of the other language's words outside ALLOWED. test_failure_pages.py and
test_every_page_language.py read pages with it."""

from __future__ import annotations

import io
import re
from typing import cast

from lxml import etree, html
from pypdf import PdfReader

from scripts.update_translations import read_catalog

# The processor's English, as stored with a failed upload: it must not reach the page
# outside the toggle.
PROCESSOR_MESSAGE = "Processor refused this document because something went wrong entirely."
# Words both languages use, or names the page shows as they are.
ALLOWED = {
    "pdf", "xml", "zip", "iban", "bic", "sha", "id", "e", "english", "deutsch", "docintake",
    "upload", "uploads", "batch", "status", "details", "min", "max", "ok", "name", "de", "en",
    "acme", "gmbh", "rechnung", "utc", "export", "ust", "datev", "api", "webhooks", "imap",
    "information", "e-invoice", "e-rechnung", "logout", "bank", "account", "sepa",
    "element", "formats",  # German too ("ein Element", "ihres Formats")
}  # fmt: skip
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")
HEX = re.compile(r"\b[0-9a-f]*[0-9][0-9a-f-]*\b")  # ids (a uuid's letters are no words)
PLACEHOLDER = re.compile(r"%\(\w+\)s")


def words(text: str) -> set[str]:
    return {word.lower() for word in WORD.findall(text)}


def _vocabularies() -> tuple[set[str], set[str]]:
    english: set[str] = set()
    german: set[str] = set()
    for message in read_catalog():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        english |= words(" ".join(PLACEHOLDER.sub(" ", str(i)) for i in ids))
        german |= words(" ".join(PLACEHOLDER.sub(" ", str(s)) for s in strings if s))
    both = english & german
    return (english - both) | words(PROCESSOR_MESSAGE), german - both


ENGLISH_WORDS, GERMAN_WORDS = _vocabularies()
FOREIGN = {"de": ENGLISH_WORDS, "en": GERMAN_WORDS}


def elements(node: html.HtmlElement, path: str) -> list[html.HtmlElement]:
    return cast(list[html.HtmlElement], node.xpath(path))


def visible_text(page: str, language: str | None = None) -> str:
    """What a reader sees without opening a toggle: the main content, without code,
    ids (hashes, uuids), names marked translate="no" (time zones) and the body of
    <details> (its <summary> stays).
    Given the page's language, text marked as another (`lang="de"` on a German legal
    citation of an English page) is left out too: it is meant to be foreign."""
    main = elements(html.fromstring(page), "//main")[0]
    other = f' | .//*[@lang and @lang != "{language}"]' if language else ""
    hidden_paths = ".//details/*[not(self::summary)] | .//code | .//*[@translate='no']"
    for hidden in elements(main, hidden_paths + other):
        parent = hidden.getparent()
        assert parent is not None
        parent.remove(hidden)
    # Text nodes apart: a label and its value ("Mandate", "20-7") are two words.
    return HEX.sub(" ", " ".join(str(text) for text in main.itertext()))


def leaked(page: str, language: str, allowed: set[str] = ALLOWED) -> set[str]:
    """The other language's words on the page, outside the allowed ones (a single
    letter is no word of either)."""
    found = words(visible_text(page, language)) & FOREIGN[language]
    return {word for word in found - allowed if len(word) > 1}


def document_words(name: str, content: bytes) -> frozenset[str]:
    """The words of a document and its name: data, shown as the sender wrote them
    (a bank's booking texts, an invoice's payment terms and notes)."""
    if content.startswith(b"%PDF"):
        text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)
    else:
        text = " ".join(str(part) for part in etree.fromstring(content).itertext())
    return frozenset(words(f"{name} {text}"))
