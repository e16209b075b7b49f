"""What every request may depend on: the services, a session, the calling company."""

from __future__ import annotations

import math
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPBearer
from sqlalchemy.orm import Session

from api.ratelimit import RateLimiter
from flows.page_render import PageRenderer
from storage.db import Database
from storage.errors import Unauthorized
from storage.models import utcnow
from storage.objectstore import ObjectStore
from storage.repositories import api_keys
from storage.repositories import uploads as upload_repo
from storage.settings import Settings
from storage.states import UploadStatus


class RetryAfterEstimator:
    """Retry-After in whole seconds: 1 when little is queued, growing with the estimated
    wait (queued uploads / expected throughput), at most 30. The count is cached for a
    second so polling does not turn into counting."""

    def __init__(self, db: Database, throughput_per_second: float) -> None:
        self._db = db
        self._throughput = throughput_per_second
        self._lock = threading.Lock()
        self._value = 1
        self._expires = 0.0

    def seconds(self) -> int:
        now = time.monotonic()
        with self._lock:
            if now < self._expires:
                return self._value
            self._expires = now + 1.0
        with self._db.standalone_reads() as session:
            queued = upload_repo.count_with_status(session, UploadStatus.QUEUED)
        value = max(1, min(30, math.ceil(queued / self._throughput)))
        with self._lock:
            self._value = value
        return value


@dataclass
class Services:
    settings: Settings
    db: Database
    store: ObjectStore
    rate_limiter: RateLimiter = field(init=False)
    retry_after: RetryAfterEstimator = field(init=False)
    page_renderer: PageRenderer = field(init=False)  # its process starts on first use

    def __post_init__(self) -> None:
        self.page_renderer = PageRenderer()
        self.rate_limiter = RateLimiter(
            self.settings.rate_limit_per_second, self.settings.rate_limit_burst
        )
        self.retry_after = RetryAfterEstimator(
            self.db, self.settings.expected_throughput_per_second
        )


async def get_services(request: Request) -> Services:
    # async: FastAPI would run a plain function in the threadpool, a thread hop per request.
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def get_read_session(services: ServicesDep) -> Iterator[Session]:
    with services.db.read_session() as session:
        yield session


ReadSessionDep = Annotated[Session, Depends(get_read_session)]


# States the API key in the OpenAPI document; current_company_id reads and checks it.
api_key_scheme = HTTPBearer(
    scheme_name="apiKey",
    description="The company's API key: `Authorization: Bearer dik_...`.",
    auto_error=False,
)


def bearer_token(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 256:
        raise Unauthorized("send the API key as 'Authorization: Bearer <key>'")
    return token


def admit(services: Services, key: api_keys.ActiveKey | None) -> api_keys.ActiveKey:
    """The request's active API key (None: unknown or revoked), within its rate limit."""
    if key is None:
        raise Unauthorized("unknown or revoked API key")
    services.rate_limiter.check(key.id)
    return key


def note_use(services: Services, key: api_keys.ActiveKey) -> None:
    """Record when the key was last used (at most once a minute: a write)."""
    now = utcnow()
    if api_keys.needs_last_used_update(key, now):
        with services.db.session() as session:
            api_keys.mark_used(session, key.id, now)
            session.commit()


def current_key(request: Request, services: ServicesDep) -> api_keys.ActiveKey:
    token = bearer_token(request)
    with services.db.standalone_connection() as connection:
        key = admit(services, api_keys.find_active_key(connection, token))
    note_use(services, key)
    return key


CurrentKeyDep = Annotated[api_keys.ActiveKey, Depends(current_key)]


async def current_company_id(key: CurrentKeyDep) -> uuid.UUID:
    # async: FastAPI would run a plain function in the threadpool, a thread hop per request.
    return key.company_id


CompanyIdDep = Annotated[uuid.UUID, Depends(current_company_id)]
