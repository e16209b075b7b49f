"""SEPA payment files: pain.001 (credit transfer) and pain.008 (direct debit) initiation.

Every ISO 20022 version is read by element names, which are stable across versions
(pain.001.001.03 .. .12, the German pain.001.002.03 / .003.03, pain.008 alike). The group
header's transaction count and control sum are checked against the payments. Versions
whose XSD a registry package ships (see scripts/install_rules.py) are also validated
against it; for the others only the structural checks run, and the outcome says so.
"""

from __future__ import annotations

import re
import threading
from dataclasses import asdict, dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from lxml import etree

from processors.base import (
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
    ResultType,
)
from processors.xmlsafe import XmlRejectedError, make_parser, parse_xml, peek_root

_NAMESPACE = re.compile(r"^urn:iso:std:iso:20022:tech:xsd:(pain\.00[18]\.\d{3}\.\d{2})$")
_KINDS = {"CstmrCdtTrfInitn": "credit_transfer", "CstmrDrctDbtInitn": "direct_debit"}
SCORE_SEPA = 90
_TAKES = frozenset(
    {DocumentType.AUTO, DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE}
)


def message_type(namespace: str | None) -> str | None:
    match = _NAMESPACE.match(namespace or "")
    return match.group(1) if match else None


@dataclass(frozen=True, slots=True)
class Payment:
    payment_info_id: str | None
    requested_date: str | None
    end_to_end_id: str | None
    amount: str | None
    currency: str | None
    name: str | None  # the counterparty: creditor (pain.001) or debtor (pain.008)
    iban: str | None
    bic: str | None
    remittance_information: str | None
    mandate_id: str | None
    own_name: str | None  # the initiating side: debtor (pain.001) or creditor (pain.008)
    own_iban: str | None


class SepaProcessor:
    name = "sepa"

    def __init__(self, rules_root: Path | None = None) -> None:
        self._rules_root = rules_root

    def score(self, kind: FileKind, head: bytes, context: ProcessingContext) -> int:
        if kind is not FileKind.XML or context.document_type not in _TAKES:
            return 0
        root = peek_root(head)
        return SCORE_SEPA if root is not None and message_type(root.namespace) else 0

    def process(self, data: bytes, context: ProcessingContext) -> Outcome:
        payment_file = read_payment_file(data, self._rules_root)
        if context.document_type is DocumentType.AUTO:
            return Outcome(ResultType.PAYMENT_FILE, payment_file)
        # A payment file sent as an invoice is filed, not booked (decisions.md).
        return Outcome(
            ResultType.OTHER_DOCUMENT, {"reason": "SEPA payment file", "paymentFile": payment_file}
        )


def read_payment_file(data: bytes, rules_root: Path | None = None) -> dict[str, Any]:
    try:
        tree = parse_xml(data)
    except XmlRejectedError as exc:
        raise _invalid(str(exc)) from exc
    root = tree.getroot()
    version = message_type(etree.QName(root).namespace)
    if version is None or len(root) == 0 or etree.QName(root[0]).localname not in _KINDS:
        raise _invalid("not a SEPA pain.001 / pain.008 initiation message")
    schema_checked = _check_schema(tree, version, rules_root)
    reader = _Reader(etree.QName(root).namespace or "")
    initiation = root[0]
    kind = _KINDS[etree.QName(initiation).localname]
    payments = reader.payments(initiation, kind)
    header = reader.first(initiation, "p:GrpHdr")
    declared_count = reader.text(header, "p:NbOfTxs")
    declared_sum = reader.text(header, "p:CtrlSum")
    _check_totals(payments, declared_count, declared_sum, "group header")
    for info in reader.nodes(initiation, "p:PmtInf"):
        own = [p for p in payments if p.payment_info_id == reader.text(info, "p:PmtInfId")]
        _check_totals(
            own,
            reader.text(info, "p:NbOfTxs"),
            reader.text(info, "p:CtrlSum"),
            f"payment information {reader.text(info, 'p:PmtInfId')!r}",
        )
    return {
        "kind": kind,
        "messageType": version,
        "messageId": reader.text(header, "p:MsgId"),
        "creationTime": reader.text(header, "p:CreDtTm"),
        "initiatingParty": reader.text(header, "p:InitgPty/p:Nm"),
        "numberOfTransactions": len(payments),
        "controlSum": str(sum((_decimal(p.amount) for p in payments), Decimal("0"))),
        "validation": {
            "xsd": "passed" if schema_checked else "not available for this version",
            "structure": "transaction count and control sums match the payments",
        },
        "payments": [_camel_keys(asdict(p)) for p in payments],
    }


def _invalid(message: str) -> ProcessingError:
    return ProcessingError(FailureCode.UNREADABLE_DOCUMENT, f"Invalid SEPA payment file: {message}")


def _check_totals(
    payments: list[Payment], count: str | None, control_sum: str | None, where: str
) -> None:
    if count is not None and count.strip() != str(len(payments)):
        raise _invalid(f"{where} declares {count} transactions, the file has {len(payments)}")
    if control_sum is not None:
        actual = sum((_decimal(p.amount) for p in payments), Decimal("0"))
        if _decimal(control_sum) != actual:
            raise _invalid(
                f"{where} declares control sum {control_sum}, the payments add up to {actual}"
            )


