"""Every page of the web application, audited as HTML: the document language, one h1 and
headings in order, tables with captions and scoped header cells, a label for every
input, a name for every button, unique ids, no script (everything works without
JavaScript), and the session's CSRF token in every form that posts. Every POST route
refuses a request without the token."""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from lxml import html

from api.deps import Services
from storage.db import Database
from tests.storage.datev.stack import set_up_datev
from tests.web.evidence_support import seed_invoice_with_evidence
from tests.web.results_helpers import (
    bank_statement,
    e_invoice_with_warnings,
    invalid_e_invoice_of_every_level,
    payment_file,
    plain_pdf,
    result_path,
    send_and_read,
)
from tests.web.support import Account, log_in, seed_batch, seed_upload, session_csrf

LABELLED = ("input", "select", "textarea")
UNLABELLED_INPUTS = {"hidden", "submit", "button", "reset"}
HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")


def audit(page_html: str, csrf_token: str) -> list[str]:
    """What is wrong with the page; empty when nothing is."""
    root = html.fromstring(page_html)
    problems: list[str] = []
    if root.get("lang") not in ("en", "de"):
        problems.append(f"<html lang> is {root.get('lang')!r}")
    problems += _headings(root) + _tables(root) + _controls(root) + _forms(root, csrf_token)
    ids = root.xpath("//@id")
    problems += [f"id {i!r} is used twice" for i in sorted({i for i in ids if ids.count(i) > 1})]
    if root.xpath("//script") or root.xpath("//@*[starts-with(name(), 'on')]"):
        problems.append("the page has script")
    for link in root.xpath("//a"):
        if not link.get("href") or not " ".join(link.text_content().split()):
            problems.append(f"link without target or text: {html.tostring(link)[:80]!r}")
    return problems


def _headings(root: html.HtmlElement) -> list[str]:
    problems = []
    levels = [int(h.tag[1]) for h in root.iter(*HEADING_TAGS)]
    if levels.count(1) != 1 or not levels or levels[0] != 1:
        problems.append(f"the page needs one h1 before other headings: {levels}")
    for before, after in itertools.pairwise(levels):
        if after > before + 1:
            problems.append(f"heading h{after} follows h{before}")
    return problems


def _tables(root: html.HtmlElement) -> list[str]:
    problems = []
    for table in root.iter("table"):
        if not " ".join(table.xpath("string(./caption)").split()):
            problems.append("a table has no caption")
    for cell in root.iter("th"):
        if cell.get("scope") not in ("col", "row", "colgroup", "rowgroup"):
            problems.append(f"<th> without scope: {cell.text_content().strip()!r}")
    return problems


def _controls(root: html.HtmlElement) -> list[str]:
    problems = []
    labelled_ids = set(root.xpath("//label/@for"))
    for control in root.iter(*LABELLED):
        if control.tag == "input" and control.get("type", "text") in UNLABELLED_INPUTS:
            continue
        named = control.get("aria-label") or control.get("aria-labelledby")
        wrapped = any(parent.tag == "label" for parent in control.iterancestors())
        if not (named or wrapped or control.get("id") in labelled_ids):
            problems.append(f"<{control.tag} name={control.get('name')!r}> has no label")
    for button in root.iter("button"):
        if not (" ".join(button.text_content().split()) or button.get("aria-label")):
            problems.append("a button has no name")
    return problems


def _forms(root: html.HtmlElement, csrf_token: str) -> list[str]:
    problems = []
    for form in root.iter("form"):
        if form.get("method", "get").lower() != "post":
            continue
        tokens = form.xpath('.//input[@type="hidden"][@name="csrf_token"]/@value')
        if tokens != [csrf_token]:
            problems.append(f"form to {form.get('action')} has CSRF tokens {tokens}")
    return problems


# --- the pages -------------------------------------------------------------------------


