"""The invoice page's checks of issue 42: the parties' tax ids (checked offline,
processors/tax_ids.py; online where configured, flows/vat_confirm.py) and the
warnings about the bank account the invoice asks to be paid into
(storage/repositories/bank_accounts.py), with the accountant's decisions."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from api.web.i18n import N_, Message
from api.web.result_views import grouped_iban
from processors.bank_accounts import AccountWarning
from processors.results.invoice import InvoiceResult
from processors.tax_ids import TaxIdCheck, TaxIdKind, TaxIdVerdict, tax_id_checks
from storage.bank_account_models import AccountWarningRow
from storage.models import Result
from storage.repositories import bank_accounts, vat_confirmations, web_results

PARTY_LABELS = {"seller": N_("Seller"), "buyer": N_("Buyer")}
KIND_LABELS = {TaxIdKind.VAT_ID: N_("VAT id"), TaxIdKind.TAX_NUMBER: N_("Tax number")}
VERDICT_LABELS = {
    TaxIdVerdict.VALID: N_("format and check digits correct"),
    TaxIdVerdict.BAD_CHECK_DIGIT: N_("wrong check digit"),
    TaxIdVerdict.BAD_FORMAT: N_("wrong format for its country"),
    TaxIdVerdict.NOT_CHECKED: N_("not checked (no EU VAT ID or no German tax number)"),
}


@dataclass(frozen=True)
class TaxIdView:
    party_label: str
    kind_label: str
    value: str
    verdict: str
    verdict_label: str | Message
    finding: bool


@dataclass(frozen=True)
class AccountWarningView:
    id: uuid.UUID
    reason: str
    text: Message
    decision: str | None
    decided_by: str | None
    decided_at: datetime | None
    action_url: str


def tax_id_views(result: InvoiceResult) -> tuple[TaxIdView, ...]:
    """Results stored before the check carry none: checked when shown instead."""
    checks = result.tax_ids if result.tax_ids is not None else tax_id_checks(result.invoice)
    return tuple(_tax_id_view(check) for check in checks or ())


def _tax_id_view(check: TaxIdCheck) -> TaxIdView:
    label: str | Message = VERDICT_LABELS[check.verdict]
    if check.kind is TaxIdKind.TAX_NUMBER and check.verdict is TaxIdVerdict.VALID:
        label = Message(N_("fits the format of %(lands)s"), {"lands": ", ".join(check.regions)})
    return TaxIdView(
        party_label=PARTY_LABELS.get(check.party, check.party),
        kind_label=KIND_LABELS[check.kind],
        value=check.value,
        verdict=check.verdict.value,
        verdict_label=label,
        finding=check.verdict.is_finding,
    )


def account_warning_views(session: Session, result: Result) -> tuple[AccountWarningView, ...]:
    rows = bank_accounts.warnings_of(session, result.id)
    emails = web_results.user_emails(session, (r.decided_by for r in rows if r.decided_by))
    return tuple(
        AccountWarningView(
            id=row.id,
            reason=row.reason,
            text=_warning_text(row),
            decision=row.decision,
            decided_by=emails.get(row.decided_by) if row.decided_by else None,
            decided_at=row.decided_at,
            action_url=f"/app/invoices/{result.id}/account-warnings/{row.id}",
        )
        for row in rows
    )


def _warning_text(row: AccountWarningRow) -> Message:
    iban = grouped_iban(row.iban) or row.iban
    if row.reason == AccountWarning.NEW_IBAN:
        known = ", ".join(grouped_iban(k) or k for k in row.known_ibans)
        return Message(
            N_(
                "New bank account: this invoice asks for payment to %(iban)s, an account"
                " none of the supplier's earlier invoices named (they named %(known)s)."
                " Confirm it with the supplier through a contact you already know before"
                " paying: payment redirection is a common fraud."
            ),
            {"iban": iban, "known": known},
        )
    return Message(
        N_("The account %(iban)s is held in %(iban_country)s, but the supplier is in %(country)s."),
        {"iban": iban, "iban_country": row.iban[:2], "country": row.supplier_country or ""},
    )


SERVICE_LABELS = {"evatr": N_("BZSt eVatR (qualified)"), "vies": N_("EU VIES")}
CONFIRMED_LABELS = {
    "valid": N_("valid"),
    "invalid": N_("not valid"),
    "unanswered": N_("no answer (asked again with the next invoice)"),
}
FIELD_LABELS = {
    "name": N_("Name"),
    "city": N_("Place"),
    "postalCode": N_("Postcode"),
    "street": N_("Street"),
}
MATCH_LABELS = {
    "A": N_("matches"),
    "B": N_("does not match"),
    "C": N_("not asked"),
    "D": N_("not given by the member state"),
}


@dataclass(frozen=True)
class MatchView:
    field_label: str
    code: str
    code_label: str


@dataclass(frozen=True)
class VatConfirmationView:
    party_label: str
    vat_id: str
    service_label: str
    confirmed: str
    confirmed_label: str
    status: str
    requested_at: str
    request_id: str | None
    matches: tuple[MatchView, ...]
    cached: bool

    @property
    def mismatch(self) -> bool:
        return any(match.code == "B" for match in self.matches)


def vat_confirmation_views(session: Session, result: Result) -> tuple[VatConfirmationView, ...]:
    """The online answers kept as proof for the invoice, latest first."""
    return tuple(
        _confirmation_view(c) for c in vat_confirmations.confirmations_of(session, result.id)
    )


def _confirmation_view(shown: dict[str, object]) -> VatConfirmationView:
    matches = shown.get("matches")
    codes = matches if isinstance(matches, dict) else {}
    return VatConfirmationView(
        party_label=PARTY_LABELS.get(str(shown["party"]), str(shown["party"])),
        vat_id=str(shown["vatId"]),
        service_label=SERVICE_LABELS.get(str(shown["service"]), str(shown["service"])),
        confirmed=str(shown["confirmed"]),
        confirmed_label=CONFIRMED_LABELS.get(str(shown["confirmed"]), str(shown["confirmed"])),
        status=str(shown["status"]),
        requested_at=str(shown["requestedAt"]),
        request_id=str(shown["requestId"]) if shown.get("requestId") else None,
        matches=tuple(
            MatchView(label, str(codes[key]), MATCH_LABELS.get(str(codes[key]), str(codes[key])))
            for key, label in FIELD_LABELS.items()
            if key in codes
        ),
        cached=bool(shown.get("cached")),
    )
