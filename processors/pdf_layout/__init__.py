"""The geometry of a PDF's pages, shared by the readers (see docs/pdf_invoices.md,
"Geometry and evidence"): pure, bytes or an open PDFium document in, frozen values out.

- words.py: words with their boxes, the spacing rebuilt from the glyphs (`page_words`)
- lines.py: words into lines, rows and blocks (`PageLayout`)
- pairs.py: a label's value, right of it or below it (`value_of`)
- tables.py: tables read by their aligned columns (`tables`)
- regions.py: the letterhead, footer, address window, buyer block, totals, item table
- locate.py: where a chosen value is printed, for its evidence (`locate_amount`, ...)
- ocr_words.py: the same words from a Tesseract reading
- document.py: `read_layout(data)`, a PDF's pages under the limits of processors/pdf.py

Boxes are `processors.results.evidence.Box`: points, origin top-left of the displayed
page, so a value's box is its evidence as it is.
"""
