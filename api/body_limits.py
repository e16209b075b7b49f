"""What body each route takes, declared beside the route, and how large it may be.

Every route says what it is for with `@body_limit(kind)`; `api.request_limits.RequestLimits`
finds the matched route's kind and enforces its cap while the body streams in, before
anything parses it. A route without a declaration is capped as JSON (and fails
tests/api/test_hostile_requests.py::test_every_route_declares_its_body_limit)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import TypeVar

_ATTRIBUTE = "__docintake_body_kind__"

Declared = TypeVar("Declared")


class BodyKind(StrEnum):
    NONE = "none"  # pages, downloads, polls, deletes: no body (a stray 1 KiB is let be)
    JSON = "json"
    FORM = "form"  # a form of the web application (api/web/limits.py)
    UPLOAD = "upload"  # a multipart upload: the hard cap of the settings


def body_limit(kind: BodyKind) -> Callable[[Declared], Declared]:
    """Declare the body a route (its endpoint) or a mounted ASGI app takes."""

    def declare(target: Declared) -> Declared:
        setattr(target, _ATTRIBUTE, kind)
        return target

    return declare


def declared_kind(target: object) -> BodyKind | None:
    kind = getattr(target, _ATTRIBUTE, None)
    return kind if isinstance(kind, BodyKind) else None
