"""An incremental multipart/form-data parser: small fields are kept, the one file part
is handed out in chunks as it arrives, so a request is never held whole in memory."""

from __future__ import annotations

from dataclasses import dataclass, field

from python_multipart.exceptions import MultipartParseError
from python_multipart.multipart import MultipartParser, parse_options_header

from storage.errors import ValidationFailed

FILE_FIELD = "file"
MAX_FIELD_BYTES = 4096
# Parts besides the file, counted as they begin: repeats of one name count each time
# (200,000 parts named `a` took 2.9 s of the event loop when only names were counted).
MAX_FIELDS = 32


@dataclass
class _Part:
    name: str = ""
    file_name: str | None = None
    is_file: bool = False
    value: bytearray = field(default_factory=bytearray)
    overflow: bool = False


def _decode(raw: bytes, what: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationFailed(f"{what} is not valid UTF-8") from exc


class FormStream:
    def __init__(self, boundary: bytes) -> None:
        self.fields: dict[str, bytes] = {}
        self.overlong: set[str] = set()
        self.repeated: set[str] = set()
        self.file_name: str | None = None
        self.file_parts = 0
        self.field_parts = 0
        self.pending = bytearray()
        self.complete = False
        self._part = _Part()
        self._header_name = bytearray()
        self._header_value = bytearray()
        self._headers: dict[bytes, bytes] = {}
        self._parser = MultipartParser(
            boundary,
            callbacks={
                "on_part_begin": self._on_part_begin,
                "on_part_data": self._on_part_data,
                "on_part_end": self._on_part_end,
                "on_header_field": self._on_header_field,
                "on_header_value": self._on_header_value,
                "on_header_end": self._on_header_end,
                "on_headers_finished": self._on_headers_finished,
                "on_end": self._on_end,
            },
        )

    def feed(self, chunk: bytes) -> None:
        try:
            self._parser.write(chunk)
        except MultipartParseError as exc:
            raise ValidationFailed(f"malformed multipart body: {exc}") from exc

    def finish(self) -> None:
        if not self.complete:
            raise ValidationFailed("the multipart body ended before its closing boundary")

    def take_pending(self) -> bytearray:
        """Hand over the buffered file bytes without copying them."""
        data, self.pending = self.pending, bytearray()
        return data

    def field(self, name: str) -> str | None:
        if name in self.overlong:
            raise ValidationFailed(f"form field {name} is too long")
        if name in self.repeated:
            raise ValidationFailed(f"send form field {name} once")
        raw = self.fields.get(name)
        return None if raw is None else _decode(raw, f"form field {name}")

    def _on_part_begin(self) -> None:
        self._part = _Part()
        self._headers = {}

    def _on_header_field(self, data: bytes, start: int, end: int) -> None:
        self._header_name += data[start:end]

    def _on_header_value(self, data: bytes, start: int, end: int) -> None:
        self._header_value += data[start:end]

    def _on_header_end(self) -> None:
        if len(self._headers) > 16:
            raise ValidationFailed("too many part headers")
        self._headers[bytes(self._header_name).lower()] = bytes(self._header_value)
        self._header_name.clear()
        self._header_value.clear()

    def _on_headers_finished(self) -> None:
        _, options = parse_options_header(self._headers.get(b"content-disposition", b""))
        self._part.name = options.get(b"name", b"").decode("latin-1")
        raw_file_name = options.get(b"filename")
        self._part.is_file = self._part.name == FILE_FIELD
        if self._part.is_file:
            self.file_parts += 1
            if self.file_parts > 1:
                raise ValidationFailed("send exactly one file in the form field 'file'")
            self.file_name = _decode(raw_file_name, "the file name") if raw_file_name else ""
        else:
            self.field_parts += 1
            if self.field_parts > MAX_FIELDS:
                raise ValidationFailed(f"too many form fields: send at most {MAX_FIELDS}")

    def _on_part_data(self, data: bytes, start: int, end: int) -> None:
        if self._part.is_file:
            self.pending += memoryview(data)[start:end]
            return
        if len(self._part.value) + (end - start) > MAX_FIELD_BYTES:
            self._part.overflow = True
            return
        self._part.value += data[start:end]

    def _on_part_end(self) -> None:
        if self._part.is_file:
            return
        if self._part.overflow:
            self.overlong.add(self._part.name)
        if self._part.name in self.fields:
            self.repeated.add(self._part.name)
        self.fields[self._part.name] = bytes(self._part.value)

    def _on_end(self) -> None:
        self.complete = True
