"""The processors' words (English, shared with the API) as the pages show them: in the
catalogue, so German pages say them in German. Failure codes get an explanation and a
next step; the processors' small fixed grammars (direction reasons, the totals check,
the schema check, XML positions) are parsed into Messages. Text outside those grammars
is shown as it is, which tests/web/test_failure_texts.py guards for what is known."""

from __future__ import annotations

import re
from dataclasses import dataclass

from api.web.i18n import N_, Message
from processors.archive import ArchiveProblem
from processors.base import FailureCode


@dataclass(frozen=True)
class FailureText:
    title: str  # what went wrong, in a few words (the heading)
    explanation: str  # why, in the accountant's words
    next_step: str  # what to do about it


FAILURE_TEXTS = {
    FailureCode.UNSUPPORTED_FILE_TYPE: FailureText(
        N_("File type not supported"),
        N_("The file is not a PDF, an XML file or a ZIP archive, so it could not be read."),
        N_("Ask the sender for the document as a PDF or an e-invoice (XML) and upload it again."),
    ),
    FailureCode.FILE_TOO_LARGE: FailureText(
        N_("File too large"),
        N_("The file is larger than the service reads, or it unpacks to too much."),
        N_("Split the document or the archive into smaller files and upload them again."),
    ),
    FailureCode.INVALID_E_INVOICE: FailureText(
        N_("Invalid e-invoice"),
        N_("The e-invoice breaks rules of EN 16931 or its profile; the findings say which."),
        N_(
            "Send the findings to the issuer and ask for a corrected e-invoice; an invalid "
            "one does not entitle you to deduct input tax."
        ),
    ),
    FailureCode.PASSWORD_PROTECTED: FailureText(
        N_("Protected by a password"),
        N_("The PDF is password-protected, so its content could not be read."),
        N_("Ask the sender for a copy without a password, or remove it, and upload it again."),
    ),
    FailureCode.NOT_A_BANK_STATEMENT: FailureText(
        N_("Not a bank statement"),
        N_("The file was sent as a bank statement, but it shows no balances and no bookings."),
        N_("Upload the bank's statement PDF, or upload this file with the type it has."),
    ),
    FailureCode.NO_TRANSACTIONS_FOUND: FailureText(
        N_("No transactions found"),
        N_("The bank statement was read, but it lists no transactions."),
        N_("Check that the export from the bank covers the right period and upload it again."),
    ),
    FailureCode.UNREADABLE_DOCUMENT: FailureText(
        N_("Document unreadable"),
        N_("The file is damaged or not what it claims to be, so it could not be read."),
        N_("Open the file yourself; if it is damaged, ask the sender for it again."),
    ),
    FailureCode.PROCESSING_FAILED: FailureText(
        N_("Reading failed"),
        N_("The service could not finish reading this file; the file itself may be fine."),
        N_("Retry it. If it fails again, tell your administrator."),
    ),
}
UNKNOWN_FAILURE = FailureText(
    N_("Failed"),
    N_("The file could not be read."),
    N_("Download it to check it, or upload it again."),
)


# Why a whole batch failed (processors/archive.py ArchiveProblem; flows/unpack.py
# DMARC_FAILED); a batch's reading failure is a FailureCode.
BATCH_FAILURE_TEXTS = {
    ArchiveProblem.INVALID.value: FailureText(
        N_("Archive unreadable"),
        N_("The ZIP archive is damaged or not a ZIP archive; none of its files was read."),
        N_("Ask the sender for the archive again, or send its files one by one."),
    ),
    ArchiveProblem.TOO_MANY_FILES.value: FailureText(
        N_("Too many files in the archive"),
        N_("The archive holds more files than one batch may; none of them was read."),
        N_("Split the files into several smaller archives and upload them again."),
    ),
    ArchiveProblem.TOO_LARGE.value: FailureText(
        N_("Archive too large"),
        N_("The archive unpacks to more than one batch may hold; none of its files was read."),
        N_("Split the files into several smaller archives and upload them again."),
    ),
    "dmarc_failed": FailureText(
        N_("Sender not verified"),
        N_("The e-mail failed the sender check (DMARC), and the company refuses such mail."),
        N_("Check with the sender; if the mail is genuine, upload its attachments yourself."),
    ),
}
_ALL_FAILURES: dict[str, FailureText] = {
    **{code.value: text for code, text in FAILURE_TEXTS.items()},
    **BATCH_FAILURE_TEXTS,
}


