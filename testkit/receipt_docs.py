"""Receipts from a camera or a phone scanner (issue 40, class 4): restaurant receipts with
their Bewirtungsbeleg, till receipts; narrow, small monospaced print, thermal paper's
low contrast, noise, a slight rotation, saved as an image-only PDF (the receipt's own
narrow page, or photographed on a table on an A4 page).

`DEVELOPMENT` was used for the rule and the preprocessing; `HELD_OUT` was written once
afterwards and not tuned on (docs/realworld.md, issue 40 class 4)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


@dataclass(frozen=True, slots=True)
class Capture:
    """How the receipt was captured."""

    name: str
    font_px: int
    ink: int
    """Grey of the print (thermal print fades: 0 black, 255 white)."""
    paper: int
    noise: int
    degrees: float
    on_a4: bool
    """Photographed on a table, the page A4 around it; else the receipt's own page."""
    dpi: int
    jpeg: int
    shade: int = 0
    """Light falling off down the photo: the bottom this many grey levels darker."""
    ground: int = 95
    """Grey of the table around the paper."""


CAPTURES = (
    Capture("scanner", 22, 90, 235, 25, 0.8, False, 200, 70),
    Capture("phone", 20, 120, 215, 40, 2.0, True, 150, 55),
    Capture("faded", 16, 150, 205, 50, 1.5, True, 150, 45),
)
"""`faded`: faint print photographed on a table; OCR's mean confidence 65-72 after the
paper is cut out (the issue's scans read 65-67)."""
FADE_LEVELS = (
    ("fade1", 110, 215),
    ("fade2", 150, 210),
    ("fade3", 170, 205),
    ("fade4", 185, 205),
    ("fade5", 195, 205),
)
"""Thermal print fading: (level, grey of the print, grey of the paper), from a contrast
of 105 grey levels down to 10 (where a person still reads it on a screen, barely)."""


def faded_captures(level: str) -> tuple[Capture, Capture]:
    """A faded receipt scanned on its own page by a phone's scanner app, and
    photographed on a table with the light falling off towards the bottom."""
    _, ink, paper = next(fade for fade in FADE_LEVELS if fade[0] == level)
    return (
        Capture(f"{level}-scan", 18, ink, paper, 25, 0.8, False, 200, 60),
        Capture(f"{level}-photo", 18, ink, paper, 30, 1.5, True, 150, 55, shade=40),
    )


@dataclass(frozen=True, slots=True)
class Receipt:
    name: str
    lines: tuple[str, ...]
    issue_date: date
    gross: Decimal


def _de(value: Decimal) -> str:
    return f"{value:.2f}".replace(".", ",")


def _items(rng: random.Random, names: tuple[str, ...], count: int) -> list[tuple[str, Decimal]]:
    return [(rng.choice(names), Decimal(rng.randint(150, 2490)) / 100) for _ in range(count)]


def bewirtung(seed: str) -> Receipt:
    rng = random.Random(seed)
    day = date(2025, rng.randint(1, 12), rng.randint(1, 28))
    items = _items(rng, ("Schnitzel Wiener Art", "Apfelschorle 0,4", "Weizen 0,5",
                         "Salatteller", "Espresso", "Tagessuppe", "Rinderroulade"), 6)  # fmt: skip
    gross = sum((price for _, price in items), Decimal(0))
    net = (gross / Decimal("1.19")).quantize(Decimal("0.01"))
    lines = ["   Gasthaus Zur Linde", "  Marktstr. 4, 97070 Würzburg", "  Tel. 0931 123456",
             "", "Tisch 7        Bedienung: Anna", f"Datum {day:%d.%m.%Y}  19:42", ""]  # fmt: skip
    lines += [f"{name[:22]:<22}{_de(price):>9}" for name, price in items]
    lines += ["-" * 31, f"{'Summe EUR':<22}{_de(gross):>9}", f"{'Netto':<22}{_de(net):>9}",
              f"{'MwSt 19%':<22}{_de(gross - net):>9}", "", "Bezahlt: EC-Karte", "",
              "Bewirtungsbeleg", "Bewirtete Personen:", "______________________", "Anlass:",
              "______________________", "St-Nr. 257/123/45678", "Vielen Dank!"]  # fmt: skip
    return Receipt("bewirtung", tuple(lines), day, gross)


def kassenbon(seed: str) -> Receipt:
    rng = random.Random(seed)
    day = date(2025, rng.randint(1, 12), rng.randint(1, 28))
    items = _items(rng, ("BIO VOLLMILCH 3,8%", "BROETCHEN", "BANANEN", "KAFFEE GEMAHLEN",
                         "TOMATEN", "NUDELN 500G", "BUTTER"), 8)  # fmt: skip
    gross = sum((price for _, price in items), Decimal(0))
    paid = Decimal(int(gross / 10) * 10 + 10)
    lines = ["      FRISCHMARKT", "  Bahnhofstr. 12, 80335 München", "  UID Nr.: DE812345678", ""]
    lines += [f"{name[:20]:<20}{_de(price):>9} A" for name, price in items]
    net = (gross / Decimal("1.07")).quantize(Decimal("0.01"))
    lines += ["-" * 31, f"{'SUMME':<13}EUR{_de(gross):>13}", f"Geg. Bar{_de(paid):>21}",
              f"Rückgeld{_de(paid - gross):>21}", "", "Steuer %   Netto  Steuer  Brutto",
              f"A= 7,0% {_de(net):>8}{_de(gross - net):>8}{_de(gross):>8}", "",
              f"{day:%d.%m.%Y} 18:03  Bon-Nr.: {rng.randint(1000, 9999)}",
              f"Beleg-Nr. {rng.randint(10000, 99999)}", "Vielen Dank!"]  # fmt: skip
    return Receipt("kassenbon", tuple(lines), day, gross)


