"""Helpers flow one way: tests/, bench/ and scripts/ import testkit/, and nothing
outside tests/ imports tests/. The PDF-invoice measurement modules stay in tests/ for
now (issue 38: other work was under way in them); the scripts and benchmarks that use
them are the only exceptions, listed here so none is added unnoticed."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# module imported from tests/ -> the files outside tests/ that may still import it
STILL_IN_TESTS = {
    "tests.processors.scans": {
        "bench/ocr_cpu.py",
        "bench/ocr_languages.py",
        "bench/pdf_bench.py",
        "scripts/corpus_report_lookalikes.py",
        "scripts/corpus_report_statements.py",
    },
    "tests.processors.pdf_accuracy": {"scripts/pdf_invoice_accuracy.py"},
    "tests.processors.pdf_accuracy_sets": {"scripts/pdf_invoice_accuracy.py"},
    "tests.processors.hybrids": {"scripts/corpus_report_hybrids.py"},
}


def _imported_modules(path: Path) -> set[str]:
    modules: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            modules |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
            modules |= {f"{node.module}.{alias.name}" for alias in node.names}
    return modules


def _from_tests(path: Path) -> set[str]:
    return {
        module
        for module in _imported_modules(path)
        if module == "tests" or module.startswith("tests.")
    }


def test_nothing_outside_tests_imports_tests() -> None:
    unexpected = {}
    for folder in ("bench", "scripts", "testkit"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            modules = {
                module
                for module in _from_tests(path)
                if name not in STILL_IN_TESTS.get(module, set())
                # `from tests.processors import scans` names the module twice
                and not any(module.startswith(kept + ".") for kept in STILL_IN_TESTS)
            }
            if modules:
                unexpected[name] = sorted(modules)
    assert unexpected == {}


def test_testkit_imports_nothing_of_tests() -> None:
    for path in (ROOT / "testkit").rglob("*.py"):
        assert _from_tests(path) == set(), path
