"""The worker environment is resolved once, where Prefect enters this code (a `@flow` or
`@task` function), and passed down from there: `runtime.current()` anywhere else would
make a helper depend on a process-wide global (issue 38, explicit services)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.flows.processes import ROOT

PACKAGES = ("api", "flows", "processors", "storage")


def _entry_point(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Decorated with Prefect's `flow` or `task`, called or not."""
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("flow", "task"):
            return True
    return False


def _current_calls(tree: ast.AST) -> list[ast.Call]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "current"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "runtime"
    ]


def _misplaced(path: Path, root: Path = ROOT) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _entry_point(node):
            # Its own body only: not a function defined inside it.
            allowed |= {id(call) for statement in node.body for call in _current_calls(statement)}
    return [
        f"{path.relative_to(root)}:{call.lineno}"
        for call in _current_calls(tree)
        if id(call) not in allowed
    ]


def test_runtime_current_is_called_only_at_prefect_entry_points() -> None:
    misplaced = [
        where
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for where in _misplaced(path)
    ]
    assert misplaced == []


def test_the_scan_finds_a_call_outside_an_entry_point(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    source = (
        "from prefect import flow\nfrom flows import runtime\n\n"
        "@flow\ndef entry():\n    return runtime.current()\n\n"
        "def helper():\n    return runtime.current()\n"
    )
    module.write_text(source)
    assert _misplaced(module, tmp_path) == ["probe.py:9"]
