"""The hostile corpus, XML part: entities, fetches, depth, size and encodings.

Every generator returns the bytes of one document in the CII e-invoice namespace, so
the e-invoice processor's full parse (processors/xmlsafe.py) is what reads it.
"""

from __future__ import annotations

MiB = 1024 * 1024
INVOICE_CII = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"


def _invoice(body: str, prolog: str = '<?xml version="1.0" encoding="UTF-8"?>\n') -> str:
    root = "rsm:CrossIndustryInvoice"
    return f'{prolog}<{root} xmlns:rsm="{INVOICE_CII}">{body}</{root}>'


def xxe_file() -> bytes:
    doctype = '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
    return _invoice("&x;", f'<?xml version="1.0"?>\n{doctype}').encode()


def xxe_network(port: int) -> bytes:
    doctype = f'<!DOCTYPE r SYSTEM "http://127.0.0.1:{port}/dtd">\n'
    return _invoice("", f'<?xml version="1.0"?>\n{doctype}').encode()


def xxe_parameter_entity(port: int) -> bytes:
    doctype = f'<!DOCTYPE r [<!ENTITY % remote SYSTEM "http://127.0.0.1:{port}/pe">%remote;]>\n'
    return _invoice("", f'<?xml version="1.0"?>\n{doctype}').encode()


def xinclude(port: int) -> bytes:
    include = (
        f'<xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="http://127.0.0.1:{port}/x"/>'
    )
    return _invoice(include).encode()


def xslt_document_call(port: int) -> bytes:
    """A processing instruction asking for a stylesheet on the network."""
    prolog = f'<?xml version="1.0"?>\n<?xml-stylesheet type="text/xsl" href="http://127.0.0.1:{port}/s"?>\n'
    return _invoice("", prolog).encode()


def billion_laughs() -> bytes:
    entities = ['<!ENTITY l0 "ha">'] + [
        f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 10)
    ]
    doctype = "<!DOCTYPE r [" + "".join(entities) + "]>\n"
    return _invoice("&l9;", f'<?xml version="1.0"?>\n{doctype}').encode()


def quadratic_blowup() -> bytes:
    doctype = '<!DOCTYPE r [<!ENTITY a "' + "x" * 100_000 + '">]>\n'
    return _invoice("&a;" * 50_000, f'<?xml version="1.0"?>\n{doctype}').encode()


def deep_nesting(depth: int = 10_000) -> bytes:
    return _invoice("<a>" * depth + "</a>" * depth).encode()


def huge_attribute(size: int = 10 * MiB) -> bytes:
    return _invoice(f'<a b="{"x" * size}"/>').encode()


def many_attributes(count: int = 200_000) -> bytes:
    attributes = " ".join(f'a{n}="{n}"' for n in range(count))
    return _invoice(f"<a {attributes}/>").encode()


def huge_text(size: int = 45 * MiB) -> bytes:
    return _invoice("<a>" + "x" * size + "</a>").encode()


def utf16(bom: bool, big_endian: bool, declaration: str = "UTF-16") -> bytes:
    text = _invoice(
        "<a>\u00e4\u00f6\u00fc</a>", f'<?xml version="1.0" encoding="{declaration}"?>\n'
    )
    codec = "utf-16-be" if big_endian else "utf-16-le"
    prefix = (b"\xfe\xff" if big_endian else b"\xff\xfe") if bom else b""
    return prefix + text.encode(codec)


def utf32(big_endian: bool) -> bytes:
    text = _invoice("<a>\u00e4</a>", '<?xml version="1.0" encoding="UTF-32"?>\n')
    codec = "utf-32-be" if big_endian else "utf-32-le"
    prefix = b"\x00\x00\xfe\xff" if big_endian else b"\xff\xfe\x00\x00"
    return prefix + text.encode(codec)


def utf16_billion_laughs() -> bytes:
    """The DOCTYPE in UTF-16, where a byte search for "<!DOCTYPE" sees nothing."""
    return b"\xff\xfe" + billion_laughs().decode().replace(
        '<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>'
    ).encode("utf-16-le")


def declared_utf16_but_utf8() -> bytes:
    return _invoice("<a>x</a>", '<?xml version="1.0" encoding="UTF-16"?>\n').encode()


def unknown_encoding() -> bytes:
    return _invoice("<a>x</a>", '<?xml version="1.0" encoding="x-no-such-charset"?>\n').encode()


def ebcdic_declared() -> bytes:
    return _invoice("<a>x</a>", '<?xml version="1.0" encoding="IBM037"?>\n').encode()


def invalid_utf8() -> bytes:
    return _invoice("<a>x</a>").encode().replace(b"<a>x", b"<a>\xff\xfe\xc3(")


def nul_bytes() -> bytes:
    return _invoice("<a>\x00</a>").encode()
