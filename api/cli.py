"""The `docintake` command line: companies, API keys, migrations, serving."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import sys
import threading
import uuid
from collections.abc import Callable, Sequence

from api.report import add_report_command
from docintake_client.importer import add_import_command
from storage.db import Database, make_engine
from storage.migrate import upgrade
from storage.repositories import api_keys, companies, mail_addresses, users
from storage.settings import get_settings


def _database() -> Database:
    settings = get_settings()
    settings.var_dir.mkdir(parents=True, exist_ok=True)
    return Database(make_engine(settings.effective_database_url))


def _emit(payload: dict[str, object], as_json: bool) -> None:
    if as_json:
        print(json.dumps(payload))
    else:
        for key, value in payload.items():
            print(f"{key}: {value}")


def cmd_migrate(_: argparse.Namespace) -> int:
    upgrade(_database().engine)
    print("database is at the latest schema")
    return 0


def cmd_company_create(args: argparse.Namespace) -> int:
    db, settings = _database(), get_settings()
    with db.session() as session:
        company = companies.create_company(
            session, args.name, vat_ids=args.vat_id, tax_number=args.tax_number, ibans=args.iban
        )
        key = api_keys.create_api_key(session, company.id, name="initial")
        token = mail_addresses.add_token(session, company.id, mail_addresses.token_box(settings))
        session.commit()
    address = mail_addresses.intake_address(token, settings)
    _emit(
        {"companyId": str(company.id), "apiKey": key.plaintext, "intakeAddress": address},
        args.json,
    )
    return 0


DEMO_USER_EMAIL = "demo@example.com"


def cmd_demo_company(_: argparse.Namespace) -> int:
    """For `make run`: a first company, API key and web user on an empty database; the
    key and the user's random password are printed once."""
    db, settings = _database(), get_settings()
    password = secrets.token_urlsafe(12)
    with db.session() as session:
        if companies.count_companies(session) > 0:
            return 0
        company = companies.create_company(session, "Demo GmbH", vat_ids=["DE000000000"])
        key = api_keys.create_api_key(session, company.id, name="demo")
        user = users.create_user(session, company.id, DEMO_USER_EMAIL, password)
        token = mail_addresses.add_token(session, company.id, mail_addresses.token_box(settings))
        session.commit()
    print(f"created company {company.id}; its API key (shown once): {key.plaintext}")
    print(f"its intake address: {mail_addresses.intake_address(token, settings)}")
    print(f"web app login (shown once): {user.email} / {password}")
    return 0


def cmd_apikey_create(args: argparse.Namespace) -> int:
    db = _database()
    with db.session() as session:
        if companies.get_company(session, args.company) is None:
            print(f"no company {args.company}", file=sys.stderr)
            return 1
        key = api_keys.create_api_key(session, args.company, name=args.name)
        session.commit()
    _emit(
        {"apiKeyId": str(key.record.id), "prefix": key.record.prefix, "apiKey": key.plaintext},
        args.json,
    )
    return 0


def cmd_apikey_revoke(args: argparse.Namespace) -> int:
    db = _database()
    with db.session() as session:
        revoked = api_keys.revoke_api_key(session, args.company, args.key_id)
        session.commit()
    if not revoked:
        print("no such active key for that company", file=sys.stderr)
        return 1
    _emit({"apiKeyId": str(args.key_id), "revoked": True}, args.json)
    return 0


def cmd_apikey_list(args: argparse.Namespace) -> int:
    db = _database()
    with db.read_session() as session:
        keys = api_keys.list_api_keys(session, args.company)
        rows = [
            {
                "apiKeyId": str(k.id),
                "prefix": k.prefix,
                "name": k.name,
                "createdAt": k.created_at.isoformat(),
                "lastUsedAt": k.last_used_at.isoformat() if k.last_used_at else None,
                "revokedAt": k.revoked_at.isoformat() if k.revoked_at else None,
            }
            for k in keys
        ]
    print(json.dumps(rows, indent=None if args.json else 2))
    return 0


def cmd_user_create(args: argparse.Namespace) -> int:
    db = _database()
    with db.session() as session:
        if companies.get_company(session, args.company) is None:
            print(f"no company {args.company}", file=sys.stderr)
            return 1
        try:
            password = sys.stdin.readline().rstrip("\n") if args.password == "-" else args.password
            user = users.create_user(session, args.company, args.email, password)
        except users.EmailTaken as exc:
            print(str(exc), file=sys.stderr)
            return 1
        session.commit()
    _emit({"userId": str(user.id), "email": user.email}, args.json)
    return 0


API_PROCESS_HEALTHCHECK_SECONDS = 60


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    uvicorn.run(
        "api.app:app_from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level="info",
        # httptools with the request path's limits: header count, size and time, body
        # stalls, open connections (docs/isolation.md, "Request path").
        http="api.http_protocol:GuardedHttpProtocol",
        # uvicorn replaces an API process that has not answered its supervisor within
        # 5 s by default: on a machine at load 16 that replaced 54 processes in a row
        # and the API never came up (docs/soak.md).
        timeout_worker_healthcheck=API_PROCESS_HEALTHCHECK_SECONDS,
    )
    return 0