def cafe_receipt(seed: str) -> Receipt:
    """Held out: an English café receipt."""
    rng = random.Random(seed)
    day = date(2025, rng.randint(1, 12), rng.randint(1, 28))
    items = _items(rng, ("Flat White", "Croissant", "Avocado Toast", "Orange Juice",
                         "Tea (pot)", "Scone w/ jam"), 5)  # fmt: skip
    gross = sum((price for _, price in items), Decimal(0))
    vat = (gross / 6).quantize(Decimal("0.01"))
    lines = ["     THE CORNER CAFE", "   12 High Street, Oxford", "  VAT No. GB 987 6543 21", "",
             f"{day:%d/%m/%Y} 10:15   Till 2", "Server: Tom", ""]  # fmt: skip
    lines += [f"{name[:22]:<22}{price:>9.2f}" for name, price in items]
    lines += ["-" * 31, f"{'TOTAL GBP':<22}{gross:>9.2f}", f"{'VAT 20% incl.':<22}{vat:>9.2f}",
              f"{'Card':<22}{gross:>9.2f}", "", "Thank you, come again!"]  # fmt: skip
    return Receipt("cafe_en", tuple(lines), day, gross)


def tankbeleg(seed: str) -> Receipt:
    """Held out: a petrol station receipt."""
    rng = random.Random(seed)
    day = date(2025, rng.randint(1, 12), rng.randint(1, 28))
    litres = Decimal(rng.randint(2000, 6000)) / 100
    price = Decimal("1.799")
    fuel = (litres * price).quantize(Decimal("0.01"))
    gross = fuel + Decimal("3.49")
    net = (gross / Decimal("1.19")).quantize(Decimal("0.01"))
    lines = ["   AUTOHOF TANKSTELLE", " Industriestr. 1, 68159 Mannheim", "",
             "Säule 4  Super E10", f"{_de(litres)} l x {str(price).replace('.', ',')} EUR/l",
             f"{'Kraftstoff':<20}{_de(fuel):>11}", f"{'Kaffee to go':<20}{'3,49':>11}",
             "-" * 31, f"{'Gesamtbetrag EUR':<20}{_de(gross):>11}",
             f"{'enth. MwSt 19%':<20}{_de(gross - net):>11}", f"{'Nettobetrag':<20}{_de(net):>11}",
             "", f"Datum: {day:%d.%m.%y}  Uhrzeit: 07:58", "Belegnummer 004711",
             "Zahlung: Kreditkarte"]  # fmt: skip
    return Receipt("tankbeleg", tuple(lines), day, gross)


def photograph(receipt: Receipt, capture: Capture, seed: int = 3) -> bytes:
    """The receipt printed, captured and saved as an image-only PDF."""
    rng = random.Random(seed)
    font = ImageFont.truetype(MONO, capture.font_px)
    step = int(capture.font_px * 1.35)
    width = int(capture.font_px * 0.6 * 34)
    image = Image.new("L", (width, step * (len(receipt.lines) + 4)), capture.paper)
    draw = ImageDraw.Draw(image)
    for index, line in enumerate(receipt.lines):
        draw.text((capture.font_px, step * (index + 2)), line, fill=capture.ink, font=font)
    image = image.filter(ImageFilter.GaussianBlur(0.6))
    if capture.on_a4:
        size = (int(8.27 * capture.dpi), int(11.69 * capture.dpi))
        page = Image.new("L", size, capture.ground)
        page.paste(image, ((page.width - image.width) // 2, int(capture.dpi * 1.2)))
        image = page
    fill = capture.ground if capture.on_a4 else 240
    image = image.rotate(capture.degrees, expand=False, fillcolor=fill)
    image = _noisy(_shaded(image, capture.shade), rng, capture.noise)
    out = io.BytesIO()
    image.save(out, format="PDF", resolution=capture.dpi, quality=capture.jpeg)
    return out.getvalue()


def _shaded(image: Image.Image, shade: int) -> Image.Image:
    """Darker towards the bottom by up to `shade` grey levels (a phone's shadow)."""
    if not shade:
        return image
    ramp = Image.linear_gradient("L").resize(image.size)  # 0 at the top, 255 at the bottom
    return ImageChops.subtract(image, ramp.point(lambda value: value * shade // 255))


def _noisy(image: Image.Image, rng: random.Random, amplitude: int) -> Image.Image:
    """Grain on every 30th pixel."""
    pixels = image.load()
    assert pixels is not None
    width, height = image.size
    for _ in range(width * height // 30):
        x, y = rng.randrange(width), rng.randrange(height)
        value = pixels[x, y]
        assert isinstance(value, int)
        pixels[x, y] = max(0, min(255, value + rng.randint(-amplitude, amplitude)))
    return image


@dataclass(frozen=True, slots=True)
class ReceiptKind:
    name: str
    make: Callable[[str], Receipt]


DEVELOPMENT = (ReceiptKind("bewirtung", bewirtung), ReceiptKind("kassenbon", kassenbon))
HELD_OUT = (ReceiptKind("cafe_en", cafe_receipt), ReceiptKind("tankbeleg", tankbeleg))
