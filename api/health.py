from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from storage.errors import ServiceUnavailable

router = APIRouter(tags=["health"])


def _probe(check: object) -> str:
    try:
        check()  # type: ignore[operator]
    except ServiceUnavailable as exc:
        return f"unavailable: {exc.detail}"
    except Exception as exc:
        return f"unavailable: {type(exc).__name__}"
    return "ok"


@router.get(
    "/healthz",
    responses={503: {"description": "The database or the object store does not answer."}},
    summary="Liveness of the database and the object store (no auth)",
)
@body_limit(BodyKind.NONE)
async def healthz(services: ServicesDep) -> JSONResponse:
    database = await run_in_threadpool(_probe, services.db.ping)
    object_store = await run_in_threadpool(_probe, services.store.ping)
    healthy = database == "ok" and object_store == "ok"
    body = {
        "status": "ok" if healthy else "unavailable",
        "database": database,
        "objectStore": object_store,
    }
    return JSONResponse(body, status_code=200 if healthy else 503)
