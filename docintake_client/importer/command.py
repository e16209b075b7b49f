"""`docintake import PATH... --type T`: the command line of the importer (wired into
the `docintake` command by api/cli.py)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from rich.console import Console

from docintake_client.client import DocintakeClient
from docintake_client.importer.model import DOCUMENT_TYPES, ImportLimits, ImportOptions
from docintake_client.importer.report import print_summary
from docintake_client.importer.run import import_documents

EXIT_USAGE = 2


def add_import_command(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    defaults = ImportLimits()
    parser = subparsers.add_parser(
        "import", help="send folders and ZIP archives of documents as batches, resumably"
    )
    parser.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    parser.add_argument("--type", dest="document_type", default="auto", choices=DOCUMENT_TYPES)
    parser.add_argument(
        "--server", default=os.environ.get("DOCINTAKE_SERVER", "http://127.0.0.1:8000")
    )
    parser.add_argument("--key", default=os.environ.get("DOCINTAKE_API_KEY"))
    parser.add_argument("--results", type=Path, default=Path("docintake-import"))
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("--max-files", type=int, default=defaults.max_files)
    parser.add_argument("--max-batch-bytes", type=int, default=defaults.max_batch_bytes)
    parser.add_argument("--max-file-bytes", type=int, default=defaults.max_file_bytes)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.set_defaults(func=run_import)


def options_from(args: argparse.Namespace) -> ImportOptions:
    return ImportOptions(
        paths=tuple(args.paths),
        results=args.results,
        document_type=args.document_type,
        parallel=args.parallel,
        limits=ImportLimits(args.max_files, args.max_batch_bytes, args.max_file_bytes),
    )


def run_import(args: argparse.Namespace) -> int:
    console = Console(stderr=True)
    if not args.key:
        console.print("an API key is needed: --key or DOCINTAKE_API_KEY")
        return EXIT_USAGE
    missing = [str(path) for path in args.paths if not path.exists()]
    if missing:
        console.print(f"no such file or folder: {', '.join(missing)}")
        return EXIT_USAGE
    options = options_from(args)
    with DocintakeClient(args.server, args.key, timeout=args.timeout) as client:
        report = import_documents(client, options, console=console)
    print_summary(console, report)
    console.print(f"results: {options.results.with_suffix('.csv')} and .parquet")
    if report.interrupted:
        console.print("interrupted: run the same command again to resume")
    return report.exit_code
