"""What OCR misreads in known shapes, put right on plain strings: IBANs by their checksum,
company legal forms by a small vocabulary (processors/ocr_iban.py, ocr_legal_forms.py)."""

from __future__ import annotations

import random
import re

import pytest

from processors.ocr import LANGUAGES, OcrWord, contradicts, reading_languages, repaired
from processors.ocr_bic import repair_bics
from processors.ocr_iban import AS_DIGIT, BBAN_FORMATS, repair_ibans
from processors.ocr_legal_forms import repair_legal_forms
from processors.text_values import IBAN_LENGTHS, iban_valid


@pytest.mark.parametrize(
    ("read", "right"),
    [
        ("IBAN FRO3 8384 8261 0303 9793 1567 353", "IBAN FR03 8384 8261 0303 9793 1567 353"),
        ("IBAN NLO2 ARRT 5717 1918 34", "IBAN NL02 ARRT 5717 1918 34"),
        ("IBAN DE89 37O4 OO44 O532 Ol3O OO", "IBAN DE89 3704 0044 0532 0130 00"),
        ("IBAN 6B29 NWBK 6016 1331 9268 19", "IBAN GB29 NWBK 6016 1331 9268 19"),
        ("IBAN GB29 NWBK 6OI6 I33I 9268 I9", "IBAN GB29 NWBK 6016 1331 9268 19"),
        ("IBAN: DE89370400440S32013000", "IBAN: DE89370400440532013000"),
    ],
)
def test_confusions_in_known_positions_are_repaired(read: str, right: str) -> None:
    assert repair_ibans(read) == right


@pytest.mark.parametrize(
    ("read", "right"),
    [
        ("IBAN DE 17 1117 1496 3728 3670 29", "IBAN DE17 1117 1496 3728 3670 29"),
        ("IBAN: FR18275863329986697 80723992", "IBAN: FR1827586332998669780723992"),
        ("IBAN: AT939102384066 180261", "IBAN: AT939102384066180261"),
    ],
)
def test_split_groups_are_printed_in_paper_or_electronic_format(read: str, right: str) -> None:
    assert repair_ibans(read) == right


def test_what_follows_on_the_line_keeps_its_column() -> None:
    read = "IBAN DE 89 3704 0044 0532 0130 00      -12,00"
    assert repair_ibans(read) == "IBAN DE89 3704 0044 0532 0130 00       -12,00"
    assert len(repair_ibans(read)) == len(read)


@pytest.mark.parametrize(
    "text",
    [
        "IBAN DE89 3704 0044 0532 0130 00",  # right already
        "IBAN DE89370400440532013000",
        "IBAN DE89 3704 0044 0532 0130 01",  # a digit misread as a digit: no repair known
        "IBAN XY89 3704 0044 0532 0130 00",  # no such country
        "IBAN DE89 3704 0044        0532 0130 00",  # a column gap, not one IBAN
        "Rechnung RE-2025-89715 Kundennr. 29464293",
        "Beste Grüße aus Deutschland",
    ],
)
def test_anything_else_is_left_alone(text: str) -> None:
    assert repair_ibans(text) == text


def test_a_reading_with_two_passing_candidates_is_left_alone() -> None:
    """A lower-case o where a letter or a digit may stand (a French account number) is
    O or 0: when two of the readings pass mod 97, none is chosen."""
    rng = random.Random(3)
    for _ in range(10_000):
        digits = f"{rng.randrange(10**21):021d}"
        readings = [f"{digits[:12]}{a}{digits[13:16]}{b}{digits[17:]}" for a in "O0" for b in "O0"]
        first = _with_check("FR", readings[0])
        others = [f"FR{first[2:4]}{bban}" for bban in readings[1:]]
        if any(iban_valid(other) for other in others):
            read = first[:16] + "o" + first[17:20] + "o" + first[21:]
            assert repair_ibans(f"IBAN {read}") == f"IBAN {read}"
            return
    pytest.fail("no ambiguous IBAN found")


def _with_check(country: str, bban: str) -> str:
    digits = "".join(str(int(char, 36)) for char in bban + country + "00")
    return f"{country}{98 - int(digits) % 97:02d}{bban}"


