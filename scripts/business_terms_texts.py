"""Wording for scripts/build_business_terms.py: the English and German explanation of a
rule, from its own text, by rule family and sentence pattern.

English: the rule text made plain (its id prefix dropped), then what to ask the sender for.
German: a translation by pattern ("An Invoice shall have a X (BT-n)" -> "Die Rechnung muss
„X“ (BT-n) enthalten", with the German term names of the semantic model); XRechnung's
rules are German already and get their English by pattern or by hand
(`business_terms_manual.py`). A rule no pattern fits gets its family's sentence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from business_terms_manual import MANUAL

from processors.einvoice.business_terms import Language, term

ASK_EN = "Ask the sender for a corrected invoice"
ASK_DE = "Bitten Sie den Rechnungssteller um eine korrigierte Rechnung"


def label(term_id: str, language: Language) -> str:
    found = term(term_id)
    if found is None:
        return term_id
    quoted = f"„{found.de}“" if language == "de" else found.en
    return f"{quoted} ({term_id})"


def labels(term_ids: Sequence[str], language: Language) -> str:
    names = [label(key, language) for key in term_ids]
    if len(names) <= 1:
        return "".join(names)
    joiner = " und " if language == "de" else " and "
    return ", ".join(names[:-1]) + joiner + names[-1]


def body_of(rule_id: str, text: str) -> str:
    """The rule text without its "[ID]-" or "[ID] - " prefix."""
    body = re.sub(r"^\s*\[[^\]]+\]\s*-?\s*", "", text).strip()
    return body or text.strip()


GERMAN_WORDS = re.compile(
    r"\b(muss|müssen|muessen|soll|sollen|sollte|darf|dürfen|übermittelt|enthalten sein|"
    r"Wenn|Das Element|Die Gruppe|Eine Rechnung)\b"
)


def is_german(body: str) -> bool:
    return GERMAN_WORDS.search(body) is not None


Wording = tuple[str, str]
Pattern = tuple[re.Pattern[str], Callable[[re.Match[str], Sequence[str]], Wording | None]]


def _must_have(match: re.Match[str], terms: Sequence[str]) -> Wording:
    wanted = match.group("term")
    return (
        f"The invoice lacks the {label(wanted, 'en')}. "
        f"Ask the sender to add it and send the invoice again.",
        f"In der Rechnung fehlt die Angabe {label(wanted, 'de')}. "
        f"Bitten Sie den Rechnungssteller, die Angabe zu ergänzen und die Rechnung "
        f"neu zu senden.",
    )


def _each_must_have(match: re.Match[str], terms: Sequence[str]) -> Wording:
    group, wanted = match.group("group"), match.group("term")
    return (
        f"Each {label(group, 'en')} must contain the {label(wanted, 'en')}; "
        f"at least one does not. Ask the sender to add it and send the invoice again.",
        f"Jede Angabe {label(group, 'de')} muss {label(wanted, 'de')} enthalten; "
        f"mindestens eine enthält es nicht. Bitten Sie den Rechnungssteller, die Angabe "
        f"zu ergänzen und die Rechnung neu zu senden.",
    )


def _decimals(match: re.Match[str], terms: Sequence[str]) -> Wording:
    wanted = match.group("term")
    return (
        f"The {label(wanted, 'en')} has more than two decimal places. "
        f"Ask the sender to round it to whole cents.",
        f"{label(wanted, 'de')} hat mehr als zwei Nachkommastellen. "
        f"Bitten Sie den Rechnungssteller, den Betrag auf volle Cent zu runden.",
    )


def _scheme_identifier(match: re.Match[str], terms: Sequence[str]) -> Wording:
    wanted = match.group("term")
    return (
        f"The {label(wanted, 'en')} does not say which scheme it belongs to "
        f"(its scheme identifier is missing). Ask the sender to add the scheme.",
        f"Bei {label(wanted, 'de')} fehlt die Angabe, zu welchem Schema die Kennung gehört "
        f"(Scheme identifier). Bitten Sie den Rechnungssteller, sie zu ergänzen.",
    )


def _german_must_be_sent(match: re.Match[str], terms: Sequence[str]) -> Wording:
    wanted = match.group("term")
    return (
        f"XRechnung requires the {label(wanted, 'en')}, and the invoice lacks it. "
        f"Ask the sender to add it and send the invoice again.",
        f"XRechnung verlangt {label(wanted, 'de')}; die Angabe fehlt. "
        f"Bitten Sie den Rechnungssteller, sie zu ergänzen und die Rechnung neu zu senden.",
    )


def _german_must_be_sent_with(match: re.Match[str], terms: Sequence[str]) -> Wording:
    wanted, group = match.group("term"), match.group("group")
    return (
        f"XRechnung requires the {label(wanted, 'en')} whenever the invoice has a "
        f"{label(group, 'en')}, and it is missing. Ask the sender to add it.",
        f"XRechnung verlangt {label(wanted, 'de')}, sobald {label(group, 'de')} "
        f"angegeben ist; die Angabe fehlt. Bitten Sie den Rechnungssteller, sie zu ergänzen.",
    )


def _conditional_presence(match: re.Match[str], terms: Sequence[str]) -> Wording | None:
    if not terms:
        return None
    after = re.findall(r"\((B[TG]-[\w-]+)\)", match.group("after"))
    before = re.findall(r"\((B[TG]-[\w-]+)\)", match.group("before"))
    if match.group("verb").lower().startswith("be "):
        # "If Y, X shall be provided": the term nearest before the verb is wanted
        wanted = before[-1:] or after[:1] or list(terms[:1])
    else:
        wanted = after[:1] or before[-1:] or list(terms[:1])
    others = [key for key in terms if key not in wanted]
    context_en = f" (this rule also concerns {labels(others, 'en')})" if others else ""
    context_de = f" (die Regel betrifft auch {labels(others, 'de')})" if others else ""
    return (
        f"{match.group(0).rstrip('.')}. The {labels(wanted, 'en')} is missing{context_en}. "
        f"Ask the sender to add it and send the invoice again.",
        f"In der Rechnung fehlt die Angabe {labels(wanted, 'de')}, die hier vorgeschrieben ist"
        f"{context_de}. Bitten Sie den Rechnungssteller, die Angabe zu ergänzen und die "
        f"Rechnung neu zu senden.",
    )


def _not_negative(match: re.Match[str], terms: Sequence[str]) -> Wording:
    wanted = match.group("term")
    return (
        f"The {label(wanted, 'en')} is negative, which the standard does not allow. "
        f"{ASK_EN}; a reduction belongs in an allowance.",
        f"{label(wanted, 'de')} ist negativ; das lässt der Standard nicht zu. "
        f"{ASK_DE}; eine Minderung gehört in einen Nachlass.",
    )


def _date_order(match: re.Match[str], terms: Sequence[str]) -> Wording:
    return (
        f"The end date {label(terms[-1], 'en')} is before the start date "
        f"{label(terms[0], 'en')}. {ASK_EN} with the right period.",
        f"Das Enddatum {label(terms[-1], 'de')} liegt vor dem Anfangsdatum "
        f"{label(terms[0], 'de')}. {ASK_DE} mit dem richtigen Zeitraum.",
    )


_ID = r"\((?P<term>B[TG]-\d+)\)"
PATTERNS: tuple[Pattern, ...] = (
    (
        re.compile(
            r"^(?:An|The) (?:Invoice|invoice|Credit note) shall (?:have|contain) "
            r"(?:an? |the )?[^()]+? " + _ID + r"\.?$"
        ),
        _must_have,
    ),
    (
        re.compile(
            r"^(?:Each|An?|The) [^()]+? \((?P<group>B[GT]-\d+)\) shall (?:have|contain|be "
            r"defined through|be categorized with) (?:an? |the )?[^()]+? " + _ID + r"\.?$"
        ),
        _each_must_have,
    ),
    (
        re.compile(r"^The allowed maximum number of decimals for the [^()]+ " + _ID + r" is 2\.?$"),
        _decimals,
    ),
    (
        re.compile(r"^The [^()]+ " + _ID + r" shall have a Scheme identifier\.?$"),
        _scheme_identifier,
    ),
    (
        re.compile(r"^The [^()]+ " + _ID + r" shall NOT be negative\.?$"),
        _not_negative,
    ),
    (
        re.compile(r"^If both .+ shall be later or equal to the .+\.?$"),
        _date_order,
    ),
    (
        re.compile(
            r"^(?P<before>.*?)\b(?i:shall|must|should) "
            r"(?P<verb>(?i:have|contain|specify|be provided|be present|be given|be stated))\b"
            r"(?P<after>.*)$"
        ),
        _conditional_presence,
    ),
    (
        re.compile(r'^Das Element "[^"]+" ' + _ID + r" muss übermittelt werden\.$"),
        _german_must_be_sent,
    ),
    (
        re.compile(
            r'^Das Element "[^"]+" ' + _ID + r" muss übermittelt werden, wenn die Gruppe "
            r'"[^"]+" \((?P<group>BG-\d+)\) übermittelt wird\.$'
        ),
        _german_must_be_sent_with,
    ),
)


def wording(rule_id: str, text: str, terms: Sequence[str], element: str | None) -> Wording:
    """(English, German) explanation of what is wrong and what to ask the sender for."""
    if rule_id in MANUAL:
        return MANUAL[rule_id]
    body = body_of(rule_id, text)
    if _VAT_FAMILY.match(rule_id):
        return family_wording(rule_id, body, terms)
    for pattern, build in PATTERNS:
        match = pattern.match(body)
        built = build(match, terms) if match else None
        if built is not None:
            return built
    syntax = syntax_wording(body, element, terms)
    if syntax is not None:
        return syntax
    return family_wording(rule_id, body, terms)


# --- syntax rules: elements the semantic model does not name -------------------------------

_SHOULD_NOT = re.compile(
    r"^(?:A UBL invoice (?:should|shall) not include (?:the |an? )?(?P<a>[\w ]+?)"
    r"|(?P<b>\w+(?: \w+){0,3}?) ?(?:attribute )?(?:should not be present|shall not be used)"
    r"|Element '(?P<c>[^']+)' is marked as not used in the given context"
    r"|Attribute '?(?P<d>@?[^' ]+)'? marked as not used in the given context)\.?$"
)
_COUNT = re.compile(
    r"^(?:Element (?:variant )?'(?P<a>[^']+)' (?:must occur exactly|may occur at maximum"
    r"|must occur at least) \d+ times?"
    r"|(?P<b>[\w ]+?) (?:must|should|shall) (?:exist|occur) (?:exactly|maximum|at most) once"
    r"(?: in (?:the document|\w+))?"
    r"|Only one (?P<c>[\w -]+?) (?:element )?is allowed(?: on an invoice| with .+)?)"
    r"(?:, if .+)?\.?$"
)
_VALUE_NOT_ALLOWED = re.compile(r"^Value of '(?P<a>[^']+)' is not allowed\.?$")
_ATTRIBUTE_REQUIRED = re.compile(r"^Attribute '(?P<a>[^']+)' is required in this context\.?$")


def _about(element: str, terms: Sequence[str], language: Language) -> str:
    """ "'ram:ID' (Invoice number (BT-1))", or just the element without a known term."""
    known = [key for key in terms if term(key) is not None]
    quoted = f"„{element}“" if language == "de" else f"'{element}'"
    return f"{quoted} ({labels(known[:1], language)})" if known else quoted


def syntax_wording(body: str, element: str | None, terms: Sequence[str]) -> Wording | None:
    for pattern, build in (
        (_SHOULD_NOT, _not_used),
        (_COUNT, _count),
        (_VALUE_NOT_ALLOWED, _value_not_allowed),
        (_ATTRIBUTE_REQUIRED, _attribute_required),
    ):
        match = pattern.match(body)
        if match:
            name = next(group for group in match.groups() if group)
            return build(name.strip(), terms)
    return None


def _not_used(name: str, terms: Sequence[str]) -> Wording:
    return (
        f"The file carries {_about(name, terms, 'en')}, which this profile of EN 16931 "
        f"does not use. Receivers ignore it, so nothing needs doing for booking; the "
        f"sender's software should leave it out.",
        f"Die Datei enthält {_about(name, terms, 'de')}, das dieses Profil der EN 16931 "
        f"nicht vorsieht. Empfänger ignorieren es; für die Buchung ist nichts zu tun, die "
        f"Software des Rechnungsstellers sollte es weglassen.",
    )


def _count(name: str, terms: Sequence[str]) -> Wording:
    return (
        f"{_about(name, terms, 'en')} is missing or given more often than allowed. "
        f"{ASK_EN} that gives it exactly as often as the standard allows.",
        f"{_about(name, terms, 'de')} fehlt oder ist öfter angegeben als erlaubt. "
        f"{ASK_DE}, in der die Angabe so oft vorkommt, wie der Standard es zulässt.",
    )


def _value_not_allowed(name: str, terms: Sequence[str]) -> Wording:
    return (
        f"The value of {_about(name, terms, 'en')} is not one this profile allows. "
        f"{ASK_EN} with an allowed code.",
        f"Der Wert von {_about(name, terms, 'de')} ist in diesem Profil nicht zulässig. "
        f"{ASK_DE} mit einem zulässigen Code.",
    )


def _attribute_required(name: str, terms: Sequence[str]) -> Wording:
    return (
        f"The attribute '{name}' is missing at {labels(terms[:1], 'en') or 'this element'}. "
        f"{ASK_EN} that adds it.",
        f"Das Attribut „{name}“ fehlt bei {labels(terms[:1], 'de') or 'diesem Element'}. "
        f"{ASK_DE}, die es ergänzt.",
    )


# --- rule families ---------------------------------------------------------------------------

VAT_CATEGORIES: Mapping[str, tuple[str, str]] = {
    "S": ("standard rated", "Regelsteuersatz"),
    "Z": ("zero rated", "Nullsatz"),
    "E": ("exempt from VAT", "steuerbefreit"),
    "AE": ("reverse charge", "Umkehr der Steuerschuldnerschaft (Reverse Charge)"),
    "IC": ("intra-community supply", "innergemeinschaftliche Lieferung"),
    "G": ("export outside the EU", "Ausfuhr außerhalb der EU"),
    "O": ("not subject to VAT", "nicht steuerbar"),
    "AF": ("IGIC (Canary Islands)", "IGIC (Kanarische Inseln)"),
    "AG": ("IPSI (Ceuta and Melilla)", "IPSI (Ceuta und Melilla)"),
    "B": ("split payment", "Split Payment"),
}
_VAT_FAMILY = re.compile(r"^BR-(?:FXEXT-)?(?P<category>S|Z|E|AE|IC|G|O|AF|AG|B)-?\d")


def family_wording(rule_id: str, body: str, terms: Sequence[str]) -> Wording:
    """The rule family's sentence, naming the terms, with the rule text kept in English."""
    en_terms, de_terms = labels(terms, "en"), labels(terms, "de")
    about_en = f" ({en_terms})" if en_terms else ""
    about_de = f" ({de_terms})" if de_terms else ""
    plain = body.rstrip(".") + "."
    vat = _VAT_FAMILY.match(rule_id)
    if vat:
        en_name, de_name = VAT_CATEGORIES[vat.group("category")]
        return (
            f"The VAT details for the category '{en_name}' do not fit together: {plain} "
            f"Ask the sender to check the VAT category and the VAT breakdown and send a "
            f"corrected invoice.",
            f"Die Umsatzsteuerangaben zur Kategorie „{de_name}“ passen nicht zusammen"
            f"{about_de}. Bitten Sie den Rechnungssteller, Steuerkategorie und "
            f"Steueraufschlüsselung zu prüfen und eine korrigierte Rechnung zu senden.",
        )
    if rule_id.startswith(("BR-CO", "BR-FXEXT-CO")) or "Absolute Value" in body:
        return (
            f"The amounts do not add up: {plain} {ASK_EN} whose amounts add up.",
            f"Die Beträge passen rechnerisch nicht zusammen{about_de}. "
            f"{ASK_DE}, deren Beträge aufgehen.",
        )
    if rule_id.startswith("BR-CL") or "code list" in body.lower() or "coded" in body.lower():
        return (
            f"A code is not in the list the standard prescribes: {plain} "
            f"{ASK_EN} that uses a code from the list.",
            f"Ein Code steht nicht in der vorgeschriebenen Codeliste{about_de}. "
            f"{ASK_DE}, die einen Code aus der Liste verwendet.",
        )
    if is_german(body):
        return (
            f"XRechnung rule {rule_id} is not met{about_en}: see the German text. {ASK_EN}.",
            f"{plain} {ASK_DE}.",
        )
    return (
        f"{plain} {ASK_EN}.",
        f"Die Regel {rule_id} ist nicht erfüllt{about_de}; sie lautet (englisch): "
        f"„{plain}“ {ASK_DE}.",
    )
