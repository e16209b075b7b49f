"""The change sequence behind GET /v1/results: every change of a result is numbered in
commit order per company, so a reader paging through it while others write skips
nothing and sees nothing twice. On Postgres, with writers that hold their commit open
after the number is given."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, event
from sqlalchemy.orm import Session

from storage.db import Database
from storage.models import Result
from storage.repositories import web_results
from storage.repositories.results import book_result, changed_results
from tests.conftest import Tenant, make_tenant

WRITERS = 3
CHANGES_PER_WRITER = 30
PAGE = 4
SLOW = "test.slow_commit"


@pytest.fixture
def slow_commits() -> Iterator[None]:
    """Registered after storage/result_changes.py's own listener, so it runs after the
    numbering: the numbered transaction stays uncommitted for up to 20 ms."""

    def linger(session: Session) -> None:
        if session.info.get(SLOW):
            time.sleep(random.uniform(0, 0.02))

    event.listen(Session, "before_commit", linger)
    yield
    event.remove(Session, "before_commit", linger)


def _write(database: Database, company_id: uuid.UUID, errors: list[BaseException]) -> None:
    mine: list[uuid.UUID] = []
    try:
        for step in range(CHANGES_PER_WRITER):
            with database.session() as session:
                session.info[SLOW] = True
                if step % 3 == 2:  # every third change deletes one of its own results
                    web_results.delete_result(session, company_id, mine.pop(0))
                else:
                    sha = uuid.uuid4().hex * 2
                    mine.append(book_result(session, company_id, sha, "other_document", {}).id)
                session.commit()
    except BaseException as exc:
        errors.append(exc)


@pytest.mark.parametrize("backend", ["postgres-s3"], indirect=True)
def test_paging_while_results_change_skips_and_repeats_nothing(
    fresh_engine: Engine, slow_commits: None
) -> None:
    database = Database(fresh_engine)
    tenant = make_tenant(database)
    errors: list[BaseException] = []
    writers = [
        threading.Thread(target=_write, args=(database, tenant.company_id, errors))
        for _ in range(WRITERS)
    ]
    for writer in writers:
        writer.start()
    seen: list[tuple[uuid.UUID, int]] = []
    after = 0
    while any(w.is_alive() for w in writers) or _page(database, tenant, after):
        page = _page(database, tenant, after)
        seen += page
        after = page[-1][1] if page else after
        time.sleep(0.002)
    for writer in writers:
        writer.join()
    assert errors == []
    sequences = [seq for _, seq in seen]
    assert sequences == sorted(set(sequences)), "a change came twice or out of order"
    with database.read_session() as session:
        final = {
            r.id: r.change_seq
            for r in session.query(Result).filter_by(company_id=tenant.company_id)
        }
    last_seen = dict(seen)  # the last change of each result the reader saw
    assert last_seen == final, "a result's last change was skipped"
    assert len(final) == WRITERS * CHANGES_PER_WRITER * 2 // 3
    assert max(sequences) == WRITERS * CHANGES_PER_WRITER  # one number per change


def _page(database: Database, tenant: Tenant, after: int) -> list[tuple[uuid.UUID, int]]:
    with database.read_session() as session:
        return [
            (r.id, r.change_seq) for r in changed_results(session, tenant.company_id, after, PAGE)
        ]
