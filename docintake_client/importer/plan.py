"""Planning: the journal's earlier batches kept as they were, new files packed greedily.

A packed batch's externalId is a hash of its members (relative path and content hash),
so the same files packed the same way are the same batch to the server.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from docintake_client.importer.journal import Journal
from docintake_client.importer.model import Discovery, Document, ImportLimits, Plan

ZIP_ENTRY_OVERHEAD = 128  # local header + central directory record, plus the name twice


def _batch_external_id(documents: Iterable[Document]) -> str:
    keys = "\n".join(sorted(document.key for document in documents))
    return "import-" + hashlib.sha256(keys.encode()).hexdigest()[:40]


def _packed_size(document: Document) -> int:
    return document.size + ZIP_ENTRY_OVERHEAD + 2 * len(document.path.encode())


def pack(documents: Sequence[Document], limits: ImportLimits) -> list[Plan]:
    """Greedy in path order: a batch closes at max_files or max_batch_bytes.

    1% of max_batch_bytes is kept back: the request body (ZIP headers, deflate's framing
    of incompressible data, multipart) must also stay under the server's request cap."""
    budget = limits.max_batch_bytes - limits.max_batch_bytes // 100
    groups: list[list[Document]] = []
    current: list[Document] = []
    current_bytes = 0
    for document in sorted(documents, key=lambda d: d.path):
        size = _packed_size(document)
        if current and (len(current) >= limits.max_files or current_bytes + size > budget):
            groups.append(current)
            current, current_bytes = [], 0
        current.append(document)
        current_bytes += size
    if current:
        groups.append(current)
    return [Plan(_batch_external_id(group), tuple(group)) for group in groups]


def plan_batches(discovery: Discovery, journal: Journal, limits: ImportLimits) -> list[Plan]:
    """The journal's earlier plans first (same members, same externalId), then new ones."""
    by_key = {document.key: document for document in discovery.loose}
    archives = {plan.external_id for plan in discovery.archives}
    kept: list[Plan] = []
    for external_id, members in journal.planned.items():
        if external_id in archives:
            continue  # a local ZIP sent as it is: planned again from discovery, unchanged
        documents = [by_key[key] for key in members if key in by_key]
        if len(documents) == len(members) or (documents and external_id in journal.accepted):
            kept.append(Plan(external_id, tuple(documents)))
            for document in documents:
                by_key.pop(document.key)
    return [*kept, *discovery.archives, *pack(list(by_key.values()), limits)]
