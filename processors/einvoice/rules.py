"""Where the rule artefacts live, and compiled forms of them cached per process.

`scripts/install_rules.py` unpacks pinned wheels into `<sys.prefix>/share/docintake-rules`.
Each XSD and XSLT is compiled once per process on first use (thread-safe). Saxon's
Python binding is not documented as thread-safe, so transforms run under one lock.

Every schematron stylesheet runs behind a guard: a stylesheet that imports it and wraps
it in `xsl:try`, so a dynamic error inside it (an amount repeated in a second currency
where a rule casts one value) comes back as a `stylesheet-error` report naming the
error, the stylesheet module and its line, instead of an exception; an error the guard
cannot catch (in a global variable) comes back as one naming the stylesheet only
(`processors/einvoice/stylesheet_errors.py` turns either into a finding).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar
from xml.sax.saxutils import quoteattr

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


def start_saxon() -> None:
    """Start Saxon now: it reserves its address space when it starts, which a process
    that is about to limit its own address space must do first."""
    _processor()


def _processor() -> saxonche.PySaxonProcessor:
    with _saxon_lock:
        if not _saxon:
            processor = saxonche.PySaxonProcessor(license=False)
            processor.set_configuration_property(_ALLOWED_PROTOCOLS, "file")
            _saxon.append(processor)
        return _saxon[0]


def stylesheet(path: Path) -> saxonche.PyXsltExecutable:
    return _stylesheets.get(path, _compile_stylesheet)


STYLESHEET_ERROR_NAMESPACE = "urn:docintake:stylesheet-error"
STYLESHEET_ERROR = f"{{{STYLESHEET_ERROR_NAMESPACE}}}stylesheet-error"
_GUARD = """<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
    xmlns:err="http://www.w3.org/2005/xqt-errors" exclude-result-prefixes="err">
  <xsl:import href=%(href)s/>
  <xsl:template match="/">
    <xsl:try>
      <xsl:apply-imports/>
      <xsl:catch>
        <stylesheet-error xmlns="%(namespace)s" code="{$err:code}" module="{$err:module}"
            line="{$err:line-number}" description="{$err:description}"/>
      </xsl:catch>
    </xsl:try>
  </xsl:template>
</xsl:stylesheet>"""


def _compile_stylesheet(path: Path) -> saxonche.PyXsltExecutable:
    guard = _GUARD % {
        "href": quoteattr(path.resolve().as_uri()),
        "namespace": STYLESHEET_ERROR_NAMESPACE,
    }
    with _saxon_lock:
        compiler = _processor().new_xslt30_processor()
        return compiler.compile_stylesheet(stylesheet_text=guard)


def run_stylesheets(paths: list[Path], document_text: str) -> list[str]:
    """Apply each stylesheet to the document (parsed once); the serialized results: an
    SVRL report, or a `STYLESHEET_ERROR` element when the stylesheet raised an error."""
    executables = [stylesheet(path) for path in paths]
    with _saxon_lock:
        node = _processor().parse_xml(xml_text=document_text)
        return [
            _transform(executable, node, path)
            for executable, path in zip(executables, paths, strict=True)
        ]


def _transform(executable: saxonche.PyXsltExecutable, node: object, path: Path) -> str:
    try:
        return str(executable.transform_to_string(xdm_node=node))
    except saxonche.PySaxonApiError as error:
        # Past the guard: xsl:try does not catch an error in a global variable or
        # parameter (XRechnung's read the seller's country from the invoice). The
        # stylesheet is compiled, so what fails now is its evaluation on this document.
        report = etree.Element(
            STYLESHEET_ERROR, module=path.resolve().as_uri(), description=str(error).strip()
        )
        return etree.tostring(report, encoding="unicode")
