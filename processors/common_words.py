"""Frequent words of German and English, and the commonest function words of Dutch,
French, Spanish and Italian: the dictionary of the scrambled-text gate
(`processors/text_quality.py`). Written by hand: function words, frequent verbs and the
vocabulary of business letters, invoices, statements and forms. Words of three letters
or more, lower case, folded as `text_quality.fold` folds them (accents dropped, umlauts
and ß kept). A text in these languages has a good share of its words here; a text
layer whose letters are permuted has almost none.
"""

from __future__ import annotations

_GERMAN = """
der die das den dem des ein eine einen einem einer eines und oder aber auch als wie
wir sie ihr ihre ihren ihrem ihrer ihnen ich mich mir sich uns unser unsere unseren
unserem unserer euch ist sind war waren wird werden wurde wurden worden sein seine
seinen seinem seiner hat haben hatte hatten habe kann koennen konnte muss mussen
müssen soll sollen will wollen darf mag möchten nicht nur noch schon sehr mehr viel
viele alle allen aller alles jede jeden jedem jeder jedes keine keinen kein diese
dieser dieses diesem diesen jener man wenn dann dass weil damit denn doch falls sowie
bzw bitte danke für mit von vom bei beim aus auf nach vor über unter zum zur zwischen
gegen ohne durch bis seit innerhalb außerhalb gemäß laut wegen trotz während hier dort
heute morgen jetzt bereits wieder immer sofort gern gerne ihnen sehr geehrte geehrter
damen herren freundlichen grüßen mfg hiermit anbei beiliegend gerne fragen stehen
rechnung rechnungen rechnungsnummer rechnungsdatum rechnungsbetrag gutschrift
quittung beleg kassenbon bon betrag beträge summe gesamt gesamtbetrag gesamtsumme
zwischensumme netto nettobetrag brutto bruttobetrag steuer steuern umsatzsteuer
mehrwertsteuer mwst ust steuernummer zahlbar zahlung zahlungen zahlungsziel
zahlungsbedingungen überweisung überweisen lastschrift einzug gutschrift gebühr
gebühren preis preise einzelpreis gesamtpreis menge anzahl stück einheit position
pos artikel artikelnummer beschreibung bezeichnung leistung leistungen leistungszeitraum
lieferung lieferdatum lieferschein versand versandkosten porto rabatt skonto
datum tag tage monat monate jahr jahre woche zeitraum seite seiten blatt nummer
kunde kunden kundennummer kundennr auftrag auftragsnummer bestellung bestellnummer
angebot vertrag vertragsnummer konto kontonummer kontoinhaber kontoauszug kontostand
auszug saldo alter neuer bank sparkasse volksbank postbank bankverbindung
buchung buchungen buchungstag buchungsdatum valuta wert wertstellung verwendungszweck
empfänger auftraggeber absender zahlungsempfänger referenz mandat mandatsreferenz
gläubiger glaeubiger haben soll guthaben lastschriften gutschriften umsätze umsatz
kreditkarte karte karten abrechnung abrechnungszeitraum zinsen zins entgelt entgelte
telefon telefax fax mail email internet web adresse anschrift straße strasse platz
weg allee postfach postleitzahl stadt ort land deutschland österreich schweiz
firma gesellschaft geschäftsführer geschäftsführung inhaber amtsgericht handelsregister
sitz registergericht vorstand aufsichtsrat vorsitzender steuerberater finanzamt
herr frau name vorname nachname geburtsdatum unterschrift ort datum hinweis hinweise
bitte beachten sie vielen dank ihren ihrem auftrag einkauf kauf verkauf verkäufer
käufer lieferant lieferanten händler mitarbeiter service kundenservice hotline
januar februar märz april mai juni juli august september oktober november dezember
montag dienstag mittwoch donnerstag freitag samstag sonntag
eins zwei drei vier fünf sechs sieben acht neun zehn hundert tausend
euro cent prozent inklusive inkl zzgl zuzüglich abzüglich insgesamt davon gesamt
neu alt groß klein gut erste ersten zweite letzte letzten folgende folgenden
siehe gilt gelten erhalten erhalt senden gesendet bezahlt bezahlen offen offene
fällig fälligkeit mahnung erinnerung frist fristen tage tagen innerhalb
bar barzahlung wechselgeld gegeben rückgeld kasse kassierer tisch bedienung
speisen getränke essen trinken wasser kaffee bier wein menü
preisliste kontenrahmen kontenplan aufwand aufwendungen erlöse erträge vermögen
kapital verbindlichkeiten forderungen bestand bilanz
"""

_ENGLISH = """
the and for are but not you all any can had her was one our out has have him his how
its may new now old see two who did get let put say she too use way with that this
from they will would there their them then than what when where which while about
after again also been before being both could each into just like more most much
must only other over some such very were your yours here these those upon within
without between through during under above below until because should shall
please thank thanks dear sir madam regards sincerely kind yours faithfully
invoice invoices bill billing receipt credit note debit statement account accounts
amount amounts total subtotal sum balance due paid payment payments pay payable
price prices unit quantity qty item items description details reference number
date dates period month months year years day days week page pages issue issued
tax taxes vat gst sales net gross discount shipping handling delivery order orders
customer customers client supplier vendor seller buyer company limited ltd inc
address street road avenue city state country postcode zip phone telephone fax
email website bank transfer opening closing available interest fee fees charge
charges card cards purchase purchases deposit deposits withdrawal withdrawals
transaction transactions booking value currency exchange rate terms conditions
service services product products goods hours hour rate cost costs expense expenses
january february march april may june july august september october november
december monday tuesday wednesday thursday friday saturday sunday
one two three four five six seven eight nine ten hundred thousand
first second last next previous current new based per cent percent including
excluding inclusive included plus less minus further information contact
questions support office head registered director directors signature name
cash change tip table server guest guests food drinks drink coffee tea
price list chart general ledger assets liabilities equity revenue income
"""

_DUTCH = """
het een van voor met niet zijn wordt worden ook aan als bij door naar deze dit dat
uit over onder tot wij onze factuur datum bedrag totaal betaling rekening
omschrijving overschrijving afschrift rekeningafschrift beginsaldo eindsaldo naam
"""
_FRENCH = """
les des est une pour par dans sur avec pas plus que qui sont vous nous votre notre
aux ces cette facture montant date total paiement compte
releve solde virement prelevement operation operations libelle debit credit banque
"""
_SPANISH = """
los las del una por con para que son como sus esta este factura importe fecha cuenta
extracto movimientos concepto transferencia recibo banco anterior
"""
_ITALIAN = """
gli della delle degli dei per con che sono una non questo questa fattura importo
estratto conto movimenti descrizione bonifico addebito accredito banca iniziale finale
"""
_NEIGHBOURS = {"nld": _DUTCH, "fra": _FRENCH, "spa": _SPANISH, "ita": _ITALIAN}

GERMAN_WORDS = frozenset(_GERMAN.split())
ENGLISH_WORDS = frozenset(_ENGLISH.split())
NEIGHBOUR_WORDS = {language: frozenset(words.split()) for language, words in _NEIGHBOURS.items()}
"""By Tesseract's model name: the words that tell an OCR reading's language."""
COMMON_WORDS = frozenset((_GERMAN + _ENGLISH + "".join(_NEIGHBOURS.values())).split())
