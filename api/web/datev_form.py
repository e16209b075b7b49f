"""The DATEV settings as typed into their form: parsed, checked, and the words the
export page shows for an invoice's status and reasons."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from api.web.i18n import N_
from storage.datev.bookings import Hold, Unbookable
from storage.datev.export import Status
from storage.datev.settings import RATES, Accounts, Chart, DatevSettings

CHARTS = {Chart.SKR03: "SKR 03", Chart.SKR04: "SKR 04"}
ACCOUNT_FIELDS = (
    "customer",
    "supplier",
    *(f"{kind}_{rate}" for kind in ("revenue", "expense") for rate in RATES),
)

EXPORT_LABELS = {
    Status.INCLUDED: N_("Included"),
    Status.HELD: N_("Held back"),
    Status.LEFT_OUT: N_("Left out"),
    Hold.NEEDS_REVIEW: N_("needs review"),
    Hold.FAILED_VALIDATION: N_("failed validation"),
    Unbookable.NO_NUMBER: N_("no invoice number"),
    Unbookable.NO_DATE: N_("no invoice date"),
    Unbookable.CURRENCY: N_("not in EUR"),
    Unbookable.NO_VAT_BREAKDOWN: N_("no VAT breakdown"),
    Unbookable.VAT_RATE: N_("a VAT rate other than 19, 7 or 0 %"),
    Unbookable.SPECIAL_VAT: N_("reverse charge, intra-community or export: book by hand"),
    Unbookable.ZERO: N_("amount zero"),
}


@dataclass
class DatevForm:
    values: dict[str, str]  # as typed, shown again when something is wrong
    settings: DatevSettings | None = None
    errors: dict[str, str] = field(default_factory=dict)


def form_values(settings: DatevSettings | None) -> dict[str, str]:
    shown = settings or DatevSettings(consultant_number=0, client_number=0)
    accounts = shown.accounts
    values = {
        "consultant_number": str(shown.consultant_number or ""),
        "client_number": str(shown.client_number or ""),
        "account_length": str(shown.account_length),
        "fiscal_year_start_month": str(shown.fiscal_year_start_month),
        "chart": shown.chart.value,
        "customer": str(accounts.customer),
        "supplier": str(accounts.supplier),
        "automatic": "on" if accounts.automatic else "",
    }
    for rate in RATES:
        values[f"revenue_{rate}"] = str(accounts.revenue[rate])
        values[f"expense_{rate}"] = str(accounts.expense[rate])
    return values


def _number(values: dict[str, str], name: str, errors: dict[str, str]) -> int:
    text = values.get(name, "").strip()
    if not text.isdigit() or len(text) > 9:
        errors[name] = N_("Enter a number.")
        return 0
    return int(text)


def _ranges(number: int, low: int, high: int) -> bool:
    return low <= number <= high


def parse_datev_form(values: dict[str, str], use_chart_defaults: bool) -> DatevForm:
    form = DatevForm(values)
    errors = form.errors
    numbers = {
        name: _number(values, name, errors)
        for name in (
            "consultant_number",
            "client_number",
            "account_length",
            "fiscal_year_start_month",
        )
    }
    chart = Chart(values["chart"]) if values.get("chart") in CHARTS else None
    if chart is None:
        errors["chart"] = N_("Choose SKR 03 or SKR 04.")
    bounds = {
        "consultant_number": (1001, 9_999_999, N_("The consultant number is 1001 to 9999999.")),
        "client_number": (1, 99_999, N_("The client number is 1 to 99999.")),
        "account_length": (4, 8, N_("The account length is 4 to 8 digits.")),
        "fiscal_year_start_month": (1, 12, N_("The fiscal year starts in month 1 to 12.")),
    }
    for name, (low, high, message) in bounds.items():
        if name not in errors and not _ranges(numbers[name], low, high):
            errors[name] = message
    if errors or chart is None:
        return form
    settings = DatevSettings(
        consultant_number=numbers["consultant_number"],
        client_number=numbers["client_number"],
        account_length=numbers["account_length"],
        chart=chart,
        fiscal_year_start_month=numbers["fiscal_year_start_month"],
    ).with_chart_defaults(chart)
    if not use_chart_defaults:
        settings = replace(settings, accounts=_accounts(values, settings.account_length, errors))
    form.settings = None if errors else settings
    return form


def _accounts(values: dict[str, str], length: int, errors: dict[str, str]) -> Accounts:
    numbers = {name: _number(values, name, errors) for name in ACCOUNT_FIELDS}
    personal = range(10**length, 10 ** (length + 1))
    for name in ("customer", "supplier"):
        if name not in errors and numbers[name] not in personal:
            errors[name] = N_(
                "A customer or supplier account has one digit more than the account length."
            )
    for name in ACCOUNT_FIELDS[2:]:
        if name not in errors and not _ranges(numbers[name], 1, 10**length - 1):
            errors[name] = N_(
                "A revenue or expense account has at most the account length's digits."
            )
    return Accounts(
        customer=numbers["customer"],
        supplier=numbers["supplier"],
        revenue={rate: numbers[f"revenue_{rate}"] for rate in RATES},
        expense={rate: numbers[f"expense_{rate}"] for rate in RATES},
        automatic=values.get("automatic") == "on",
    )
