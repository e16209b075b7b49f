"""Where the rule artefacts live, and compiled forms of them cached per process.

`scripts/install_rules.py` unpacks pinned wheels into `<sys.prefix>/share/docintake-rules`.
Each XSD and XSLT is compiled once per process on first use (thread-safe). Saxon's
Python binding is not documented as thread-safe, so transforms run under one lock.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import saxonche  # type: ignore[import-not-found]
from lxml import etree

from processors.xmlsafe import make_parser

T = TypeVar("T")

RULES_DIR_NAME = "docintake-rules"


class RulesNotInstalledError(RuntimeError):
    """The rule artefacts are missing: run scripts/install_rules.py."""


def default_rules_dir() -> Path:
    return Path(sys.prefix) / "share" / RULES_DIR_NAME


def rules_dir(path: Path | None = None) -> Path:
    """The rules root: `path` if given, else the venv's share directory."""
    root = path if path is not None else default_rules_dir()
    if not (root / "kosit").is_dir() or not (root / "factur-x").is_dir():
        raise RulesNotInstalledError(
            f"e-invoice rules not found under {root}; run scripts/install_rules.py"
        )
    return root


def artefact(relative: str, root: Path | None = None) -> Path:
    path = rules_dir(root) / relative
    if not path.is_file():
        raise RulesNotInstalledError(f"rule artefact missing: {path}")
    return path


class _Cache:
    """A lazily filled, lock-protected map from a key to a compiled artefact."""

    def __init__(self) -> None:
        self._items: dict[Path, object] = {}
        self._lock = threading.Lock()

    def get(self, key: Path, build: Callable[[Path], T]) -> T:
        with self._lock:
            if key not in self._items:
                self._items[key] = build(key)
            return self._items[key]  # type: ignore[return-value]


_schemas = _Cache()
_stylesheets = _Cache()
_saxon_lock = threading.RLock()
_saxon: list[object] = []


def xml_schema(path: Path) -> etree.XMLSchema:
    """A compiled XSD (imports resolved relative to the file, never from the network)."""
    return _schemas.get(path, _compile_schema)


def _compile_schema(path: Path) -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(path), parser=make_parser()))


# Saxon fetches what a stylesheet or document names (doc(), unparsed-text(), imports)
# over any protocol by default, http included; our stylesheets only read local files.
_ALLOWED_PROTOCOLS = "http://saxon.sf.net/feature/allowedProtocols"


def _processor() -> saxonche.PySaxonProcessor:
    with _saxon_lock:
        if not _saxon:
            processor = saxonche.PySaxonProcessor(license=False)
            processor.set_configuration_property(_ALLOWED_PROTOCOLS, "file")
            _saxon.append(processor)
        return _saxon[0]


def stylesheet(path: Path) -> saxonche.PyXsltExecutable:
    return _stylesheets.get(path, _compile_stylesheet)


def _compile_stylesheet(path: Path) -> saxonche.PyXsltExecutable:
    with _saxon_lock:
        compiler = _processor().new_xslt30_processor()
        return compiler.compile_stylesheet(stylesheet_file=str(path))


def run_stylesheets(paths: list[Path], document_text: str) -> list[str]:
    """Apply each stylesheet to the document (parsed once); the serialized results."""
    executables = [stylesheet(path) for path in paths]
    with _saxon_lock:
        node = _processor().parse_xml(xml_text=document_text)
        return [str(executable.transform_to_string(xdm_node=node)) for executable in executables]
