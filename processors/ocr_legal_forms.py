"""Company legal forms in OCR text put right: `S.a.r.I.` or `S.a:r.l.` -> `S.a.r.l.`.

Legal forms are a small closed vocabulary printed after most company names, and their
short, dotted spellings are what OCR gets wrong most in names: a lower-case l read as a
capital I or a 1, a dot read as a colon, `rn` for `m`, a thin l or i lost between dots
(`S.a.r..`). A word after another word on the line that is no legal form, but reads as
exactly one of them once these confusions are folded together (or, in a word of
`MIN_LOST_LETTER_LENGTH` characters or more, with one thin letter lost), is replaced by
it. Case is never changed (`GMBH` and `SARL` are printed that way), and a word that is a
legal form in any case stays as it is.
"""

from __future__ import annotations

import re
from collections import defaultdict

LEGAL_FORMS = (
    # German-speaking countries
    "GmbH", "AG", "KG", "OHG", "UG", "GbR", "e.K.", "e.V.", "eG", "mbH", "KGaA", "SE",
    # English-speaking countries
    "Ltd", "Ltd.", "Limited", "plc", "PLC", "Inc", "Inc.", "LLC", "LLP", "LP", "Co", "Co.",
    "Corp", "Corp.", "Pty", "Pte",
    # Dutch and Belgian
    "BV", "B.V.", "NV", "N.V.", "VOF", "V.O.F.", "BVBA", "CV", "C.V.",
    # French
    "SA", "S.A.", "SARL", "S.A.R.L.", "S.a.r.l.", "S.à r.l.", "SAS", "S.A.S.", "SASU",
    "EURL", "SNC", "SCI",
    # Spanish
    "SL", "S.L.", "SLU", "S.L.U.", "S.A.U.",
    # Italian
    "SpA", "S.p.A.", "Srl", "S.r.l.", "Snc", "S.n.c.", "Sas", "S.a.s.",
    # Nordic
    "AB", "A/S", "ApS", "ASA", "Oy", "Oyj",
)  # fmt: skip
MIN_LOST_LETTER_LENGTH = 5
"""Shorter words with a letter lost are too often other words (`Sr` is no `Srl`)."""
_THIN = "liI"
_CONFUSED = str.maketrans({"I": "l", "1": "l", "|": "l", "0": "O", ":": ".", ",": ".", ";": "."})
_WORD = re.compile(r"\S+")
_TRAILING = re.compile(r"[,;:)]+$")


def _folded(word: str) -> str:
    """The word with the characters OCR confuses made one."""
    return word.replace("rn", "m").translate(_CONFUSED)


def _by_folding() -> dict[str, str]:
    spellings: dict[str, set[str]] = defaultdict(set)
    for form in LEGAL_FORMS:
        spellings[_folded(form)].add(form)
    return {folded: forms.pop() for folded, forms in spellings.items() if len(forms) == 1}


def _by_lost_letter(taken: set[str]) -> dict[str, str]:
    spellings: dict[str, set[str]] = defaultdict(set)
    for form in LEGAL_FORMS:
        for index, char in enumerate(form):
            shorter = form[:index] + form[index + 1 :]
            if char in _THIN and len(shorter) >= MIN_LOST_LETTER_LENGTH:
                spellings[_folded(shorter)].add(form)
    return {
        folded: forms.pop()
        for folded, forms in spellings.items()
        if len(forms) == 1 and folded not in taken
    }


_BY_FOLDING = _by_folding()
_BY_LOST_LETTER = _by_lost_letter(set(_BY_FOLDING))
_KNOWN = {form.lower() for form in LEGAL_FORMS}


def repair_legal_forms(line: str) -> str:
    """The line with misread legal forms put right (same length or shorter)."""
    return _WORD.sub(lambda match: _repaired(line, match), line)


def _repaired(line: str, match: re.Match[str]) -> str:
    word = match.group()
    if not line[: match.start()].strip():
        return word  # a legal form follows a name
    body = _TRAILING.sub("", word)
    if not body or body.lower() in _KNOWN:
        return word
    folded = _folded(body)
    form = _BY_FOLDING.get(folded) or _BY_LOST_LETTER.get(folded)
    return word if form is None else form + word[len(body) :]
