"""Result shapes are versioned per kind. Version 1 is the shape stored before results
were typed, and it carries no `version` key; a later shape writes `"version": 2` and
reading keeps understanding 1."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Protocol

from processors.json_fields import ResultShapeError

VERSION_KEY = "version"
FIRST_VERSION = 1


class Versioned(Protocol):
    VERSION: ClassVar[int]


def check_version(cls: type[Versioned], data: Mapping[str, Any]) -> None:
    """Refuses data written by a newer shape than this code knows."""
    version = data.get(VERSION_KEY, FIRST_VERSION)
    if not isinstance(version, int) or not FIRST_VERSION <= version <= cls.VERSION:
        raise ResultShapeError(
            f"{cls.__name__}: version {version!r} is not one this code reads "
            f"({FIRST_VERSION}..{cls.VERSION})"
        )
