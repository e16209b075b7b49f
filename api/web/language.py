"""The language switch on every page: a signed-in user's choice is stored with the user
(a CSRF-protected form, no JavaScript); before signing in, pages take `?lang=`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import RedirectResponse, Response

from api.body_limits import BodyKind, body_limit
from api.deps import ServicesDep
from api.web.auth import CsrfUser, safe_next
from api.web.i18n import supported
from storage.repositories import users

router = APIRouter(include_in_schema=False)


@router.post("/app/language")
@body_limit(BodyKind.FORM)
def switch_language(
    user: CsrfUser,
    services: ServicesDep,
    language: Annotated[str, Form(max_length=8)] = "",
    next: Annotated[str, Form(max_length=2048)] = "",
) -> Response:
    """An unknown language clears the choice: the company's locale applies again."""
    with services.db.session() as session:
        users.set_language(session, user.user_id, supported(language))
        session.commit()
    return RedirectResponse(safe_next(next), status_code=303)
