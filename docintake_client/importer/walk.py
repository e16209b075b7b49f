"""Discovery: walk the given folders, open local ZIP archives, refuse what is too large.

Hidden files and `__MACOSX/` are skipped, as the server skips them in archives. A ZIP
within the limits is kept whole (sent as it is); otherwise its entries join the loose
files to be packed.
"""

from __future__ import annotations

import hashlib
import os
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from docintake_client.importer.model import MIB, Discovery, Document, ImportLimits, Plan, Row


def _is_junk(relative: str) -> bool:
    parts = relative.split("/")
    return "__MACOSX" in parts or parts[-1].startswith(".")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(MIB), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _walk(root: Path) -> Iterator[tuple[Path, str]]:
    """Files under `root` with their paths relative to root's parent, sorted."""
    if root.is_file():
        yield root, root.name
        return
    for directory, subdirectories, files in os.walk(root):
        subdirectories.sort()
        for name in sorted(files):
            path = Path(directory) / name
            yield path, path.relative_to(root.parent).as_posix()


def _too_large(path: str, size: int, limits: ImportLimits) -> Row:
    message = f"{size} bytes is over the {limits.max_file_bytes} byte limit; not sent"
    return Row(path, None, "failed", None, "file_too_large", message)


def _archive_external_id(relative: str, digest: str) -> str:
    return "import-zip-" + hashlib.sha256(f"{relative}\0{digest}".encode()).hexdigest()[:40]


def _zip_documents(path: Path, relative: str) -> list[Document]:
    with zipfile.ZipFile(path) as archive:
        infos = [i for i in archive.infolist() if not i.is_dir() and not _is_junk(i.filename)]
        return [
            Document(
                path=f"{relative}/{info.filename}",
                size=info.file_size,
                digest=hashlib.sha256(archive.read(info)).hexdigest(),
                source=path,
                entry=info.filename,
            )
            for info in infos
        ]


def _discover_zip(path: Path, relative: str, limits: ImportLimits) -> Discovery:
    try:
        documents = _zip_documents(path, relative)
    except (zipfile.BadZipFile, RuntimeError, OSError, ValueError, EOFError) as exc:
        row = Row(relative, None, "failed", None, "invalid_archive", f"not sent: {exc}")
        return Discovery((), (), (row,))
    fits = [d for d in documents if d.size <= limits.max_file_bytes]
    refused = tuple(_too_large(d.path, d.size, limits) for d in documents if d not in fits)
    within = (
        not refused
        and 0 < len(documents) <= limits.max_files
        and sum(d.size for d in documents) <= limits.max_batch_bytes
    )
    if within:
        plan = Plan(_archive_external_id(relative, sha256_file(path)), tuple(documents), path)
        return Discovery((), (plan,), ())
    return Discovery(tuple(fits), (), refused)


def discover(paths: Sequence[Path], limits: ImportLimits) -> Discovery:
    loose: list[Document] = []
    archives: list[Plan] = []
    refused: list[Row] = []
    seen: set[str] = set()
    for root in paths:
        for path, found_as in _walk(root):
            if _is_junk(found_as):
                continue
            # Two roots of the same name (a/docs, b/docs): the absolute path tells apart.
            relative = found_as if found_as not in seen else path.resolve().as_posix().lstrip("/")
            seen.add(relative)
            if path.suffix.lower() == ".zip" and zipfile.is_zipfile(path):
                found = _discover_zip(path, relative, limits)
                loose += found.loose
                archives += found.archives
                refused += found.refused
                continue
            size = path.stat().st_size
            if size > limits.max_file_bytes:
                refused.append(_too_large(relative, size, limits))
            else:
                loose.append(Document(relative, size, sha256_file(path), path))
    return Discovery(tuple(loose), tuple(archives), tuple(refused))
