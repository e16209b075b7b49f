"""Issue 40, class 6: French, Dutch, Spanish and Italian scans are read with their own
Tesseract model once the first reading (German and English models) has told their
language, so their accents are kept (docs/ocr.md, 7.)."""

from __future__ import annotations

from pathlib import Path

import pytest

from processors.ocr import installed_models
from processors.pdf_text import read_pdf_text
from testkit.language_scans import LETTERS, accented_words, language_letter
from tests.processors.scans import GRADE, scan
from tests.processors.test_ocr import PASS_LOGGING_TESSERACT, needs_tesseract

needs_models = pytest.mark.skipif(
    not set(LETTERS) <= installed_models(),
    reason="tesseract-ocr-fra, -nld, -spa, -ita (make test installs them)",
)


@needs_tesseract
@needs_models
@pytest.mark.parametrize("language", LETTERS)
def test_a_scan_is_read_with_its_language_model(tmp_path: Path, language: str) -> None:
    log, command = tmp_path / "passes.log", tmp_path / "tesseract"
    command.write_text(PASS_LOGGING_TESSERACT.format(log=log))
    command.chmod(0o755)
    letter = language_letter(language)
    text = read_pdf_text(scan(letter, GRADE["g1-office"]), str(command), 5)
    assert log.read_text().split()[:2] == ["deu+eng", language]
    read = "\n".join(text.plain)
    accented = accented_words(letter)
    lost = [word for word in accented if word not in read]
    assert len(accented) >= 8 and not lost
