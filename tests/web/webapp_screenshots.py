"""Screenshots of the web application's pages for docs/webapp.md, in German and English.

    PYTHONPATH=. .venv/bin/python -m tests.web.webapp_screenshots [--out docs/screenshots]

Serves the real app on a fresh SQLite database (the browser tests' live server,
tests/web/conftest.py), sends one document of every kind through the /v1 API and reads
it with the pipeline's own steps (tests/web/browser_pages.py), signs in with Debian's
Chromium through Playwright and keeps the first screen (1366 x 900 px) of each page as a
PNG of at most 128 colours: docs/screenshots/<page>-<language>.png."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from PIL import Image
from playwright.sync_api import Browser, Page, sync_playwright

from tests.web.browser_pages import BROWSER_LOCALES, seed_pages, set_language, signed_in_context
from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS, LiveServer, live_server

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "docs" / "screenshots"
WIDTH, HEIGHT = 1366, 900
COLOURS = 128
# Besides the seeded documents' pages (browser_pages.seed_pages).
MORE_PAGES = {"batches": "/app/batches", "datev-export": "/app/exports/datev"}


def compressed(path: Path) -> int:
    """The PNG again with an adaptive palette: a third of the bytes or less, the text as
    sharp (interface pictures have few colours). Its size in bytes."""
    with Image.open(path) as picture:
        palette = picture.convert("RGB").quantize(colors=COLOURS, dither=Image.Dither.NONE)
    palette.save(path, optimize=True)
    return path.stat().st_size


def shoot(page: Page, path: Path) -> int:
    page.screenshot(path=str(path), full_page=False)
    return compressed(path)


def login_pictures(browser: Browser, live: LiveServer, out: Path) -> None:
    for language, browser_locale in BROWSER_LOCALES.items():
        context = browser.new_context(
            base_url=live.url, locale=browser_locale, viewport={"width": WIDTH, "height": HEIGHT}
        )
        page = context.new_page()
        page.goto(f"/app/login?lang={language}")
        print(f"login-{language}.png", shoot(page, out / f"login-{language}.png"), "bytes")
        context.close()


def page_pictures(browser: Browser, live: LiveServer, out: Path) -> None:
    seeded = seed_pages(live)
    # The e-invoice's own sheet, below the fold of its page (docs/webapp.md, "The
    # document beside its data").
    document = {"invoice-document": f"{seeded.pages['invoice']}#preview"}
    pages = {**seeded.pages, **document, **MORE_PAGES}
    for language in BROWSER_LOCALES:
        set_language(live, seeded.account, language)
        context = signed_in_context(browser, live, seeded.account, language, WIDTH)
        page = context.pages[0]
        page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
        for name, path in pages.items():
            page.goto(path)
            target = out / f"{name}-{language}.png"
            print(target.name, shoot(page, target), "bytes")
        context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as directory,
        live_server(Path(directory)) as live,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        login_pictures(browser, live, args.out)
        page_pictures(browser, live, args.out)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
