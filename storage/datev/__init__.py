"""DATEV export: the company's DATEV settings, the bookings of an invoice, and the two
formats (EXTF Buchungsstapel, XML-Schnittstelle online). `settings`, `bookings`, `extf`
and `xml_online` are pure (frozen values in, bytes out: no DB, no object store);
`export` gathers a period's invoices through the repositories and records the export.
docs/datev.md describes the formats and what was followed."""
