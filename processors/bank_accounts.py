"""Supplier bank account changes (issue 42, part 3): the pure half.

Who the supplier of an invoice is, which accounts the invoice asks to be paid into, and
what is suspicious about an account given the accounts seen on the supplier's earlier
invoices. What was seen before is in the database: storage/repositories/bank_accounts.py
keeps it and asks these functions (docs/checks.md).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection
from enum import StrEnum

from processors.invoice_model import Invoice, Party

_NOT_ALNUM = re.compile(r"[^0-9a-z]+")
_IBAN_SEPARATORS = re.compile(r"[\s\-.]")
# The VAT prefixes that are no ISO country: Greece's EL, Northern Ireland's XI.
_VAT_PREFIX_COUNTRY = {"EL": "GR", "XI": "GB"}
# Longest compacted name kept in a key: names past it are the same supplier anyway.
_NAME_KEY_LENGTH = 200


class AccountWarning(StrEnum):
    NEW_IBAN = "new_iban"  # never seen for this supplier, while others were
    FOREIGN_IBAN = "foreign_iban"  # the IBAN's country is not the supplier's


def supplier_key(seller: Party) -> str | None:
    """Who the supplier is, the same on each of its invoices: its VAT id, else its tax
    number, else its name compacted (case, accents, spacing and punctuation ignored)."""
    vat_id = _compact_id(seller.vat_id)
    if vat_id:
        return f"vat:{vat_id}"
    tax_number = _compact_id(seller.tax_number)
    if tax_number:
        return f"tax:{tax_number}"
    name = normalized_name(seller.name or "")
    return f"name:{name[:_NAME_KEY_LENGTH]}" if name else None


def normalized_name(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.casefold().replace("ß", "ss"))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _NOT_ALNUM.sub("", plain)


def payee_ibans(invoice: Invoice) -> tuple[str, ...]:
    """The accounts the invoice asks to be paid into (credit transfer), compacted, each
    once; a direct debit's account is the payer's and not asked for."""
    found: list[str] = []
    for means in invoice.payment_means:
        iban = _IBAN_SEPARATORS.sub("", means.payee_iban or "").upper()
        if len(iban) >= 15 and iban[:2].isalpha() and iban not in found:
            found.append(iban)
    return tuple(found)


def supplier_country(seller: Party) -> str | None:
    """The supplier's country: its address's, else its VAT id's prefix."""
    if seller.address is not None and seller.address.country_code:
        code = seller.address.country_code.strip().upper()
        if len(code) == 2 and code.isalpha():
            return code
    prefix = (_compact_id(seller.vat_id) or "")[:2]
    if len(prefix) == 2 and prefix.isalpha():
        return _VAT_PREFIX_COUNTRY.get(prefix, prefix)
    return None


def account_warnings(
    iban: str, known: Collection[str], country: str | None
) -> tuple[AccountWarning, ...]:
    """What is suspicious about paying into `iban`: new for a supplier whose `known`
    IBANs do not hold it (none known: a first invoice, nothing to compare), and an IBAN
    of another country than the supplier's."""
    warnings: list[AccountWarning] = []
    if known and iban not in known:
        warnings.append(AccountWarning.NEW_IBAN)
    if country is not None and iban[:2] != country:
        warnings.append(AccountWarning.FOREIGN_IBAN)
    return tuple(warnings)


def _compact_id(value: str | None) -> str | None:
    compact = re.sub(r"[^0-9A-Z]", "", (value or "").upper())
    return compact or None
