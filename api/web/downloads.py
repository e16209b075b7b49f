"""Handing a stored file back under its upload's name: the web application's download
and the API's GET /v1/results/{id}/original."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from urllib.parse import quote

from fastapi.responses import StreamingResponse

from processors.base import FileKind
from processors.sniff import sniff
from storage.models import Upload
from storage.objectstore import ObjectStore

MEDIA_TYPES = {
    FileKind.PDF: "application/pdf",
    FileKind.XML: "application/xml",
    FileKind.ZIP: "application/zip",
}
FALLBACK_NAME = "download"
DOWNLOAD_CHUNK = 256 * 1024


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


def stored_upload(store: ObjectStore, uploads: Sequence[Upload]) -> Upload | None:
    """The first of these uploads that has a stored file, if that file is still there."""
    stored = next((u for u in uploads if u.object_key), None)
    if stored is None or stored.object_key is None or not store.exists(stored.object_key):
        return None
    return stored


def original_response(store: ObjectStore, uploads: Sequence[Upload]) -> StreamingResponse | None:
    """The file of the first of these uploads that still has one, streamed with its
    content type (by content) and name; None when none has."""
    stored = stored_upload(store, uploads)
    if stored is None or stored.object_key is None:
        return None
    reader = store.open_reader(stored.object_key)
    head = reader.read(DOWNLOAD_CHUNK)

    def chunks() -> Iterator[bytes]:
        try:
            yield head
            while block := reader.read(DOWNLOAD_CHUNK):
                yield block
        finally:
            reader.close()

    headers = {
        "Content-Disposition": content_disposition(stored.file_name),
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "private, no-store",
    }
    return StreamingResponse(chunks(), media_type=media_type_of(head), headers=headers)
