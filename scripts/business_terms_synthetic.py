"""Entries for the findings the service itself reports (no rule artefact has them), and
the generic entry for an unknown rule id. `{term}` is filled at run time with the term of
the element the finding points at (processors/einvoice/business_terms.py)."""

from __future__ import annotations

from collections.abc import Mapping

GENERIC = "(generic)"
_ASK_EN = "Ask the sender for a corrected invoice."
_ASK_DE = "Bitten Sie den Rechnungssteller um eine korrigierte Rechnung."

SYNTHETIC: Mapping[str, Mapping[str, object]] = {
    GENERIC: {
        "terms": [],
        "en": f"A rule of the e-invoice standard is not met at {{term}}. {_ASK_EN}",
        "de": f"Eine Regel des E-Rechnungs-Standards ist bei {{term}} nicht erfüllt. {_ASK_DE}",
    },
    "XSD": {
        "terms": [],
        "en": (
            "The file does not follow the XML schema of its format at {term}: an element is "
            "missing, misplaced, misspelt or holds a value of the wrong kind. The sender's "
            f"software produced an invalid file. {_ASK_EN}"
        ),
        "de": (
            "Die Datei entspricht bei {term} nicht dem XML-Schema ihres Formats: ein "
            "Element fehlt, steht an falscher Stelle, ist falsch geschrieben oder hat einen "
            "Wert der falschen Art. Die Software des Rechnungsstellers hat eine ungültige "
            f"Datei erzeugt. {_ASK_DE}"
        ),
    },
    "(no id)": {
        "terms": [],
        "en": (
            "The file carries {term}, which its Factur-X/ZUGFeRD profile does not use. "
            "Receivers ignore it, so nothing needs doing for booking; the sender's software "
            "should leave it out or declare a profile that has it."
        ),
        "de": (
            "Die Datei enthält {term}, das ihr Factur-X/ZUGFeRD-Profil nicht vorsieht. "
            "Empfänger ignorieren es; für die Buchung ist nichts zu tun, die Software des "
            "Rechnungsstellers sollte es weglassen oder ein passendes Profil angeben."
        ),
    },
    "XML": {
        "terms": [],
        "en": f"The file is not readable XML (damaged, cut off or not XML at all). {_ASK_EN}",
        "de": (
            "Die Datei ist kein lesbares XML (beschädigt, abgeschnitten oder gar kein XML). "
            f"{_ASK_DE}"
        ),
    },
    "XML-ENCODING": {
        "terms": [],
        "en": (
            "The file's characters are not stored in the encoding it declares, so names "
            f"and addresses cannot be read reliably. {_ASK_EN}"
        ),
        "de": (
            "Die Zeichen der Datei sind nicht in der angegebenen Kodierung gespeichert; "
            f"Namen und Anschriften lassen sich nicht sicher lesen. {_ASK_DE}"
        ),
    },
    "XML-ROOT": {
        "terms": [],
        "en": (
            "The file uses an invoice format's namespace but is not an invoice or credit "
            f"note (for example an order or a despatch advice). {_ASK_EN}"
        ),
        "de": (
            "Die Datei verwendet den Namensraum eines Rechnungsformats, ist aber keine "
            f"Rechnung oder Gutschrift (etwa eine Bestellung oder ein Lieferschein). {_ASK_DE}"
        ),
    },
    "PROFILE-UNKNOWN": {
        "terms": ["BT-24"],
        "en": (
            "The Specification identifier (BT-24) is missing or names a profile we have no "
            "rules for, so the invoice cannot be checked. Ask the sender for an invoice in "
            "XRechnung, ZUGFeRD/Factur-X or plain EN 16931."
        ),
        "de": (
            "Die „Spezifikationskennung“ (BT-24) fehlt oder nennt ein Profil, für das keine "
            "Prüfregeln vorliegen; die Rechnung kann nicht geprüft werden. Bitten Sie den "
            "Rechnungssteller um eine Rechnung als XRechnung, ZUGFeRD/Factur-X oder nach "
            "EN 16931."
        ),
    },
    "PROFILE-NOTE": {
        "terms": ["BT-24"],
        "en": (
            "A note on how the Specification identifier (BT-24) was read and which rules "
            "were applied. Nothing to ask the sender for."
        ),
        "de": (
            "Hinweis, wie die „Spezifikationskennung“ (BT-24) gelesen und welche Regeln "
            "angewandt wurden. Beim Rechnungssteller ist nichts nachzufragen."
        ),
    },
    "STYLESHEET-ERROR": {
        "terms": [],
        "en": (
            "An official check could not be run on this invoice: a value it reads (often an "
            "amount or date) has an unexpected form, so the invoice could not be confirmed "
            f"as valid. {_ASK_EN}"
        ),
        "de": (
            "Eine amtliche Prüfregel ließ sich auf diese Rechnung nicht anwenden: ein "
            "gelesener Wert (oft ein Betrag oder Datum) hat eine unerwartete Form, daher "
            f"konnte die Rechnung nicht als gültig bestätigt werden. {_ASK_DE}"
        ),
    },
}
