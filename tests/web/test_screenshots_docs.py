"""docs/webapp.md shows every page of tests/web/webapp_screenshots.py in both languages:
each picture it embeds is committed, each committed picture is embedded, and each is a
1366 px wide palette PNG (small)."""

from __future__ import annotations

import re
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "webapp.md"
PICTURES = ROOT / "docs" / "screenshots"


def test_every_screenshot_is_embedded_in_both_languages() -> None:
    embedded = set(re.findall(r"\]\(screenshots/([\w-]+\.png)\)", DOCS.read_text()))
    committed = {path.name for path in PICTURES.glob("*.png")}
    assert embedded == committed
    pages = {name.rsplit("-", 1)[0] for name in committed}
    assert committed == {f"{page}-{lang}.png" for page in pages for lang in ("de", "en")}
    for name in committed:
        with Image.open(PICTURES / name) as picture:
            assert picture.width == 1366 and picture.mode == "P", name
        assert (PICTURES / name).stat().st_size < 100_000, name
