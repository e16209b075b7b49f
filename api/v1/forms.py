"""The OpenAPI statements of the two upload forms: every constraint the API enforces
with a 422 is in the document, so a client (or schemathesis) knows it before sending."""

from __future__ import annotations

from typing import Any

from api.multipart import MAX_FIELDS
from processors.base import DocumentType
from storage.settings import Settings

MAX_EXTERNAL_ID_LENGTH: int = Settings.model_fields["max_external_id_length"].default


def _form_schema(file: dict[str, Any]) -> dict[str, Any]:
    properties = {
        "file": {"type": "string", "format": "binary", "minLength": 1, **file},
        "documentType": {
            "type": "string",
            "enum": [t.value for t in DocumentType],
            "default": DocumentType.AUTO.value,
        },
        "externalId": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_EXTERNAL_ID_LENGTH,
            "pattern": "^[^\\u0000]*$",
            "description": f"The caller's own id and idempotency key: 1 to"
            f" {MAX_EXTERNAL_ID_LENGTH} characters of UTF-8, without NUL.",
        },
    }
    schema = {
        "type": "object",
        "required": ["file"],
        "properties": properties,
        # Other fields are ignored, up to MAX_FIELDS of them besides the file.
        "maxProperties": 1 + MAX_FIELDS,
    }
    # The part's own Content-Type is not read: what a file is comes from its content.
    content = {"multipart/form-data": {"schema": schema}}
    return {"requestBody": {"required": True, "content": content}}


UPLOAD_FORM = _form_schema(
    {
        "description": "The document, not empty. Its type is read from its content, not from"
        " the part's Content-Type: a file that cannot be read becomes a failed upload"
        " (`unsupported_file_type`), one over the size limit too (`file_too_large`)."
    }
)
BATCH_FORM = _form_schema(
    {
        "contentMediaType": "application/zip",
        "description": "A ZIP archive with a readable central directory, no encrypted"
        " entries, 1 to 100 documents and at most 200 MiB unpacked (422 otherwise).",
    }
)


def created_links(operation_id: str, parameter: str) -> dict[int | str, dict[str, Any]]:
    """The 202 answer, linked to the operation that reads what it created."""
    link = {"operationId": operation_id, "parameters": {parameter: "$response.body#/id"}}
    return {202: {"description": "Accepted", "links": {operation_id: link}}}
