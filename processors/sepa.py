"""SEPA payment files: pain.001 (credit transfer) and pain.008 (direct debit) initiation.

Every ISO 20022 version (pain.001.001.03 .. .12, pain.008.001.02 .. .11) and the national
variants (German DK pain.001.002.03 / .003.03, pain.008.002.02 / .003.02; Swiss SIX
pain.001.001.03.ch.02 and alike) are read by element names, which they share. Checks, in
order (docs/einvoice.md, "SEPA variants"):
1. the XML Schema of the version, or for a variant the ISO schema it restricts, where a
   registry package ships it (processors/sepa_messages.py);
2. every version: the elements every ISO schema requires (group header with message id,
   creation time, transaction count and initiating party; payment information with id,
   method and at least one transaction; end-to-end id, amount and currency per payment);
3. every version: the transaction counts and control sums of the group header and of each
   payment information block against the payments;
4. IBAN check digits and lengths, reported as warnings: a wrong IBAN makes the bank
   refuse that payment, it does not make the file something else.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from pathlib import Path

from lxml import etree

from processors.base import (
    DocumentType,
    FailureCode,
    FileKind,
    Outcome,
    ProcessingContext,
    ProcessingError,
)
from processors.results.other_document import FiledPaymentFile
from processors.results.payment_file import Payment, PaymentFile, PaymentFileChecks, PaymentKind
from processors.sepa_messages import (
    SchemaError,
    check_schema,
    compile_schemas,
    message_type_of,
)
from processors.text_values import IBAN_LENGTHS, iban_valid
from processors.xmlsafe import XmlRejectedError, parse_xml, peek_root

__all__ = ["SepaProcessor", "compile_schemas", "message_type", "read_payment_file"]

_KINDS = {
    "CstmrCdtTrfInitn": PaymentKind.CREDIT_TRANSFER,
    "CstmrDrctDbtInitn": PaymentKind.DIRECT_DEBIT,
}
SCORE_SEPA = 90
_TAKES = frozenset(
    {DocumentType.AUTO, DocumentType.SUPPLIER_INVOICE, DocumentType.CUSTOMER_INVOICE}
)
_CURRENCY = re.compile(r"^[A-Z]{3}$")


def message_type(namespace: str | None) -> str | None:
    message = message_type_of(namespace)
    return message.name if message else None


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
            return Outcome(payment_file)
        # A payment file sent as an invoice is filed, not booked (decisions.md).
        return Outcome(FiledPaymentFile(payment_file=payment_file))


def read_payment_file(data: bytes, rules_root: Path | None = None) -> PaymentFile:
    try:
        tree = parse_xml(data)
    except XmlRejectedError as exc:
        raise _invalid(str(exc)) from exc
    root = tree.getroot()
    message = message_type_of(etree.QName(root).namespace)
    if message is None or len(root) == 0 or etree.QName(root[0]).localname not in _KINDS:
        raise _invalid("not a SEPA pain.001 / pain.008 initiation message")
    try:
        schema = check_schema(tree, message, rules_root)
    except SchemaError as exc:
        raise _invalid(str(exc)) from exc
    reader = _Reader(etree.QName(root).namespace or "")
    initiation = root[0]
    kind = _KINDS[etree.QName(initiation).localname]
    header = reader.first(initiation, "p:GrpHdr")
    blocks = [(info, reader.payments(info, kind)) for info in reader.nodes(initiation, "p:PmtInf")]
    _check_required(reader, header, blocks)
    payments = [payment for _, own in blocks for payment in own]
    _check_totals(
        payments, reader.text(header, "p:NbOfTxs"), reader.text(header, "p:CtrlSum"), "group header"
    )
    for info, own in blocks:
        where = f"payment information {reader.text(info, 'p:PmtInfId')!r}"
        _check_totals(own, reader.text(info, "p:NbOfTxs"), reader.text(info, "p:CtrlSum"), where)
    return PaymentFile(
        kind=kind,
        message_type=message.name,
        message_id=reader.text(header, "p:MsgId"),
        creation_time=reader.text(header, "p:CreDtTm"),
        initiating_party=reader.text(header, "p:InitgPty/p:Nm"),
        number_of_transactions=len(payments),
        control_sum=sum((_decimal(p.amount) for p in payments), Decimal("0")),
        validation=PaymentFileChecks(
            xsd=schema.summary,
            schema=schema.schema,
            variant=message.variant,
            structure="required elements present; "
            "transaction count and control sums match the payments",
            warnings=tuple(_iban_warnings(reader.all_ibans(initiation))),
        ),
        payments=tuple(payments),
    )


def _invalid(message: str) -> ProcessingError:
    return ProcessingError(FailureCode.UNREADABLE_DOCUMENT, f"Invalid SEPA payment file: {message}")


_REQUIRED_IN_HEADER = ("p:MsgId", "p:CreDtTm", "p:NbOfTxs", "p:InitgPty")
_REQUIRED_IN_BLOCK = ("p:PmtInfId", "p:PmtMtd")


def _check_required(
    reader: _Reader,
    header: etree._Element | None,
    blocks: list[tuple[etree._Element, list[Payment]]],
) -> None:
    """What every ISO version's schema requires, checked for versions without one too."""
    if header is None:
        raise _invalid("the group header (GrpHdr) is missing")
    for path in _REQUIRED_IN_HEADER:
        if reader.first(header, path) is None:
            raise _invalid(f"the group header has no {path.removeprefix('p:')}")
    if not blocks:
        raise _invalid("the file has no payment information (PmtInf)")
    for info, payments in blocks:
        for path in _REQUIRED_IN_BLOCK:
            if reader.text(info, path) is None:
                raise _invalid(f"a payment information block has no {path.removeprefix('p:')}")
        if not payments:
            raise _invalid(
                f"payment information {reader.text(info, 'p:PmtInfId')!r} has no payments"
            )
        for payment in payments:
            _check_payment(payment)


