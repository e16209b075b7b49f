"""processors/errors.py documents every exception class defined under processors/."""

from __future__ import annotations

import builtins
import importlib
import inspect
import pkgutil
import re
from dataclasses import dataclass

import processors
from processors import errors

TREE_LINE = re.compile(
    r"^(?P<mark>\*|  \+) (?P<name>\w+) \((?P<module>[\w.]+)(?:, an? (?P<base>\w+))?\)"
)


@dataclass(frozen=True)
class Documented:
    name: str
    module: str
    base: str


def _documented() -> list[Documented]:
    entries: list[Documented] = []
    root = ""
    for line in (errors.__doc__ or "").splitlines():
        match = TREE_LINE.match(line)
        if match is None:
            continue
        if match["mark"] == "*":
            root = match["name"]
            base = match["base"] or "Exception"
        else:
            base = root
        entries.append(Documented(match["name"], f"processors.{match['module']}", base))
    return entries


def _defined() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for module_info in pkgutil.walk_packages(processors.__path__, "processors."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            is_exception = inspect.isclass(value) and issubclass(value, BaseException)
            if is_exception and value.__module__ == module.__name__:
                found[name] = value
    return found


def test_every_exception_class_under_processors_is_in_the_tree() -> None:
    defined = _defined()
    documented = {entry.name: entry for entry in _documented()}

    assert set(defined) == set(documented)
    for name, cls in defined.items():
        assert cls.__module__ == documented[name].module, name


def test_the_tree_states_each_class_s_base() -> None:
    defined = _defined()
    for entry in _documented():
        expected = defined.get(entry.base) or getattr(builtins, entry.base)
        assert defined[entry.name].__bases__ == (expected,), entry.name


def test_every_class_is_importable_from_the_errors_module() -> None:
    for name, cls in _defined().items():
        assert getattr(errors, name) is cls
        assert name in errors.__all__
