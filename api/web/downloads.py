"""Headers for handing a stored file back to the browser under its upload's name."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from processors.base import FileKind
from processors.sniff import sniff

MEDIA_TYPES = {
    FileKind.PDF: "application/pdf",
    FileKind.XML: "application/xml",
    FileKind.ZIP: "application/zip",
}
FALLBACK_NAME = "download"


def content_disposition(file_name: str) -> str:
    """`attachment` with an ASCII fallback name and the exact name as RFC 5987
    `filename*`. Quotes, backslashes, control characters and path separators never
    reach the header, so a file name cannot break out of it or name a folder."""
    cleaned = "".join(ch for ch in file_name if unicodedata.category(ch)[0] != "C")
    cleaned = cleaned.replace("/", "_").replace("\\", "_").strip() or FALLBACK_NAME
    ascii_name = unicodedata.normalize("NFKD", cleaned).encode("ascii", "ignore").decode()
    ascii_name = re.sub(r'["%;]', "_", ascii_name).strip() or FALLBACK_NAME
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(cleaned, safe='')}"


def media_type_of(head: bytes) -> str:
    """By content, as everywhere in the service; never by the client's file name."""
    return MEDIA_TYPES.get(sniff(head), "application/octet-stream")