def _interrupt_once(_signum: int, _frame: object) -> None:
    """The first SIGINT/SIGTERM raises KeyboardInterrupt; Worker.run's finally then stops
    the loops, undisturbed by later signals (Ctrl-C in `make run` brings SIGINT and then
    SIGTERM). Setting the stop event from the handler instead can deadlock: the main
    thread may hold that event's lock at the moment the signal arrives."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def cmd_worker(args: argparse.Namespace) -> int:
    import logging

    from flows.worker import start

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # Before the start and warm-up (several seconds on a busy machine): a signal then
    # stops the worker cleanly too.
    signal.signal(signal.SIGTERM, _interrupt_once)
    signal.signal(signal.SIGINT, _interrupt_once)
    try:
        worker = start(args.processes)
    except KeyboardInterrupt:
        return 0
    try:
        worker.run()
    except KeyboardInterrupt:
        worker.stop.set()
    worker.env.executor.shutdown()
    return 0


def cmd_dispatch(args: argparse.Namespace) -> int:
    import logging
    from datetime import timedelta

    from flows.dispatch import Dispatcher, DispatchPolicy

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)  # not a line per Prefect request
    settings = get_settings()
    policy = DispatchPolicy(
        runs=settings.pipeline_runs,
        unserved_after=timedelta(seconds=max(30.0, settings.lease_seconds)),
        warm_at_start=settings.pipeline_warm_at_start,
    )
    dispatcher = Dispatcher(Database(make_engine(settings.effective_database_url)), policy)
    return _run_until_interrupted(dispatcher.run, dispatcher.stop)


def cmd_webhooks(_: argparse.Namespace) -> int:
    import logging

    from flows.webhook_sender import WebhookSender

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    sender = WebhookSender(_database(), get_settings())
    return _run_until_interrupted(sender.run, sender.stop)


def cmd_mail(_: argparse.Namespace) -> int:
    import logging

    from api.mail_server import serve
    from storage.objectstore import build_object_store

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    settings = get_settings()
    db = Database(make_engine(settings.effective_database_url))
    stop = threading.Event()
    return _run_until_interrupted(
        lambda: serve(settings, db, build_object_store(settings), stop), stop
    )


def _run_until_interrupted(run: Callable[[], None], stop: threading.Event) -> int:
    """Run a loop in the foreground; TERM or Ctrl-C sets its stop event once."""
    signal.signal(signal.SIGTERM, _interrupt_once)
    signal.signal(signal.SIGINT, _interrupt_once)
    try:
        run()
    except KeyboardInterrupt:
        stop.set()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="docintake", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("migrate", help="upgrade the database schema").set_defaults(func=cmd_migrate)

    company = sub.add_parser("company", help="companies").add_subparsers(
        dest="action", required=True
    )
    create = company.add_parser("create", help="create a company and its first API key")
    create.add_argument("--name", required=True)
    create.add_argument("--vat-id", action="append", default=[])
    create.add_argument("--tax-number")
    create.add_argument("--iban", action="append", default=[])
    create.add_argument("--json", action="store_true", help="print one JSON line")
    create.set_defaults(func=cmd_company_create)

    sub.add_parser(
        "demo-company", help="create a demo company, API key and web user when there is none"
    ).set_defaults(func=cmd_demo_company)

    apikey = sub.add_parser("apikey", help="API keys").add_subparsers(dest="action", required=True)
    key_create = apikey.add_parser("create", help="create an API key (shown once)")
    key_create.add_argument("--company", type=uuid.UUID, required=True)
    key_create.add_argument("--name")
    key_create.add_argument("--json", action="store_true")
    key_create.set_defaults(func=cmd_apikey_create)
    key_revoke = apikey.add_parser("revoke", help="revoke an API key at once")
    key_revoke.add_argument("--company", type=uuid.UUID, required=True)
    key_revoke.add_argument("key_id", type=uuid.UUID)
    key_revoke.add_argument("--json", action="store_true")
    key_revoke.set_defaults(func=cmd_apikey_revoke)
    key_list = apikey.add_parser("list", help="list a company's API keys")
    key_list.add_argument("--company", type=uuid.UUID, required=True)
    key_list.add_argument("--json", action="store_true")
    key_list.set_defaults(func=cmd_apikey_list)

    user = sub.add_parser("user", help="web application users").add_subparsers(
        dest="action", required=True
    )
    user_create = user.add_parser("create", help="create a user who logs in at /app/login")
    user_create.add_argument("--company", type=uuid.UUID, required=True)
    user_create.add_argument("--email", required=True)
    user_create.add_argument("--password", required=True, help="'-' reads it from stdin")
    user_create.add_argument("--json", action="store_true")
    user_create.set_defaults(func=cmd_user_create)

    worker = sub.add_parser("worker", help="run a pipeline worker (needs a Prefect server)")
    worker.add_argument("--processes", type=int, default=None, help="default: CPU cores")
    worker.set_defaults(func=cmd_worker)

    sub.add_parser(
        "dispatch", help="hand queued work to Prefect: serve-queue runs on the work pool"
    ).set_defaults(func=cmd_dispatch)

    sub.add_parser(
        "webhooks", help="send the webhook outbox: signed deliveries, retried until delivered"
    ).set_defaults(func=cmd_webhooks)

    sub.add_parser(
        "mail", help="the SMTP endpoint of e-mail intake (DOCINTAKE_MAIL_HOST/PORT, docs/email.md)"
    ).set_defaults(func=cmd_mail)

    add_import_command(sub)
    add_report_command(sub)

    serve = sub.add_parser("serve", help="run the API and web application")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    # One API process per core, at most 4: a process serves requests on one core at a
    # time (the GIL), so a second one answers while the first is busy; each holds its
    # own database pool, so many processes would crowd Postgres's connection limit.
    serve.add_argument("--workers", type=int, default=min(os.cpu_count() or 1, 4))
    serve.set_defaults(func=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    raise SystemExit(main())
