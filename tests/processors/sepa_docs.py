"""Generated SEPA payment files: pain.001 and pain.008 in the ISO versions and national
variants the service reads, two payment information blocks of two payments each."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

ISO = "urn:iso:std:iso:20022:tech:xsd:"
SIX = "http://www.six-interbank-clearing.com/de/"


@dataclass(frozen=True)
class Variant:
    message_type: str  # what the service reports as messageType
    namespace: str
    bic_tag: str  # BIC in the 2009 versions, BICFI from the 2013 ones on
    dated_choice: bool  # pain.001 from .08 on: ReqdExctnDt/Dt
    schema: str | None  # the installed XSD the file is checked against, if any

    @property
    def credit(self) -> bool:
        return self.message_type.startswith("pain.001")


def _iso(version: str, schema: bool, base: str | None = None) -> Variant:
    modern = int(version.split(".")[3]) >= (4 if version.startswith("pain.001") else 3)
    dated = version.startswith("pain.001.001") and int(version.split(".")[3]) >= 8
    return Variant(
        version,
        ISO + version,
        "BICFI" if modern else "BIC",
        dated,
        (base or version) if schema else None,
    )


VARIANTS = {
    # Swiss SIX: own namespace, restricting the ISO 2009 versions
    "pain.001.001.03.ch.02": Variant(
        "pain.001.001.03.ch.02", SIX + "pain.001.001.03.ch.02.xsd", "BIC", False, "pain.001.001.03"
    ),
    "pain.008.001.02.ch.01": Variant(
        "pain.008.001.02.ch.01", SIX + "pain.008.001.02.ch.01.xsd", "BIC", False, "pain.008.001.02"
    ),
    # German DK: own middle number, restricting the ISO 2009 versions
    "pain.001.002.03": _iso("pain.001.002.03", True, "pain.001.001.03"),
    "pain.001.003.03": _iso("pain.001.003.03", True, "pain.001.001.03"),
    "pain.008.002.02": _iso("pain.008.002.02", True, "pain.008.001.02"),
    "pain.008.003.02": _iso("pain.008.003.02", True, "pain.008.001.02"),
    # ISO 2019 and later
    "pain.001.001.09": _iso("pain.001.001.09", True),
    "pain.001.001.10": _iso("pain.001.001.10", True),
    "pain.001.001.11": _iso("pain.001.001.11", True),
    "pain.001.001.12": _iso("pain.001.001.12", False),
    "pain.008.001.08": _iso("pain.008.001.08", True),
    "pain.008.001.09": _iso("pain.008.001.09", True),
    "pain.008.001.10": _iso("pain.008.001.10", True),
    "pain.008.001.11": _iso("pain.008.001.11", False),
}

OWN_IBAN = "DE89370400440532013000"
COUNTERPARTIES = (
    ("Lieferant GmbH", "DE02120300000000202051", "BYLADEM1001"),
    ("Fournisseur SA", "FR1420041010050500013M02606", "PSSTFRPPXXX"),
    ("Leverancier BV", "NL91ABNA0417164300", "ABNANL2AXXX"),
    ("Lieferant AG", "CH9300762011623852957", "UBSWCHZH80A"),
)
AMOUNTS = ("1250.00", "99.95", "0.01", "31337.42")


def total(amounts: tuple[str, ...] = AMOUNTS) -> str:
    return str(sum((Decimal(a) for a in amounts), Decimal("0")))


def payment_file(
    variant: Variant,
    *,
    control_sum: str | None = None,
    block_control_sum: str | None = None,
    iban_of_first: str | None = None,
) -> bytes:
    """A valid file of the variant; `control_sum` / `block_control_sum` replace the group
    header's / the first block's declared sums, `iban_of_first` the first payee's IBAN."""
    blocks = []
    for index in range(2):
        amounts = AMOUNTS[2 * index : 2 * index + 2]
        declared = block_control_sum if index == 0 and block_control_sum else total(amounts)
        transactions = "".join(
            _transaction(variant, 2 * index + n, iban_of_first if 2 * index + n == 0 else None)
            for n in range(2)
        )
        blocks.append(_block(variant, index, declared, transactions))
    root = "CstmrCdtTrfInitn" if variant.credit else "CstmrDrctDbtInitn"
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="{variant.namespace}"><{root}>
<GrpHdr><MsgId>MSG-{variant.message_type}</MsgId><CreDtTm>2026-11-30T10:00:00</CreDtTm>
<NbOfTxs>4</NbOfTxs><CtrlSum>{control_sum or total()}</CtrlSum>
<InitgPty><Nm>Acme GmbH</Nm></InitgPty></GrpHdr>
{"".join(blocks)}
</{root}></Document>""".encode()


def _agent(variant: Variant, bic: str) -> str:
    return f"<FinInstnId><{variant.bic_tag}>{bic}</{variant.bic_tag}></FinInstnId>"


def _block(variant: Variant, index: int, declared: str, transactions: str) -> str:
    date = "<Dt>2026-12-01</Dt>" if variant.dated_choice else "2026-12-01"
    own_agent = _agent(variant, "COBADEFFXXX")
    own = f"""<Nm>Acme GmbH</Nm></{{side}}><{{side}}Acct><Id><IBAN>{OWN_IBAN}</IBAN></Id>