def _check_payment(payment: Payment) -> None:
    where = f"payment {payment.end_to_end_id!r} of {payment.payment_info_id!r}"
    if payment.end_to_end_id is None:
        raise _invalid(f"a payment of {payment.payment_info_id!r} has no EndToEndId")
    if payment.amount is None or _decimal(payment.amount) < 0:
        raise _invalid(f"{where} has no amount, or a negative one")
    if payment.currency is None or not _CURRENCY.match(payment.currency):
        raise _invalid(f"{where} has no ISO 4217 currency code (Ccy)")


def _iban_warnings(ibans: list[str]) -> list[str]:
    warnings = []
    for iban in dict.fromkeys(ibans):
        compact = iban.replace(" ", "").upper()
        expected = IBAN_LENGTHS.get(compact[:2])
        if expected is not None and len(compact) != expected:
            warnings.append(
                f"IBAN {iban} has {len(compact)} characters; {compact[:2]} IBANs have {expected}"
            )
        elif not iban_valid(compact):
            warnings.append(f"IBAN {iban} fails its check digits (ISO 7064 MOD 97-10)")
    return warnings


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
        number = Decimal((value or "").strip())
    except InvalidOperation as exc:
        raise _invalid(f"{value!r} is not an amount") from exc
    if not number.is_finite():
        raise _invalid(f"{value!r} is not an amount")
    return number


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

    def all_ibans(self, initiation: etree._Element) -> list[str]:
        return [node.text.strip() for node in self.nodes(initiation, ".//p:IBAN") if node.text]

    def payments(self, info: etree._Element, kind: PaymentKind) -> list[Payment]:
        """The payments of one payment information block (PmtInf)."""
        credit = kind is PaymentKind.CREDIT_TRANSFER
        own, other, tx_tag = (
            ("Dbtr", "Cdtr", "CdtTrfTxInf") if credit else ("Cdtr", "Dbtr", "DrctDbtTxInf")
        )
        date_tag = "p:ReqdExctnDt" if credit else "p:ReqdColltnDt"
        requested = self.text(info, f"{date_tag}/p:Dt") or self.text(info, date_tag)
        payments = []
        for tx in self.nodes(info, f"p:{tx_tag}"):
            amount_node = self.first(tx, "p:Amt/p:InstdAmt" if credit else "p:InstdAmt")
            payments.append(
                Payment(
                    payment_info_id=self.text(info, "p:PmtInfId"),
                    requested_date=requested,
                    end_to_end_id=self.text(tx, "p:PmtId/p:EndToEndId"),
                    amount=self.text(amount_node, "."),
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