@pytest.fixture
def site(
    client: TestClient, account: Account, services: Services, request: pytest.FixtureRequest
) -> list[str]:
    """Every kind of page, over results the real pipeline made."""
    read = {}
    for kind, (name, content), fields in (
        ("invoice", e_invoice_with_warnings(), {}),
        ("statement", bank_statement(), {"documentType": "bank_statement"}),
        ("payment_file", payment_file(), {}),
        ("document", plain_pdf(), {}),
        ("invalid", invalid_e_invoice_of_every_level(), {}),
    ):
        read[kind] = send_and_read(client, account.headers, services, name, content, **fields)
    failed = seed_upload(
        services.db,
        account.company_id,
        status="failed",
        error_code="processing_failed",
        error_message="The document could not be read in time.",
    )
    running = seed_batch(services.db, account.company_id, ["queued", "completed", "failed"])
    with_evidence = seed_invoice_with_evidence(services.db, services.store, account.company_id)
    request.addfinalizer(services.page_renderer.shutdown)  # its page starts the renderer
    set_up_datev(services, account.company_id)
    return [
        "/app/uploads",
        "/app/uploads?status=nonsense&from=yesterday",
        "/app/batches",
        f"/app/batches/{running}",
        "/app/settings",
        "/app/settings/api-keys",
        "/app/settings/datev",
        "/app/exports/datev?from=2000-01-01&to=2099-12-31",  # refused: many fiscal years
        "/app/exports/datev?from=2026-01-01&to=2026-12-31",
        "/app/settings/email",
        f"/app/uploads/{uuid.uuid4()}",  # the 404 page
        f"/app/uploads/{failed}",
        f"/app/uploads/{read['invalid']['id']}",
        f"/app/uploads/{read['invoice']['id']}",
        *(result_path(read[kind]) for kind in ("invoice", "statement", "payment_file")),
        result_path(read["document"]),
        result_path(read["invoice"]) + "/print",
        f"/app/invoices/{with_evidence}",  # a PDF's fields beside their page
    ]


def test_every_page_passes_the_audit(
    client: TestClient, account: Account, database: Database, site: list[str]
) -> None:
    form = client.get("/app/login")
    assert audit(form.text, client.cookies["docintake_login_csrf"]) == []
    assert log_in(client, account.email).status_code == 303
    token = session_csrf(client, database)
    for path in site:
        response = client.get(path)
        assert response.status_code in (200, 404, 422), path
        assert audit(response.text, token) == [], path


def test_the_answers_to_forms_pass_the_audit(web_client: TestClient, database: Database) -> None:
    token = session_csrf(web_client, database)
    invalid = web_client.post(
        "/app/settings",
        data={"name": "", "vat_ids": "123", "ibans": "DE00", "locale": "fr", "csrf_token": token},
    )
    assert invalid.status_code == 422
    created = web_client.post("/app/settings/api-keys", data={"name": "ERP", "csrf_token": token})
    assert created.status_code == 201
    datev = web_client.post(
        "/app/settings/datev", data={"consultant_number": "1", "chart": "03", "csrf_token": token}
    )
    assert datev.status_code == 422
    for response in (invalid, created, datev):
        assert audit(response.text, token) == [], response.url


def test_the_audit_finds_what_it_looks_for() -> None:
    broken = (
        "<html><body><h2>x</h2><h1>a</h1><h1>b</h1><h3>c</h3>"
        '<table><tr><th>t</th></tr></table><input name="q"><button></button>'
        '<form method="post"></form><p id="d"></p><p id="d"></p><script></script>'
        '<a href="/x"></a></body></html>'
    )
    problems = " | ".join(audit(broken, "token"))
    for expected in (
        "<html lang>",
        "one h1",
        "h3 follows h1",
        "no caption",
        "without scope",
        "name='q'> has no label",
        "button has no name",
        "CSRF tokens []",
        "'d' is used twice",
        "script",
        "link without",
    ):
        assert expected in problems, expected


def _routes(router: Any) -> Iterator[APIRoute]:
    """Every route, also inside included routers (FastAPI keeps those as wrappers)."""
    for route in router.routes:
        if isinstance(route, APIRoute):
            yield route
        elif getattr(route, "original_router", None) is not None:
            yield from _routes(route.original_router)


def _post_routes(app: Any) -> list[str]:
    return sorted(
        route.path
        for route in _routes(app.router)
        if "POST" in route.methods and route.path.startswith("/app")
    )


def test_every_post_route_refuses_a_request_without_the_csrf_token(
    web_client: TestClient,
) -> None:
    routes = _post_routes(web_client.app)
    assert "/app/login" in routes and len(routes) >= 8
    for route in routes:
        path = route
        for name in ("upload_id", "result_id", "key_id", "warning_id", "match_id"):
            path = path.replace("{" + name + "}", str(uuid.uuid4()))
        assert "{" not in path, route
        for data in ({}, {"csrf_token": "forged"}):
            response = web_client.post(path, data=data, follow_redirects=False)
            assert response.status_code == 403, route
            assert "text/html" in response.headers["content-type"]
