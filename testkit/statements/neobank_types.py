"""Booking types of the generated neobank and broker cash accounts (issue 40, class 2),
printed in a column of their own: a trade that moves cash is a booking too."""

from __future__ import annotations

from testkit.statements.data import Kind

NEOBANK_DE_TYPES = {
    Kind.INCOMING: "Überweisung",
    Kind.OUTGOING: "Handel",
    Kind.DIRECT_DEBIT: "Lastschrift",
    Kind.CARD: "Kartentransaktion",
    Kind.FEE: "Gebühren",
}
NEOBANK_EN_TYPES = {
    Kind.INCOMING: "Transfer",
    Kind.OUTGOING: "Trade",
    Kind.DIRECT_DEBIT: "Direct debit",
    Kind.CARD: "Card transaction",
    Kind.FEE: "Fees",
}
NEOBANK_NL_TYPES = {
    Kind.INCOMING: "Overboeking",
    Kind.OUTGOING: "Handel",
    Kind.DIRECT_DEBIT: "Incasso",
    Kind.CARD: "Kaarttransactie",
    Kind.FEE: "Kosten",
}