def _random_iban(rng: random.Random) -> str:
    country = rng.choice(sorted(BBAN_FORMATS))
    kinds = {"n": "0123456789", "a": "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}
    kinds["c"] = kinds["n"] + kinds["a"]
    bban = ""
    for count, kind in re.findall(r"(\d+)([nac])", BBAN_FORMATS[country]):
        bban += "".join(rng.choice(kinds[kind]) for _ in range(int(count)))
    iban = _with_check(country, bban)
    assert len(iban) == IBAN_LENGTHS[country]
    return iban


def _paper(iban: str) -> str:
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


def test_never_a_wrong_iban_from_one_misread_character() -> None:
    """Random IBANs of every known country, one character misread: as a look-alike
    letter (repaired when unique) or as another digit (left alone: mod 97 catches it)."""
    rng = random.Random(15)
    digit_of = {digit: letter for letter, digit in AS_DIGIT.items() if letter.isupper()}
    repaired_count = 0
    for _ in range(2000):
        iban = _random_iban(rng)
        position = rng.randrange(2, len(iban))
        char = iban[position]
        if char in digit_of and rng.random() < 0.7:
            wrong = digit_of[char]
        else:
            wrong = rng.choice([d for d in "0123456789" if d != char])
        read = _paper(iban[:position] + wrong + iban[position + 1 :])
        result = repair_ibans(f"IBAN {read}")
        assert result in (f"IBAN {_paper(iban)}", f"IBAN {read}"), (iban, read, result)
        repaired_count += result != f"IBAN {read}"
    assert repaired_count > 400


@pytest.mark.parametrize(
    ("read", "right"),
    [
        ("Amazon EU S.a.r.I.", "Amazon EU S.a.r.l."),
        ("Withholding tax Amazon EU S.a:r.l.", "Withholding tax Amazon EU S.a.r.l."),
        ("Stadtwerke Nordheim GrnbH", "Stadtwerke Nordheim GmbH"),
        ("Acme Supplies lnc.", "Acme Supplies Inc."),
        ("Northern Energy 1td", "Northern Energy 1td"),  # L is no confusion here
        ("Green Grocers pIc, London", "Green Grocers plc, London"),
        ("Rossi Costruzioni SrI", "Rossi Costruzioni Srl"),
        ("Eneco Energie B:V.", "Eneco Energie B.V."),
        ("Amazon EU S.a.r..", "Amazon EU S.a.r.l."),
        ("Rossi Costruzioni S.r..", "Rossi Costruzioni S.r.l."),
        ("Northern Energy Limted", "Northern Energy Limited"),
    ],
)
def test_misread_legal_forms_are_put_right(read: str, right: str) -> None:
    assert repair_legal_forms(read) == right


@pytest.mark.parametrize(
    "text",
    [
        "HARBOUR INSURANCE CO",
        "MUSTER GMBH",
        "Orange SA",
        "John Smith Sr",
        "Paul Smith Sr.",
        "Offene Posten: Miete, Nebenkosten.",
        "S.a.r.I. first on its line",
        "Miete Marz Objekt Lindenstr. 4",
        "Oil and Gas I 10,00",
        "Betrag 1.234,56 EUR",
    ],
)
def test_other_words_are_left_alone(text: str) -> None:
    assert repair_legal_forms(text) == text


def test_repaired_text_keeps_its_lines() -> None:
    text = "Amazon EU S.a.r.I.\n\nIBAN NLO2 ARRT 5717 1918 34\n   12,00"
    assert repaired(text) == "Amazon EU S.a.r.l.\n\nIBAN NL02 ARRT 5717 1918 34\n   12,00"


def _words(text: str) -> tuple[OcrWord, ...]:
    return tuple(OcrWord(word, 95.0, 0, 0, 10, 10, (1, 1, 1)) for word in text.split())


@pytest.mark.parametrize(
    ("text", "languages"),
    [
        ("Kontoauszug Nr. 3 Überweisung Miete Marz für die Wohnung bitte zahlen", ("deu",)),
        ("Statement of account: payment for the rent, please pay by the date", LANGUAGES),
        ("Rechnung Nr. 12 Betrag", LANGUAGES),  # too few words to judge
        ("Relevé de compte: virement reçu pour le paiement de la facture", ("fra",)),
        ("Rekeningafschrift: overschrijving van het bedrag voor de factuur", ("nld",)),
        ("Extracto de cuenta: transferencia del importe de la factura para", ("spa",)),
        ("Estratto conto: bonifico della fattura per questo importo", ("ita",)),
    ],
)
def test_a_page_is_read_with_its_language_model_alone(
    text: str, languages: tuple[str, ...]
) -> None:
    assert reading_languages(_words(text)) == languages


@pytest.mark.parametrize(
    ("text", "contradicts_it"),
    [
        ("Kontoauszug Überweisung Miete für die Wohnung", False),
        ("Lastschrift 12,50 Spotify 9,99 Lidl 45,10", False),  # nothing to judge by
        ("Payment for the rent, thank you", True),
        ("Paiement de la facture pour le mois", True),
        ("Rechnung vom 01.02. für die Kartenzahlung Online Shop", False),
    ],
)
def test_a_page_contradicts_its_german_document_when_it_reads_otherwise(
    text: str, contradicts_it: bool
) -> None:
    assert contradicts(_words(text), "deu") is contradicts_it


def test_a_model_that_is_not_installed_is_not_chosen() -> None:
    french = _words("Relevé de compte: virement reçu pour le paiement de la facture")
    assert reading_languages(french, frozenset({"deu", "eng"})) == LANGUAGES


@pytest.mark.parametrize(
    ("text", "language", "contradicts_it"),
    [
        ("Virement reçu pour le paiement de la facture", "fra", False),
        ("Überweisung für die Miete der Wohnung", "fra", True),
        ("Payment for the rent, thank you", "ita", True),
        ("Bonifico della fattura per questo importo", "ita", False),
    ],
)
def test_a_page_contradicts_its_document_language(
    text: str, language: str, contradicts_it: bool
) -> None:
    assert contradicts(_words(text), language) is contradicts_it


@pytest.mark.parametrize(
    ("read", "right"),
    [
        ("BIC: C0BADEFFXXX", "BIC: COBADEFFXXX"),
        ("SWIFT-BIC 8YLADEM1001", "SWIFT-BIC BYLADEM1001"),
        ("BIC 1NGDDEFF", "BIC INGDDEFF"),
        ("BIC: NWBKGB2L", "BIC: NWBKGB2L"),  # a digit in the location is valid
        ("BIC: C0BAXXFF", "BIC: C0BAXXFF"),  # no such country
        ("SWIFT transfer", "SWIFT transfer"),
        ("Code C0BADEFF", "Code C0BADEFF"),  # no label
    ],
)
def test_labelled_bics_with_digits_for_letters_are_put_right(read: str, right: str) -> None:
    assert repair_bics(read) == right
