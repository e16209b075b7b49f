"""The generated set written by the pure writers, with fixed settings and clock."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

from storage.datev import extf, xml_online
from storage.datev.bookings import Voucher, voucher
from storage.datev.settings import DatevSettings
from tests.storage.datev.invoices import generated_set

SETTINGS = DatevSettings(consultant_number=29098, client_number=55003)
CREATED = datetime(2026, 2, 3, 9, 30, 15, 123000, tzinfo=UTC)
BATCH = extf.Batch(
    SETTINGS, date(2026, 1, 1), date(2026, 1, 1), date(2026, 1, 31), CREATED, "Rechnungen Januar"
)


def vouchers() -> list[Voucher]:
    found = [voucher(result, SETTINGS) for result in generated_set()]
    assert all(isinstance(item, Voucher) for item in found)
    return [item for item in found if isinstance(item, Voucher)]


def documents() -> list[xml_online.Document]:
    return [
        xml_online.Document(
            uuid.UUID(int=n + 1), item, f"invoice {n}.pdf", b"%PDF-1.7 original " + bytes([n])
        )
        for n, item in enumerate(vouchers())
    ]
