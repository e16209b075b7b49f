"""Is a piece of text readable? The share of word-like tokens, for text layers and OCR.

A text layer can be present and still be useless: fonts without a Unicode mapping
give glyph ids or symbols instead of letters (obfuscated or broken PDFs), and OCR of a
bad scan gives fragments (`l|`, `~-`, `rnnn`). Both look different from real text,
which is mostly words with vowels, numbers, dates, amounts and codes.

A token (whitespace-separated, surrounding punctuation stripped) is **word-like** when
it is
- a word: letters (hyphens, apostrophes and inner dots allowed, `z.B.`, `USt-IdNr`),
  at least two of them, at least one vowel, no run of more than five consonants and at
  most two changes between lower and upper case inside each hyphenated part
  (`USt-IdNr` yes, `tHeSe` no); or
- a number or code: contains a digit, uses only letters, digits and `.,:/-'%+#`
  separators (`1.234,56`, `09.01.2015`, `RE-2024-0815`, `DE123456789`), and has no
  more letters than digits unless it starts with letters followed by digits only.

An all-capitals token of two to five letters is an acronym (`XML`, `GMBH`), and a few
business abbreviations have no vowel (`Nr.`, `GmbH`, `zzgl.`, `Ltd`). A token
that is neither is split at joints (`_`, `@`, `:`, `/`, a lower-to-upper case change)
and counts as word-like when at least half of its parts do (two-letter parts count as
noise): text layers glue words
(`DatenvonZUGFeRD-Rechnungen`, `Währung:EUR`, `SELLER_NAME`).

Single characters other than digits (`&`, `-`, `|`, `€`, `a`) are neutral: real text
has them as separators and so does noise, so they count neither way.

Word-like is not yet language: a font that maps glyphs to the wrong letters gives words
with vowels that no language has ("hontoauszug"). `reads_as_language` judges that from
the share of dictionary words and the letter-bigram statistics of German and English
(docs/pdf_text.md, "Scrambled text layers").
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from processors.common_words import COMMON_WORDS
from processors.language_data import BIGRAM_TENTHS, SYMBOLS

_STRIP = "()[]{}<>.,;:!?\"'«»„“”*•·_\u201a\u2018\u2019"
_VOWELS = set("aeiouyäöüáéíóúàèìòùâêîôûåæøœãõëïÿAEIOUYÄÖÜÁÉÍÓÚÀÈÌÒÙÂÊÎÔÛÅÆØŒÃÕËÏŸ")
_WORD = re.compile("[^\\W\\d_]+(?:[-'\u2019.][^\\W\\d_]+)*\\.?")
_CONSONANT_RUN = re.compile(r"[^\W\d_aeiouyäöüáéíóúàèìòùâêîôûåæøœãõëïÿ]{6,}", re.IGNORECASE)
_CODE = re.compile(r"[+\-\u2212]?[\w.,:/\-'%+#€$£]*\d[\w.,:/\-'%+#€$£]*")
_PREFIXED_NUMBER = re.compile(r"[^\W\d_]{1,6}[\-/.#:]?\d[\d\-/.]*")
_ACRONYM = re.compile(r"[A-ZÄÖÜ]{2,5}")
# Business abbreviations without a vowel.
_ABBREVIATIONS = frozenset(
    [
        "nr",
        "str",
        "gmbh",
        "mbh",
        "zzgl",
        "bzgl",
        "ggf",
        "kfz",
        "pkw",
        "hr",
        "frl",
        "dr",
        "mr",
        "mrs",
        "ms",
        "ltd",
        "pty",
        "st",
        "jr",
        "sr",
        "tsd",
    ]
)
# Text layers glue words ("DatenvonZUGFeRD-Rechnungen", "Währung:EUR", "SELLER_NAME"):
# such a token is judged by its parts.
_JOINT = re.compile(r"[_@/:=;,()\[\]#+|]+|(?<=[a-zäöüß])(?=[A-ZÄÖÜ])")


@dataclass(frozen=True, slots=True)
class TextQuality:
    tokens: int
    """Tokens counted (single non-digit characters are not)."""
    word_like: int

    @property
    def share(self) -> float:
        return self.word_like / self.tokens if self.tokens else 0.0


def measure(text: str) -> TextQuality:
    tokens = 0
    good = 0
    for raw, count in Counter(text.split()).items():
        verdict = token_verdict(raw)
        if verdict is None:
            continue
        tokens += count
        good += verdict * count
    return TextQuality(tokens, good)


def reads_as_text(text: str, minimum_share: float) -> bool:
    """`measure(text)` finds word-like tokens, at least `minimum_share` of those counted:
    decided as soon as the tokens not yet judged (the most frequent are judged first)
    could no longer change the answer."""
    counts = Counter(text.split()).most_common()
    left = sum(count for _, count in counts)
    good = bad = 0
    for raw, count in counts:
        if good and good >= minimum_share * (good + bad + left):
            return True
        if good + left < minimum_share * (good + bad + left):
            return False
        verdict = token_verdict(raw)
        left -= count
        if verdict is not None:
            good, bad = (good + count, bad) if verdict else (good, bad + count)
    return good > 0 and good >= minimum_share * (good + bad)


def token_verdict(raw: str) -> bool | None:
    """True for a word-like token, False for noise, None for a neutral single character."""
    token = raw.strip(_STRIP)
    if not token:
        return None
    if len(token) == 1:
        return True if token.isdigit() else None
    if _is_code(token) or _is_word(token):
        return True
    parts = [part for part in _JOINT.split(token) if part and part.strip(_STRIP)]
    if len(parts) < 2:
        return False
    verdicts = [_part_verdict(part) for part in parts]
    counted = [verdict for verdict in verdicts if verdict is not None]
    return bool(counted) and sum(counted) * 2 >= len(counted)


def _part_verdict(part: str) -> bool | None:
    """Glued words have parts of some length; two letters between joints are noise
    (`tHeSe` is no glued word)."""
    if len(part.strip(_STRIP)) == 2 and not part.isdigit():
        return False
    return token_verdict(part)


def _is_word(token: str) -> bool:
    if _ACRONYM.fullmatch(token) or token.lower().rstrip(".") in _ABBREVIATIONS:
        return True
    if not _WORD.fullmatch(token):
        return False
    letters = [char for char in token if char.isalpha()]
    if len(letters) < 2 or not any(char in _VOWELS for char in letters):
        return False
    if _CONSONANT_RUN.search(token):
        return False
    return all(_case_changes(part) <= 2 for part in re.split("[-'\u2019.]", token))


def _case_changes(part: str) -> int:
    """Changes between lower and upper case after the first letter (`McDonald` 2)."""
    letters = [char for char in part if char.isalpha()]
    return sum(1 for a, b in itertools.pairwise(letters[1:]) if a.islower() != b.islower())


def _is_code(token: str) -> bool:
    if not any(char.isdigit() for char in token) or not _CODE.fullmatch(token):
        return False
    letters = sum(char.isalpha() for char in token)
    digits = sum(char.isdigit() for char in token)
    return letters <= digits or bool(_PREFIXED_NUMBER.fullmatch(token))


# --- language: does a text layer read as German or English? -----------------------------

ALPHABET = "abcdefghijklmnopqrstuvwxyzäöüß?"
"""What `fold` maps letters to: `?` stands for any letter outside German and English."""
_KEPT = frozenset(ALPHABET) - {"?"}
_LETTER_RUN = re.compile(r"[^\W\d_]{3,}")
_BIGRAM_BITS = {
    first + SYMBOLS[index]: tenths / 10
    for first, row in BIGRAM_TENTHS.items()
    for index, tenths in enumerate(row)
}
MIN_LANGUAGE_WORDS = 20
KNOWN_WEIGHT = 2.0
SCRAMBLED_SCORE = 4.3


def fold(word: str) -> str:
    """Lower case, accents dropped (`é` -> `e`), umlauts and ß kept, any other letter
    `?`."""
    return "".join(_fold_char(char) for char in word.lower())


@functools.cache
def _fold_char(char: str) -> str:
    if char in _KEPT:
        return char
    base = unicodedata.normalize("NFKD", char)[:1]
    return base if base in _KEPT else "?"


@dataclass(frozen=True, slots=True)
class LanguageEvidence:
    words: int
    """Runs of three letters or more."""
    known_share: float
    """Share of them found in `COMMON_WORDS`."""
    bits_per_letter: float
    """Mean cost of their letter bigrams (word starts and ends included) under German and
    English (`language_data.BIGRAM_TENTHS`)."""

    @property
    def scramble_score(self) -> float:
        """High for letters that do not follow each other as in German or English, and
        for words outside the dictionary."""
        return self.bits_per_letter - KNOWN_WEIGHT * self.known_share


def reads_as_language(text: str) -> bool:
    """False for a text layer that reads like a substitution cipher (fonts that map
    glyphs to the wrong characters); a text of fewer than `MIN_LANGUAGE_WORDS` words is
    not judged."""
    evidence = language_evidence(text)
    return evidence.words < MIN_LANGUAGE_WORDS or evidence.scramble_score < SCRAMBLED_SCORE


def language_evidence(text: str) -> LanguageEvidence:
    counts = Counter(fold(run) for run in _LETTER_RUN.findall(text))
    words = sum(counts.values())
    if not words:
        return LanguageEvidence(0, 0.0, 0.0)
    known = sum(count for word, count in counts.items() if word in COMMON_WORDS)
    bits = pairs = 0.0
    for word, count in counts.items():
        padded = f" {word} "
        bits += count * sum(_BIGRAM_BITS[padded[i : i + 2]] for i in range(len(padded) - 1))
        pairs += count * (len(padded) - 1)
    return LanguageEvidence(words, known / words, bits / pairs)