</{{side}}Acct><{{side}}Agt>{own_agent}</{{side}}Agt>"""
    if variant.credit:
        return f"""<PmtInf><PmtInfId>PMT-{index}</PmtInfId><PmtMtd>TRF</PmtMtd>
<NbOfTxs>2</NbOfTxs><CtrlSum>{declared}</CtrlSum>
<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl></PmtTpInf><ReqdExctnDt>{date}</ReqdExctnDt>
<Dbtr>{own.format(side="Dbtr")}<ChrgBr>SLEV</ChrgBr>{transactions}</PmtInf>"""
    return f"""<PmtInf><PmtInfId>PMT-{index}</PmtInfId><PmtMtd>DD</PmtMtd>
<NbOfTxs>2</NbOfTxs><CtrlSum>{declared}</CtrlSum>
<PmtTpInf><SvcLvl><Cd>SEPA</Cd></SvcLvl><LclInstrm><Cd>CORE</Cd></LclInstrm>
<SeqTp>RCUR</SeqTp></PmtTpInf><ReqdColltnDt>2026-12-01</ReqdColltnDt>
<Cdtr>{own.format(side="Cdtr")}<ChrgBr>SLEV</ChrgBr>
<CdtrSchmeId><Id><PrvtId><Othr><Id>DE98ZZZ09999999999</Id><SchmeNm><Prtry>SEPA</Prtry>
</SchmeNm></Othr></PrvtId></Id></CdtrSchmeId>{transactions}</PmtInf>"""


def _transaction(variant: Variant, number: int, iban: str | None) -> str:
    name, default_iban, bic = COUNTERPARTIES[number]
    amount = AMOUNTS[number]
    account = f"<Id><IBAN>{iban or default_iban}</IBAN></Id>"
    remittance = f"<RmtInf><Ustrd>Rechnung {1000 + number}</Ustrd></RmtInf>"
    if variant.credit:
        return f"""<CdtTrfTxInf><PmtId><EndToEndId>E2E-{number}</EndToEndId></PmtId>
<Amt><InstdAmt Ccy="EUR">{amount}</InstdAmt></Amt><CdtrAgt>{_agent(variant, bic)}</CdtrAgt>
<Cdtr><Nm>{name}</Nm></Cdtr><CdtrAcct>{account}</CdtrAcct>{remittance}</CdtTrfTxInf>"""
    return f"""<DrctDbtTxInf><PmtId><EndToEndId>E2E-{number}</EndToEndId></PmtId>
<InstdAmt Ccy="EUR">{amount}</InstdAmt><DrctDbtTx><MndtRltdInf><MndtId>M-{number}</MndtId>
<DtOfSgntr>2025-01-15</DtOfSgntr></MndtRltdInf></DrctDbtTx>
<DbtrAgt>{_agent(variant, bic)}</DbtrAgt><Dbtr><Nm>{name}</Nm></Dbtr>
<DbtrAcct>{account}</DbtrAcct>{remittance}</DrctDbtTxInf>"""
