"""The buyer from the address window (DIN 5008 forms A and B, `pdf_layout.regions`) when
no label names it: the first line of the recipient's address, under the return-address
line when one is printed there, followed by a postal-code line; not a street, a label,
a contact line or a salutation."""

from __future__ import annotations

from processors.pdf_invoices.labels import POSTAL, RETURN_ADDRESS_SEP, STREET
from processors.pdf_invoices.parties import FORM_ONLY, bare_label, name_like
from processors.pdf_layout.lines import PageLayout
from processors.pdf_layout.regions import PageRegions

_ADDRESS_DEPTH = 3
"""Lines from the name to the postal code: name, (contact, care of,) street, city."""


def window_buyer(pages: tuple[PageLayout, ...]) -> str | None:
    if not pages:
        return None
    window = PageRegions.of(pages[0]).address_window
    if window is None:
        return None
    lines = [line.text.strip() for line in window.lines]
    start = next((i + 1 for i, line in enumerate(lines) if _return_address(line)), 0)
    for index in range(start, len(lines)):
        line = lines[index]
        if bare_label(line) or STREET.search(line) or POSTAL.search(line):
            continue
        following = lines[index + 1 : index + 1 + _ADDRESS_DEPTH]
        if name_like(line) and any(POSTAL.search(below) for below in following):
            if following and FORM_ONLY.match(following[0]):
                return f"{line} {following[0]}"  # a legal form alone ends the name
            return line
    return None


def _return_address(line: str) -> bool:
    """`Alphabet, Lilienthalallee 26, 80786 München`, `Name · Street · 12345 City`."""
    return bool(POSTAL.search(line)) and (
        line.count(",") >= 2 or bool(RETURN_ADDRESS_SEP.search(line))
    )