def failure_text(code: str | None) -> FailureText:
    return _ALL_FAILURES.get(code or "", UNKNOWN_FAILURE)


# --- the direction's reason (processors/invoice_model.py decide_direction) -----------

_MATCHED_BY = {"name": N_("by name"), "identifier": N_("by VAT id, tax number or IBAN")}
_REQUESTED = "requested by client; parties: "
_ONE_PARTY = re.compile(r"(seller|buyer) matches the company by (name|identifier)")
_BOTH = re.compile(r"both parties match the company by (name|identifier)")


def direction_reason(reason: str | None) -> str | Message | None:
    if not reason:
        return None
    if reason.startswith(_REQUESTED):
        parties = direction_reason(reason.removeprefix(_REQUESTED))
        return Message(N_("chosen when uploading; the parties: %(parties)s"), {"parties": parties})
    if reason == "neither party matches the company":
        return N_("neither party matches the company")
    if one := _ONE_PARTY.fullmatch(reason):
        msgid = (
            N_("the seller matches the company %(how)s")
            if one[1] == "seller"
            else N_("the buyer matches the company %(how)s")
        )
        return Message(msgid, {"how": Message(_MATCHED_BY[one[2]])})
    if both := _BOTH.fullmatch(reason):
        return Message(
            N_("both parties match the company %(how)s"), {"how": Message(_MATCHED_BY[both[1]])}
        )
    return reason


# --- the totals check (processors/pdf_invoices/totals_choice.py) ----------------------

_TOTALS_PARTS = {
    "net + VAT = gross": N_("net + VAT = gross"),
    "gross - prepaid = amount due": N_("gross - prepaid = amount due"),
    "the amount due printed is not the gross less what was prepaid": N_(
        "the amount due printed is not the gross less what was prepaid"
    ),
}


def totals_explained(explained: str | None) -> str | Message | None:
    if not explained:
        return None
    parts = explained.split("; ")
    if not all(part in _TOTALS_PARTS for part in parts):
        return explained
    joined = Message(_TOTALS_PARTS[parts[0]])
    for part in parts[1:]:
        joined = Message(
            N_("%(first)s; %(then)s"), {"first": joined, "then": Message(_TOTALS_PARTS[part])}
        )
    return joined


# --- the schema check of a SEPA file (processors/sepa_messages.py) --------------------

_AGAINST_ISO = re.compile(
    r"passed against ISO (\S+), which (.+) restricts \(its own restrictions are not checked\)"
)


def schema_summary(summary: str | None) -> str | Message | None:
    if not summary:
        return None
    if summary == "passed":
        return N_("passed")
    if summary == "not available for this version":
        return N_("not available for this version")
    if against := _AGAINST_ISO.fullmatch(summary):
        return Message(
            N_("passed against ISO %(base)s, which %(variant)s restricts (not checked itself)"),
            {"base": against[1], "variant": against[2]},
        )
    return summary


# --- a position in an XML file (processors/einvoice/validation.py) --------------------

_LINE_COLUMN = re.compile(r"(?:at )?line (\d+), column (\d+)")


def xml_position(location: str | None) -> str | Message | None:
    if location is None:
        return None
    if found := _LINE_COLUMN.fullmatch(location):
        return Message(
            N_("line %(line)s, column %(column)s"), {"line": found[1], "column": found[2]}
        )
    return location
