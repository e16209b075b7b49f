"""`docintake report`: the status report over the Parquet status tables (volumes,
outcomes, failure codes, processing times per document type, slowest files), as rich
tables in the terminal or as markdown. The numbers: storage/tables/report.py."""

from __future__ import annotations

import argparse
import re
import uuid
from datetime import timedelta

from rich.console import Console
from rich.table import Table

from storage.db import Database, make_engine
from storage.objectstore import build_object_store
from storage.settings import get_settings
from storage.tables.export import export_changed
from storage.tables.report import StatusReport, build_report, to_markdown

_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(text: str) -> timedelta:
    """`7d`, `24h`, `90m`, `2w`."""
    match = re.fullmatch(r"(\d+(?:\.\d+)?)([mhdw])", text.strip())
    if not match or float(match[1]) <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration like 7d, 24h, 90m or 2w")
    return timedelta(**{_UNITS[match[2]]: float(match[1])})


def render(report: StatusReport, console: Console) -> None:
    console.print(f"[bold]Status report[/bold]: {report.scope}")
    for section in report.sections:
        table = Table(title=section.title, title_justify="left")
        for name, dtype in section.frame.schema.items():
            numeric = dtype.is_numeric()
            table.add_column(
                name,
                justify="right" if numeric else "left",
                overflow="fold" if name in section.links else "ellipsis",
            )
        for row in section.frame.iter_rows():
            table.add_row(*_cells(row))
        if not section.frame.height:
            table.add_row(*(["-"] * section.frame.width))
        console.print(table)


def _cells(row: tuple[object, ...]) -> list[str]:
    return ["-" if v is None else f"{v:,.2f}" if isinstance(v, float) else str(v) for v in row]


def cmd_report(args: argparse.Namespace) -> int:
    settings = get_settings()
    store = build_object_store(settings)
    if args.refresh:
        db = Database(make_engine(settings.effective_database_url))
        export_changed(db, store, settings)
    report = build_report(
        store, settings.public_base_url, args.since, company_id=args.company, slowest=args.slowest
    )
    if args.markdown:
        print(to_markdown(report))
    else:
        render(report, Console())
    return 0


def add_report_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    report = sub.add_parser(
        "report", help="status report over the Parquet status tables (docs/tables.md)"
    )
    report.add_argument(
        "--since", type=parse_since, default=timedelta(days=7), help="window: 7d, 24h, 90m, 2w"
    )
    report.add_argument("--company", type=uuid.UUID, help="one company only")
    report.add_argument("--slowest", type=int, default=10, help="how many slowest files")
    report.add_argument("--markdown", action="store_true", help="print markdown")
    report.add_argument(
        "--refresh", action="store_true", help="export what changed to the tables first"
    )
    report.set_defaults(func=cmd_report)
