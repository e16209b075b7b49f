"""Where a field of an invoice read from a PDF was printed, and how sure the reader is.

Stored with an invoice result as `evidence`: one entry per field the reader found, each
naming its field by the key the invoice itself is stored under (`EvidenceField`), the
page (1 for the first), the box around the printed value, and a confidence: `high`, or
`low` with the reason (a total whose arithmetic does not close, two candidates that
score alike). The web application highlights the box on the page image.

**Boxes** are in PDF points (1/72 inch) on the page as displayed (its /Rotate applied,
its crop box's top-left corner the origin): x grows to the right, y downwards, so
`x0 < x1` and `y0 < y1`. A scan's boxes are in the same unit (its pixels scaled by the
page's size), so one page image serves both.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from processors.json_fields import OMITTED_WHEN_NONE


class Confidence(StrEnum):
    HIGH = "high"
    LOW = "low"


class EvidenceField(StrEnum):
    """A field with evidence, keyed by its path in the stored invoice (`invoice.<key>`;
    the payee IBAN is that of the first payment means)."""

    NUMBER = "number"
    ISSUE_DATE = "issueDate"
    DUE_DATE = "dueDate"
    CURRENCY = "currency"
    SELLER_NAME = "seller.name"
    SELLER_VAT_ID = "seller.vatId"
    BUYER_NAME = "buyer.name"
    NET_TOTAL = "totals.net"
    VAT_TOTAL = "totals.vat"
    GROSS_TOTAL = "totals.gross"
    AMOUNT_DUE = "totals.amountDue"
    PAYEE_IBAN = "paymentMeans.payeeIban"


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on a page in points, origin top-left (see the module's docstring)."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.y1 - self.y0

    def union(self, other: Box) -> Box:
        return Box(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )

    def rounded(self) -> Box:
        """To a tenth of a point: finer than a glyph's edge, and short in the JSON."""
        return Box(round(self.x0, 1), round(self.y0, 1), round(self.x1, 1), round(self.y1, 1))

    @staticmethod
    def around(boxes: Iterable[Box]) -> Box:
        first, *rest = boxes
        for box in rest:
            first = first.union(box)
        return first


@dataclass(frozen=True, slots=True)
class PageSize:
    """A page's size in points, as displayed: what a box is drawn on."""

    width: float
    height: float


A4 = PageSize(595.28, 841.89)


@dataclass(frozen=True, slots=True)
class FieldEvidence:
    field: EvidenceField
    page: int  # 1 for the first page
    box: Box
    confidence: Confidence
    reason: str | None = dataclasses.field(default=None, metadata=OMITTED_WHEN_NONE)
    """Why a field is `low` (for people: "net + VAT does not make the gross")."""
    page_size: PageSize | None = dataclasses.field(default=None, metadata=OMITTED_WHEN_NONE)
    """The page's size (the web application draws the box on it); A4 when not given."""


def evidence_by_field(
    evidence: Iterable[FieldEvidence] | None,
) -> Mapping[EvidenceField, FieldEvidence]:
    """The evidence keyed by field (stored as a list: a field appears once)."""
    return {item.field: item for item in evidence or ()}
