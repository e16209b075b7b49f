"""Writes docintake_client/result_models.py from the server's OpenAPI document: a frozen
dataclass per component schema the results API answers with, fields in snake_case with
their JSON key, so the client's models are the document's and cannot drift
(tests/client/test_result_models.py regenerates the file and compares).

    PYTHONPATH=$PWD .venv/bin/python scripts/generate_client_models.py
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

TARGET = Path(__file__).parents[1] / "docintake_client" / "result_models.py"
ROOTS = ("ResultPage",)
RESULT_KINDS = ("Invoice", "BankStatement", "PaymentFile", "OtherDocument")
HEADER = '''"""The results API's models: GENERATED from the OpenAPI document by
scripts/generate_client_models.py; do not edit (tests/client/test_result_models.py
regenerates it and compares). Fields are snake_case; `metadata["key"]` is the JSON key.
Amounts are `Decimal`, dates `date`; enumerations are `Literal`s, read as text."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import {typing}
'''


def snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


class Renderer:
    def __init__(self, document: dict[str, Any]) -> None:
        self.schemas: dict[str, Any] = document["components"]["schemas"]
        self.order: list[str] = []
        self.unions: dict[str, str] = {}

    def visit(self, name: str) -> None:
        if name in self.order:
            return
        self.order.append(name)
        for ref in re.findall(r"#/components/schemas/(\w+)", repr(self.schemas[name])):
            self.visit(ref)

    def type_of(self, schema: dict[str, Any]) -> str:
        if "$ref" in schema:
            return schema["$ref"].rsplit("/", 1)[1]
        if "allOf" in schema and len(schema["allOf"]) == 1:
            return self.type_of(schema["allOf"][0])
        if "const" in schema:
            return f"Literal[{schema['const']!r}]"
        variants = schema.get("anyOf") or schema.get("oneOf")
        if variants:
            return " | ".join(dict.fromkeys(self.type_of(variant) for variant in variants))
        if "enum" in schema:
            return "Literal[" + ", ".join(repr(v) for v in schema["enum"]) + "]"
        kind = schema.get("type")
        if kind == "array":
            return f"tuple[{self.type_of(schema['items'])}, ...]"
        if kind == "string":
            return {"decimal": "Decimal", "date": "date"}.get(schema.get("format", ""), "str")
        simple = {"integer": "int", "number": "float", "boolean": "bool", "null": "None"}
        return simple.get(kind, "dict[str, Any]")

    def render(self, name: str) -> str:
        schema = self.schemas[name]
        if "properties" not in schema:
            return f"{name} = {self.type_of(schema)}\n"
        required = set(schema.get("required", ()))
        lines = ["@dataclass(frozen=True, slots=True, kw_only=True)", f"class {name}:"]
        doc = textwrap.fill(_doc(schema.get("description") or name), 84, subsequent_indent="    ")
        lines.append(f'    """{doc}"""\n')
        for key, field_schema in schema["properties"].items():
            annotation = self.type_of(field_schema)
            default = "" if key in required else ", default=None"
            if key not in required and "None" not in annotation.split(" | "):
                annotation += " | None"
            key_of = f'metadata={{"key": {key!r}}}'
            lines.append(f"    {snake(key)}: {annotation} = dataclasses.field({key_of}{default})")
        return "\n".join(lines) + "\n"


def _doc(text: str) -> str:
    first = text.strip().split("\n\n")[0]
    return " ".join(first.split()).replace('"""', "'''").replace("\\", "\\\\")


def render(document: dict[str, Any]) -> str:
    renderer = Renderer(document)
    for root in ROOTS:
        renderer.visit(root)
    aliases = [n for n in renderer.order if "properties" not in renderer.schemas[n]]
    classes = [n for n in renderer.order if n not in aliases]
    body = [renderer.render(n) for n in sorted(aliases)] + [""]
    body += [renderer.render(n) + "\n" for n in sorted(classes)]
    typing = "Any, Literal" if any("Any]" in part for part in body) else "Literal"
    parts = [HEADER.replace("{typing}", typing), *body]
    union = " | ".join(f"{kind}ResultOut" for kind in RESULT_KINDS)
    parts.append(f"AnyResult = {union}\n")
    return formatted("\n".join(parts).rstrip() + "\n")


def formatted(source: str) -> str:
    """As `ruff format` leaves it, so that the lint of the tree passes the file."""
    command = [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(TARGET), "-"]
    return subprocess.run(command, input=source, capture_output=True, text=True, check=True).stdout


def main() -> None:
    sys.path.insert(0, str(Path(__file__).parents[1]))
    from unittest.mock import MagicMock

    from api.app import create_app

    TARGET.write_text(render(create_app(MagicMock()).openapi()))


if __name__ == "__main__":
    main()
