"""E-invoice validation timing over the corpus' XML e-invoices.

Writes JSON with: stylesheet/schema compile time (once per process), per-invoice median
validation time after warm-up, and the floor (lxml parse + XSD of the same file).
Usage: .venv/bin/python bench/einvoice_bench.py [OUTPUT_JSON] (default bench/results/einvoice.json)
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from processors.einvoice import rules
from processors.einvoice.profiles import (
    ValidationPlan,
    declared_of,
    plan_for,
    profile_of,
    syntax_of,
)
from processors.einvoice.validation import schema_findings, validate
from processors.xmlsafe import parse_xml

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
ROUNDS = 5


def _files() -> list[Path]:
    rows = [json.loads(x) for x in (CORPUS / "manifest.jsonl").read_text().splitlines() if x]
    return [
        CORPUS / r["file"]
        for r in rows
        if r["expected"] in ("accept", "invalid_e_invoice")
        and r["category"].startswith("xml:")
        and "not-wellformed" not in r["category"]
    ]


def _plan(data: bytes) -> ValidationPlan:
    tree = parse_xml(data)
    syntax = syntax_of(tree.getroot())
    assert syntax is not None
    return plan_for(syntax, profile_of(declared_of(tree.getroot(), syntax))[0])


def run() -> dict[str, object]:
    documents = []
    for path in _files():
        data = path.read_bytes()
        try:
            documents.append((data, _plan(data)))
        except Exception:  # unknown profiles are not timed
            continue
    started = time.perf_counter()
    for _, plan in documents:  # compile every artefact once
        for name in plan.schemas:
            rules.xml_schema(rules.artefact(name))
        for name in plan.schematrons:
            rules.stylesheet(rules.artefact(name))
    compile_seconds = time.perf_counter() - started
    validation_ms: list[float] = []
    floor_ms: list[float] = []
    for data, plan in documents:
        for round_ in range(ROUNDS + 1):
            t0 = time.perf_counter()
            validate(parse_xml(data), plan)
            t1 = time.perf_counter()
            tree = parse_xml(data)
            for name in plan.schemas:
                schema_findings(tree, rules.artefact(name), name)
            t2 = time.perf_counter()
            if round_:  # the first round is warm-up
                validation_ms.append((t1 - t0) * 1000)
                floor_ms.append((t2 - t1) * 1000)
    result = {
        "documents": len(documents),
        "rounds_per_document": ROUNDS,
        "compile_seconds_total": round(compile_seconds, 3),
        "validation_ms_median": round(statistics.median(validation_ms), 2),
        "validation_ms_p90": round(statistics.quantiles(validation_ms, n=10)[-1], 2),
        "floor_parse_plus_xsd_ms_median": round(statistics.median(floor_ms), 2),
        "target_validation_ms_median": 15,
    }
    return result


def main(argv: list[str]) -> int:
    out = Path(argv[1]) if len(argv) > 1 else Path(__file__).parent / "results" / "einvoice.json"
    result = run()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
