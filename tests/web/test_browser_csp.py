"""The Content-Security-Policy in a real browser: the pages load their style sheets and
break no rule of the policy, and no other site can frame them."""

from __future__ import annotations

import time

from playwright.sync_api import ConsoleMessage, Page

from tests.web.conftest import LiveServer
from tests.web.support import Account, seed_batch, seed_upload

PAGES = [
    "/app/uploads",
    "/app/batches",
    "/app/settings",
    "/app/settings/api-keys",
    "/app/settings/datev",
    "/app/exports/datev",
    "/app/x",
]


def _violations(page: Page) -> list[str]:
    found: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            found.append(message.text)

    page.on("console", on_console)
    return found


def test_the_pages_keep_to_the_policy_and_are_styled(
    signed_in_page: Page, live: LiveServer, live_account: Account
) -> None:
    page = signed_in_page
    batch = seed_batch(live.database, live_account.company_id, ["completed", "processing"])
    upload = seed_upload(live.database, live_account.company_id, status="processing")
    violations = _violations(page)
    # The processing batch's page reloads itself after 3 s (meta refresh): last, so that
    # reload cannot race the next page's navigation on a slow machine.
    for path in [*PAGES, f"/app/uploads/{upload}", f"/app/batches/{batch}"]:
        page.goto(path)
        page.wait_for_load_state("load")
        # app.css moves the skip link off screen; without the style sheet it is static.
        skip_link = page.locator(".skip-link")
        assert skip_link.evaluate("e => getComputedStyle(e).position") == "absolute", path
    assert violations == []


def test_login_page_keeps_to_the_policy(page: Page) -> None:
    violations = _violations(page)
    page.goto("/app/login")
    assert page.locator("link[rel=stylesheet]").count() == 1
    assert violations == []


def test_no_other_site_can_frame_a_page(page: Page, live: LiveServer) -> None:
    # Another site: the same server under another name (localhost, not 127.0.0.1).
    page.goto(live.url.replace("127.0.0.1", "localhost") + "/openapi.json")
    frames = [f"{live.url}/openapi.json", f"{live.url}/app/login"]  # the API is no page
    page.set_content("".join(f'<iframe src="{src}" title="framed"></iframe>' for src in frames))
    page.wait_for_load_state("load")
    api, web = page.frames[1:]
    assert api.url == frames[0]
    # The refused frame turns into Chromium's error page a moment after the load event.
    deadline = time.monotonic() + 10
    while not web.url.startswith("chrome-error:") and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert web.url.startswith("chrome-error:"), web.url
    assert web.locator("form").count() == 0
