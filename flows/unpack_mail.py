"""Unpacking an e-mail batch's message into entries, in a reading process (kernel
limits, like an archive: flows/unpack.py). processors/email_message.py parses the
message; each attachment is stored under the batch's entry keys, a ZIP attachment
member by member with the archive's limits (processors/archive.py), all of them counted
against one budget and one file count. What breaks a limit refuses the whole message:
the batch fails and keeps nothing (all or nothing, as a ZIP batch)."""

from __future__ import annotations

import functools
import hashlib
import io
import uuid
import zipfile
from collections.abc import Callable, Iterator

from processors.archive import (
    ArchiveLimits,
    ArchiveProblem,
    ArchiveRejected,
    Budget,
    UnpackedEntry,
    document_entries,
    open_archive,
    read_member,
)
from processors.email_message import Attachment, MessageHead, read_message
from storage.objectstore import ObjectStore

Sink = Callable[[bytes], None]


def entry_key(batch_id: uuid.UUID, position: int) -> str:
    return f"batches/{batch_id}/entries/{position}"


def store_entry(
    store: ObjectStore, key: str, read: Callable[[Sink], UnpackedEntry]
) -> UnpackedEntry:
    """`read` writes an entry's bytes into the store under `key`; kept unless the entry
    is too large or unreadable."""
    writer = store.open_writer(key)
    try:
        entry = read(writer.write)
    except BaseException:
        writer.abort()
        raise
    if entry.too_large or entry.unreadable:
        writer.abort()
    else:
        writer.commit()
    return entry


def _plain(
    attachment: Attachment, position: int, *, limits: ArchiveLimits, budget: Budget
) -> Callable[[Sink], UnpackedEntry]:
    def read(sink: Sink) -> UnpackedEntry:
        payload, name = attachment.payload, attachment.name
        digest = hashlib.sha256(payload).hexdigest()
        if attachment.problem is not None:
            return UnpackedEntry(position, name, digest, 0, False, attachment.problem)
        budget.take(len(payload))
        if len(payload) > limits.max_file_bytes:
            return UnpackedEntry(position, name, digest, len(payload), True, None)
        sink(payload)
        return UnpackedEntry(position, name, digest, len(payload), False, None)

    return read


def _member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, limits: ArchiveLimits, budget: Budget
) -> Callable[[int], Callable[[Sink], UnpackedEntry]]:
    def at(position: int) -> Callable[[Sink], UnpackedEntry]:
        return functools.partial(read_member, archive, info, position, limits, budget)

    return at


def _readers(
    attachments: tuple[Attachment, ...], limits: ArchiveLimits, budget: Budget
) -> Iterator[Callable[[int], Callable[[Sink], UnpackedEntry]]]:
    """One reader per entry to be: a plain attachment is one, a ZIP one per document."""
    for attachment in attachments:
        if not attachment.is_archive or attachment.problem is not None:
            yield functools.partial(_plain, attachment, limits=limits, budget=budget)
            continue
        archive = open_archive(io.BytesIO(attachment.payload), limits)
        for info in document_entries(archive, limits):
            yield _member(archive, info, limits, budget)


def store_message_entries(
    store: ObjectStore, batch_id: uuid.UUID, raw: bytes, limits: ArchiveLimits
) -> tuple[list[UnpackedEntry], MessageHead]:
    message = read_message(raw, limits.max_files)
    budget, entries = Budget(limits.max_total_bytes), []
    for position, reader in enumerate(_readers(message.attachments, limits, budget)):
        if position >= limits.max_files:
            raise ArchiveRejected(
                ArchiveProblem.TOO_MANY_FILES,
                f"the message's attachments hold more than {limits.max_files} files",
            )
        entries.append(store_entry(store, entry_key(batch_id, position), reader(position)))
    return entries, message.head
