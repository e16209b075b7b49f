"""Where the online confirmation of foreign VAT ids runs: in the pipeline worker, just
after an invoice's result is booked and committed (flows/work.py), outside the reading
processes (they hold no network nor database) and outside the booking transaction (a
slow service must not hold the group commit). Off unless `vat_confirm_service` is set.

Each foreign EU VAT id on the invoice whose offline check passed is asked about with the
party's name, city, postcode and street as printed; the answer is kept with the result
as proof (storage/repositories/vat_confirmations.py). The same question of the same
company within the cache time is answered from the kept answer, and kept again for
this result, marked cached. Trouble never fails the document: it is logged and the
question is asked again for the next invoice.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator
from datetime import timedelta
from typing import Any

from flows import vat_confirm_http
from processors.tax_ids import TaxIdVerdict, check_vat_id
from processors.vat_confirmation import VatAnswer, VatQuery, VatService
from storage.db import Database
from storage.models import Company, Result
from storage.repositories import vat_confirmations
from storage.result_changes import note_changed
from storage.settings import Settings

log = logging.getLogger(__name__)

Asker = Callable[[VatService, str, str, VatQuery, float], VatAnswer]


def enabled(settings: Settings) -> bool:
    return settings.vat_confirm_service != VatService.OFF.value


def confirm_result(
    db: Database, settings: Settings, result_id: uuid.UUID, ask: Asker = vat_confirm_http.ask
) -> int:
    """Ask about the result's foreign VAT ids; returns how many answers were kept."""
    if not enabled(settings):
        return 0
    service = VatService(settings.vat_confirm_service)
    with db.session() as session:
        result = session.get(Result, result_id)
        if result is None or result.type != "invoice" or result.deleted_at is not None:
            return 0
        company = session.get(Company, result.company_id)
        own = _own_vat_id(settings, company.vat_ids if company else [])
        if service is VatService.EVATR and not own:
            log.warning("vat confirmation: no own German VAT id set, eVatR not asked")
            return 0
        own_ids = {_compact(v) for v in (company.vat_ids if company else [])}
        kept = 0
        max_age = timedelta(hours=settings.vat_confirm_cache_hours)
        for party, query in _questions(result.data, own_ids):
            earlier = vat_confirmations.cached_answer(
                session, result.company_id, query.key, max_age
            )
            if earlier is not None:
                vat_confirmations.keep_cached(session, result.id, party, earlier)
            else:
                answer = ask(
                    service,
                    settings.vat_confirm_endpoint,
                    own,
                    query,
                    settings.vat_confirm_timeout_seconds,
                )
                vat_confirmations.keep_answer(
                    session, result.company_id, result.id, party, query.key, answer
                )
            kept += 1
        if kept:
            note_changed(session, result)  # the result's answer carries the confirmations
        session.commit()
        return kept


def confirm_quietly(db: Database, settings: Settings, result_id: uuid.UUID) -> None:
    """For the worker: never lets the confirmation fail the document's job."""
    if not enabled(settings):
        return
    try:
        confirm_result(db, settings, result_id)
    except Exception:
        log.exception("vat confirmation of result %s failed", result_id)


def _questions(data: dict[str, Any], own_ids: set[str]) -> Iterator[tuple[str, VatQuery]]:
    """Foreign (not German) EU VAT ids whose offline check passed, not the company's own."""
    invoice = data.get("invoice")
    parties = invoice if isinstance(invoice, dict) else {}
    for party in ("seller", "buyer"):
        details = parties.get(party)
        if not isinstance(details, dict):
            continue
        vat_id = details.get("vatId")
        if not isinstance(vat_id, str) or _compact(vat_id) in own_ids:
            continue
        verdict, country = check_vat_id(vat_id)
        if verdict is not TaxIdVerdict.VALID or country == "DE":
            continue
        yield party, _query(vat_id, details)


def _query(vat_id: str, details: dict[str, Any]) -> VatQuery:
    address = details.get("address") if isinstance(details.get("address"), dict) else {}
    assert isinstance(address, dict)
    lines = address.get("lines") or []
    return VatQuery(
        vat_id,
        name=str(details.get("name") or ""),
        city=str(address.get("city") or ""),
        postal_code=str(address.get("postalCode") or ""),
        street=str(lines[0]) if lines else "",
    )


def _own_vat_id(settings: Settings, company_vat_ids: list[str]) -> str:
    if settings.vat_confirm_own_vat_id:
        return _compact(settings.vat_confirm_own_vat_id)
    german = [_compact(v) for v in company_vat_ids if _compact(v).startswith("DE")]
    return german[0] if german else ""


def _compact(value: str) -> str:
    return "".join(ch for ch in value if ch.isalnum()).upper()
