"""A company's DATEV settings: consultant and client number, account length, the fiscal
year's first month, and the account mapping with SKR03 and SKR04 defaults.

Stored as JSON in `companies.datev`; `None` there means "not set up": nothing can be
exported until the consultant and client numbers are known."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any


class Chart(StrEnum):
    SKR03 = "03"
    SKR04 = "04"


RATES = ("19", "7", "0")  # the VAT rates (percent) a booking can carry; others are refused


@dataclass(frozen=True, slots=True)
class Accounts:
    """Which accounts an invoice is booked on. `automatic` says the revenue and expense
    accounts for 19 % and 7 % are DATEV automatic accounts (AM/AV: the tax is split off
    by the account itself), so the lines carry no BU key."""

    customer: int  # collective debtor (Debitor) for customer invoices
    supplier: int  # collective creditor (Kreditor) for supplier invoices
    revenue: Mapping[str, int]  # VAT rate -> revenue account
    expense: Mapping[str, int]  # VAT rate -> expense account
    automatic: bool = True


# SKR03: 8400/8300 Erlöse 19 %/7 % USt (AM), 8100 steuerfreie Umsätze §4 Nr. 8 ff.;
# 3400/3300 Wareneingang 19 %/7 % Vorsteuer (AV), 3200 Wareneingang (no tax).
# SKR04: 4400/4300 (AM), 4100; 5400/5300 (AV), 5200. Debtors 10000, creditors 70000.
DEFAULT_ACCOUNTS = {
    Chart.SKR03: Accounts(
        customer=10000,
        supplier=70000,
        revenue={"19": 8400, "7": 8300, "0": 8100},
        expense={"19": 3400, "7": 3300, "0": 3200},
    ),
    Chart.SKR04: Accounts(
        customer=10000,
        supplier=70000,
        revenue={"19": 4400, "7": 4300, "0": 4100},
        expense={"19": 5400, "7": 5300, "0": 5200},
    ),
}


@dataclass(frozen=True, slots=True)
class DatevSettings:
    consultant_number: int  # Beraternummer, 1001-9999999
    client_number: int  # Mandantennummer, 1-99999
    account_length: int = 4  # Sachkontenlänge, 4-8
    chart: Chart = Chart.SKR03
    fiscal_year_start_month: int = 1
    accounts: Accounts = field(default_factory=lambda: DEFAULT_ACCOUNTS[Chart.SKR03])

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["chart"] = self.chart.value
        data["accounts"]["revenue"] = dict(self.accounts.revenue)
        data["accounts"]["expense"] = dict(self.accounts.expense)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DatevSettings:
        accounts = data["accounts"]
        return cls(
            consultant_number=int(data["consultant_number"]),
            client_number=int(data["client_number"]),
            account_length=int(data["account_length"]),
            chart=Chart(data["chart"]),
            fiscal_year_start_month=int(data["fiscal_year_start_month"]),
            accounts=Accounts(
                customer=int(accounts["customer"]),
                supplier=int(accounts["supplier"]),
                revenue={rate: int(accounts["revenue"][rate]) for rate in RATES},
                expense={rate: int(accounts["expense"][rate]) for rate in RATES},
                automatic=bool(accounts["automatic"]),
            ),
        )

    def with_chart_defaults(self, chart: Chart) -> DatevSettings:
        return replace(self, chart=chart, accounts=DEFAULT_ACCOUNTS[chart])