def _decimal(value: str | None) -> Decimal:
    try:
        return Decimal((value or "").strip())
    except InvalidOperation as exc:
        raise _invalid(f"{value!r} is not an amount") from exc


def _camel_keys(values: dict[str, Any]) -> dict[str, Any]:
    def camel(name: str) -> str:
        head, *rest = name.split("_")
        return head + "".join(part.capitalize() for part in rest)

    return {camel(key): value for key, value in values.items()}


class _Reader:
    def __init__(self, namespace: str) -> None:
        self.ns = {"p": namespace}

    def nodes(self, context: etree._Element | None, path: str) -> list[etree._Element]:
        if context is None:
            return []
        found = context.xpath(path, namespaces=self.ns)
        assert isinstance(found, list)
        return [node for node in found if isinstance(node, etree._Element)]

    def first(self, context: etree._Element | None, path: str) -> etree._Element | None:
        found = self.nodes(context, path)
        return found[0] if found else None

    def text(self, context: etree._Element | None, path: str) -> str | None:
        node = self.first(context, path)
        if node is None or node.text is None or not node.text.strip():
            return None
        return node.text.strip()

    def bic(self, agent: etree._Element | None) -> str | None:
        return self.text(agent, "p:FinInstnId/p:BIC") or self.text(agent, "p:FinInstnId/p:BICFI")

    def remittance(self, transaction: etree._Element) -> str | None:
        unstructured = [
            n.text.strip()
            for n in self.nodes(transaction, "p:RmtInf/p:Ustrd")
            if n.text and n.text.strip()
        ]
        structured = self.text(transaction, "p:RmtInf/p:Strd/p:CdtrRefInf/p:Ref")
        parts = [*unstructured, *([structured] if structured else [])]
        return " ".join(parts) or None

    def payments(self, initiation: etree._Element, kind: str) -> list[Payment]:
        credit = kind == "credit_transfer"
        own, other, tx_tag = (
            ("Dbtr", "Cdtr", "CdtTrfTxInf") if credit else ("Cdtr", "Dbtr", "DrctDbtTxInf")
        )
        date_tag = "p:ReqdExctnDt" if credit else "p:ReqdColltnDt"
        payments = []
        for info in self.nodes(initiation, "p:PmtInf"):
            requested = self.text(info, f"{date_tag}/p:Dt") or self.text(info, date_tag)
            for tx in self.nodes(info, f"p:{tx_tag}"):
                amount_node = (
                    self.first(tx, "p:Amt/p:InstdAmt") if credit else self.first(tx, "p:InstdAmt")
                )
                payments.append(
                    Payment(
                        payment_info_id=self.text(info, "p:PmtInfId"),
                        requested_date=requested,
                        end_to_end_id=self.text(tx, "p:PmtId/p:EndToEndId"),
                        amount=amount_node.text.strip()
                        if amount_node is not None and amount_node.text
                        else None,
                        currency=amount_node.get("Ccy") if amount_node is not None else None,
                        name=self.text(tx, f"p:{other}/p:Nm"),
                        iban=self.text(tx, f"p:{other}Acct/p:Id/p:IBAN"),
                        bic=self.bic(self.first(tx, f"p:{other}Agt")),
                        remittance_information=self.remittance(tx),
                        mandate_id=self.text(tx, "p:DrctDbtTx/p:MndtRltdInf/p:MndtId"),
                        own_name=self.text(info, f"p:{own}/p:Nm"),
                        own_iban=self.text(info, f"p:{own}Acct/p:Id/p:IBAN"),
                    )
                )
        return payments


# --- XSD -------------------------------------------------------------------------------

_schemas: dict[Path, etree.XMLSchema] = {}
_schemas_lock = threading.Lock()


def sepa_xsd(version: str, rules_root: Path | None = None) -> Path | None:
    from processors.einvoice.rules import default_rules_dir  # one rules root for all kinds

    path = (rules_root or default_rules_dir()) / "sepa" / f"{version}.xsd"
    return path if path.is_file() else None


def compile_schemas(rules_root: Path | None = None) -> int:
    """Compile every SEPA schema now (a worker's warm-up); returns how many."""
    from processors.einvoice.rules import default_rules_dir

    paths = sorted(((rules_root or default_rules_dir()) / "sepa").glob("*.xsd"))
    for path in paths:
        _schema(path)
    return len(paths)


def _schema(path: Path) -> etree.XMLSchema:
    with _schemas_lock:
        if path not in _schemas:
            _schemas[path] = etree.XMLSchema(etree.parse(str(path), parser=make_parser()))
        return _schemas[path]


def _check_schema(tree: etree._ElementTree, version: str, rules_root: Path | None) -> bool:
    path = sepa_xsd(version, rules_root)
    if path is None:
        return False
    schema = _schema(path)
    if not schema.validate(tree):
        first_error = schema.error_log[0]  # type: ignore[index]
        raise _invalid(f"{version} XML Schema: line {first_error.line}: {first_error.message}")
    return True
