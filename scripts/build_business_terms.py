"""Write processors/einvoice/data/business_terms.json from the pinned rule artefacts.

For every rule id the installed schematron stylesheets can report (KoSIT's EN 16931 and
XRechnung, Factur-X 1.09's profiles; `processors/einvoice/rule_inventory.py`):

- its business terms: the BT/BG ids its own text names ("[BR-01]-An Invoice shall have a
  Specification identifier (BT-24)."); else the term names of the semantic model its text
  uses ("Seller name shall occur maximum once"); else the term of the element it checks,
  from the rule's context and test through `data/element_terms.json`;
- an explanation in English and German of what is wrong and what to ask the sender for
  (`business_terms_texts.py`, `business_terms_manual.py`).

A Factur-X rule that restates a rule with its own entry ("[BR-45]-Each VAT breakdown ...")
points to it (`same_as`). The file is generated once per artefact upgrade, reviewed and
checked in; the service only reads it (`processors/einvoice/business_terms.py`).

Usage: .venv/bin/python scripts/build_business_terms.py [RULES_DIR]
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from business_terms_manual import MANUAL_TERMS
from business_terms_synthetic import SYNTHETIC
from business_terms_texts import wording

from processors.einvoice import rules
from processors.einvoice.business_terms import DATA_DIR, semantic_model, steps_of, term_at
from processors.einvoice.rule_inventory import (
    NO_RULE_ID,
    RuleAssert,
    bracketed_id,
    rule_asserts,
)

TARGET = DATA_DIR / "business_terms.json"
TERM_ID = re.compile(r"\b(B[TG]-(?:[Xx]-|DEX-)?\d+(?:-\d+)?)\b")
_TEST_PATH = re.compile(r"\b[a-z]+:[A-Za-z]\w*(?:/[a-z]+:[A-Za-z]\w*)*")
_QUOTED_ELEMENT = re.compile(r"(?:Element|Value of) '(?:[a-z]+:)?([A-Za-z]\w*)'")


def terms_named(texts: Iterable[str]) -> list[str]:
    """The BT/BG ids the texts name, in order, as the semantic model spells them."""
    known = semantic_model()
    found: list[str] = []
    for text in texts:
        for raw in TERM_ID.findall(text):
            key = re.sub(r"^BT-x-", "BT-X-", raw)
            if key not in known:
                key = re.sub(r"-\d+$", "", key)  # BT-29-1 (a scheme id) belongs to BT-29
            if key in known and key not in found:
                found.append(key)
    return found


def terms_by_name(text: str) -> list[str]:
    """Terms whose English name the text uses, longest names first."""
    lowered = text.lower()
    found: list[tuple[int, str]] = []
    for key, named in sorted(semantic_model().items(), key=lambda item: -len(item[1].en)):
        pattern = r"\b" + re.escape(named.en.lower()) + r"\b"
        match = re.search(pattern, lowered)
        if match and key.startswith("BT-"):
            found.append((match.start(), key))
            lowered = lowered[: match.start()] + "#" * len(named.en) + lowered[match.end() :]
    return [key for _, key in sorted(found)]


def checked_steps(rule: RuleAssert) -> tuple[str, ...]:
    """The element a rule checks: its context, then the element its text or test names."""
    quoted = _QUOTED_ELEMENT.search(rule.text)
    if quoted:
        below: tuple[str, ...] = (quoted.group(1),)
    else:
        path = _TEST_PATH.search(rule.test)
        below = steps_of(path.group(0)) if path else ()
    return steps_of(rule.context) + below


def checked_element(rule: RuleAssert) -> str | None:
    steps = checked_steps(rule)
    return steps[-1] if steps else None


def terms_of(group: Sequence[RuleAssert]) -> list[str]:
    if group[0].rule_id in MANUAL_TERMS:
        return list(MANUAL_TERMS[group[0].rule_id])
    texts = [rule.text for rule in group]
    found = terms_named(texts) or terms_by_name(texts[0])
    if found:
        return found
    for rule in group:
        at = term_at(checked_steps(rule), rule.syntax)
        if at is not None:
            return [at]
    return []


def entry_of(rule_id: str, group: Sequence[RuleAssert], ids: set[str]) -> dict[str, object]:
    first = group[0]
    restated = bracketed_id(first.text)
    if restated and restated != rule_id and restated in ids:
        return {"same_as": restated}
    terms = terms_of(group)
    en, de = wording(restated or rule_id, first.text, terms, checked_element(first))
    return {"terms": missing_first(terms, en), "en": en, "de": de}


_MISSING = re.compile(r"lacks the [^()]*\((B[TG]-[\w-]+)\)|\((B[TG]-[\w-]+)\) is missing")


def missing_first(terms: list[str], explanation: str) -> list[str]:
    """The term the explanation says is missing leads: findings are grouped by it."""
    match = _MISSING.search(explanation)
    wanted = (match.group(1) or match.group(2)) if match else None
    if wanted not in terms:
        return terms
    return [wanted, *(key for key in terms if key != wanted)]


def grouped(asserts: Iterable[RuleAssert]) -> dict[str, list[RuleAssert]]:
    groups: dict[str, list[RuleAssert]] = {}
    for rule in asserts:
        groups.setdefault(rule.rule_id, []).append(rule)
    return groups


def artefact_stamps(root: Path) -> dict[str, str]:
    stamps = {}
    for stamp in sorted(root.glob("*/.installed.json")):
        recorded = json.loads(stamp.read_text(encoding="utf-8"))
        stamps[stamp.parent.name] = f"{recorded['requirement']} sha256:{recorded['wheel_sha256']}"
    return stamps


def build(root: Path | None = None) -> dict[str, object]:
    groups = grouped(rule_asserts(root))
    groups.pop(NO_RULE_ID, None)  # Factur-X's id-less "not used" asserts: SYNTHETIC
    ids = set(groups)
    entries: dict[str, object] = {key: dict(value) for key, value in SYNTHETIC.items()}
    for rule_id in sorted(groups):
        entries[rule_id] = entry_of(rule_id, groups[rule_id], ids)
    return {
        "about": (
            "Per rule id of the pinned rule artefacts: the EN 16931 business terms it "
            "concerns and what it means, in English and German. Generated by "
            "scripts/build_business_terms.py from the artefacts' rule texts; reviewed."
        ),
        "artefacts": artefact_stamps(rules.rules_dir(root)),
        "rules": entries,
    }


def main(argv: list[str]) -> int:
    root = Path(argv[1]) if len(argv) > 1 else None
    data = build(root)
    TARGET.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    rules_count = len(data["rules"])  # type: ignore[arg-type]
    print(f"{TARGET}: {rules_count} rule ids")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
