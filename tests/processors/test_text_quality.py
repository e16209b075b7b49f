"""`reads_as_text`, the early-deciding form of `measure` that picks text layer or OCR."""

from __future__ import annotations

import pytest

from processors.text_quality import measure, reads_as_text

TEXTS = [
    "",
    "- . , ;",
    "Rechnung Nr. 2024-17 vom 03.02.2024 Gesamtbetrag 119,00 EUR",
    "xq zz vv kk qq Rechnung",
    "Rechnung xqzvb Betrag kkrtzq",
    "Rechnung Rechnung xqzvbk",
    "tHeSe aRe nOt wOrDs bUt tHiS Is",
    "§$% &/( )=? Invoice total 12.50",
]


@pytest.mark.parametrize("share", [0.3, 0.5, 0.7])
@pytest.mark.parametrize("text", TEXTS)
def test_reads_as_text_agrees_with_measure(text: str, share: float) -> None:
    quality = measure(text)
    assert reads_as_text(text, share) is (quality.word_like > 0 and quality.share >= share)


def test_a_long_text_layer_of_words_reads_as_text() -> None:
    assert reads_as_text("Gesamtbetrag der Rechnung " * 500 + "xq zz", 0.5)
