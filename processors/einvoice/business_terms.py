"""Which EN 16931 business terms a validation finding concerns, and what it means.

Pure lookups over three checked-in data files in `processors/einvoice/data/`:

- `semantic_model.json`: every BT/BG id with its name in English and German
  (hand-written from EN 16931-1; Factur-X EXTENDED and XRechnung extension terms apart);
- `element_terms.json`: where each term sits in UBL and CII, by element path;
- `business_terms.json`: per rule id of the pinned rule artefacts, its business terms and
  a short explanation in English and German of what is wrong and what to ask the sender
  for (generated once by `scripts/build_business_terms.py` from the artefacts' own rule
  texts, then reviewed; never computed at run time).

A finding whose rule names no term (an XML Schema error, a Factur-X "not used in this
profile" report) gets its terms from the element it points at. Generic explanations hold
a `{term}` placeholder, filled with that element's term, or with a plain fallback.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any, Literal

from processors.results.findings import Finding

DATA_DIR = Path(__file__).with_name("data")
Language = Literal["en", "de"]
GENERIC_RULE = "(generic)"  # the entry for a rule id the data does not know
_FALLBACK_TERM: Mapping[Language, str] = {
    "en": "the element the message names",
    "de": "das in der Meldung genannte Element",
}


@dataclass(frozen=True, slots=True)
class Explanation:
    business_terms: tuple[str, ...]
    en: str
    de: str


@dataclass(frozen=True, slots=True)
class Term:
    term_id: str
    en: str
    de: str

    def name(self, language: Language) -> str:
        return self.de if language == "de" else self.en

    def label(self, language: Language) -> str:
        """ "Invoice number (BT-1)": the name an accountant reads, and the id to look up."""
        return f"{self.name(language)} ({self.term_id})"


def _load(name: str) -> dict[str, Any]:
    data = json.loads((DATA_DIR / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@cache
def semantic_model() -> Mapping[str, Term]:
    data = _load("semantic_model.json")
    table = {**data["terms"], **data["extensions"]}
    return {key: Term(key, value["en"], value["de"]) for key, value in table.items()}


@cache
def rule_entries() -> Mapping[str, Mapping[str, Any]]:
    rules = _load("business_terms.json")["rules"]
    assert isinstance(rules, dict)
    return rules


@cache
def element_terms() -> Mapping[str, Mapping[tuple[str, ...], str]]:
    data = _load("element_terms.json")
    return {
        syntax: {tuple(path.split("/")): term for path, term in data[syntax].items()}
        for syntax in ("ubl", "cii")
    }


def term(term_id: str) -> Term | None:
    return semantic_model().get(term_id)


def entry(rule_id: str) -> Mapping[str, Any] | None:
    """The data of a rule id, following `same_as` references; None when unknown."""
    found = rule_entries().get(rule_id)
    seen = {rule_id}
    while found is not None and "same_as" in found and found["same_as"] not in seen:
        seen.add(found["same_as"])
        found = rule_entries().get(found["same_as"])
    return found


def explain(rule_id: str, text: str = "", path: str | None = None) -> Explanation:
    """Business terms and explanations for a finding with this rule id and text; `path`
    is the element it points at (an XPath, as SVRL locations and libxml2 paths read)."""
    data = entry(rule_id) or entry(GENERIC_RULE)
    assert data is not None, "business_terms.json lacks its generic entry"
    terms = tuple(data.get("terms", ()))
    if not terms and path:
        found = term_at(steps_of(path) + _element_named_in(text))
        terms = (found,) if found else ()
    return Explanation(terms, _fill(data["en"], terms, "en"), _fill(data["de"], terms, "de"))


def explained(finding: Finding, path: str | None = None) -> Finding:
    """The finding with its business terms and explanations; `path` is the element it
    points at where its location is no XPath (an XML Schema error's line and column)."""
    if finding.explanation_en:
        return finding
    found = explain(finding.rule_id, finding.text, path or finding.location)
    return replace(
        finding,
        business_terms=found.business_terms,
        explanation_en=found.en,
        explanation_de=found.de,
    )


def _fill(template: str, terms: Sequence[str], language: Language) -> str:
    if "{term}" not in template:
        return template
    known = [found for found in (term(key) for key in terms) if found is not None]
    label = known[0].label(language) if known else _FALLBACK_TERM[language]
    return template.replace("{term}", label)


_EXPANDED_NAME = re.compile(r"Q\{[^}]*\}")
_STEP = re.compile(r"(?:\*:|[A-Za-z][\w.-]*:)?([A-Za-z_][\w.-]*)")
_QUOTED_ELEMENT = re.compile(r"Element '(?:[A-Za-z]+:)?([A-Za-z]\w*)'")


def steps_of(xpath: str) -> tuple[str, ...]:
    """The element local names along an XPath, predicates and attributes dropped:
    "/*:Invoice[namespace-uri()='...'][1]/cac:Item[1]/@schemeID" -> ("Invoice", "Item")."""
    steps: list[str] = []
    plain = _EXPANDED_NAME.sub("", xpath)  # KoSIT's locations: /Q{urn:...}Invoice[1]/...
    for raw in _strip_predicates(plain.split("|")[0]).split("/"):
        part = raw.strip()
        if not part or part.startswith("@") or part in (".", ".."):
            continue
        match = _STEP.fullmatch(part)
        if match:
            steps.append(match.group(1))
    return tuple(steps)


def _strip_predicates(xpath: str) -> str:
    out: list[str] = []
    depth = 0
    for char in xpath:
        if char == "[":
            depth += 1
        elif char == "]":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(char)
    return "".join(out)


def _element_named_in(text: str) -> tuple[str, ...]:
    match = _QUOTED_ELEMENT.search(text)
    return (match.group(1),) if match else ()


def term_at(steps: Sequence[str], syntax: str | None = None) -> str | None:
    """The business term of the element at `steps` (local names from the root), or of the
    nearest ancestor that has one; the longest listed path that ends there wins."""
    table = element_terms()[syntax or syntax_of_steps(steps)]
    for end in range(len(steps), 0, -1):
        for start in range(end):
            found = table.get(tuple(steps[start:end]))
            if found is not None:
                return found
    return None


def syntax_of_steps(steps: Sequence[str]) -> str:
    return "ubl" if steps and steps[0] in ("Invoice", "CreditNote") else "cii"


def first_term_label(terms: Iterable[str], language: Language = "en") -> str | None:
    """ "Invoice number (BT-1)" for the first known term, for messages."""
    for key in terms:
        found = term(key)
        if found is not None:
            return found.label(language)
    return None
