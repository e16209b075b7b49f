"""Every change of a result gets the next number of its company's change sequence, in
commit order: the results API lists a company's results by it (`?cursor=`), so a
client that pages through it misses nothing and sees nothing twice.

A change is a result created, deleted (`deleted_at` set), or confirmed (transactions of
a statement, noted by the repository that confirms). Just before the session commits,
each company's counter row (`companies.result_changes`) is raised by the number of its
changed results, and those get the numbers. The counter's row lock is held until the
commit ends, so a later number is only ever given after the earlier one is committed:
a reader who has seen number n can never later find a new n-1. It is taken last, after
the transaction's own writes are flushed, so the lock lasts only the commit itself.

Result events for webhooks (`result.confirmed`, `result.deleted`) are written in the
same commit, like the upload events (storage/webhook_outbox.py).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from sqlalchemy import event, inspect, update
from sqlalchemy.orm import Session

from storage.links import result_url
from storage.models import Company, Result, utcnow
from storage.repositories import webhooks as webhook_repo
from storage.repositories.news import announce_work
from storage.resources import ResultRef
from storage.webhook_models import WebhookEvent
from storage.webhook_outbox import event_payload, listening
from storage.work_news import WEBHOOK

_NOTED = "docintake.result_changes"


@dataclass
class _Noted:
    results: dict[uuid.UUID, Result] = field(default_factory=dict)
    events: dict[tuple[uuid.UUID, WebhookEvent], Result] = field(default_factory=dict)


def _noted(session: Session) -> _Noted:
    noted = session.info.get(_NOTED)
    if noted is None:
        noted = session.info[_NOTED] = _Noted()
    assert isinstance(noted, _Noted)
    return noted


def note_changed(session: Session, result: Result) -> None:
    """Something the result's answer carries changed in this transaction (a payment
    matched to it, a bank account warning decided): a change, with no webhook event."""
    _noted(session).results[result.id] = result


def note_confirmed(session: Session, result: Result) -> None:
    """Transactions (or the invoice) of this result were confirmed in this transaction."""
    _noted(session).results[result.id] = result
    _noted(session).events[(result.id, WebhookEvent.RESULT_CONFIRMED)] = result


@event.listens_for(Session, "before_flush")
def _note_changes(session: Session, *_: object) -> None:
    for instance in session.new:
        if isinstance(instance, Result):
            _noted(session).results[instance.id] = instance
    for instance in session.dirty:
        if isinstance(instance, Result) and inspect(instance).attrs.deleted_at.history.added:
            _noted(session).results[instance.id] = instance
            if instance.deleted_at is not None:
                _noted(session).events[(instance.id, WebhookEvent.RESULT_DELETED)] = instance


@event.listens_for(Session, "before_commit")
def _number_changes(session: Session) -> None:
    if _NOTED not in session.info:
        return
    session.flush()  # this transaction's own row locks first, the counter's last
    noted = session.info.pop(_NOTED)
    assert isinstance(noted, _Noted)
    changed = [r for r in noted.results.values() if inspect(r).persistent]
    by_company: dict[uuid.UUID, list[Result]] = {}
    for result in sorted(changed, key=lambda r: (str(r.company_id), str(r.id))):
        by_company.setdefault(result.company_id, []).append(result)
    now = utcnow()
    for company_id, results in by_company.items():  # sorted: no two commits deadlock
        last = _raise_counter(session, company_id, len(results))
        for offset, result in enumerate(results):
            result.change_seq = last - len(results) + 1 + offset
            result.updated_at = now
    _add_result_events(session, noted)


@event.listens_for(Session, "after_rollback")
def _forget(session: Session) -> None:
    session.info.pop(_NOTED, None)


def _raise_counter(session: Session, company_id: uuid.UUID, count: int) -> int:
    statement = (
        update(Company)
        .where(Company.id == company_id)
        .values(result_changes=Company.result_changes + count)
        .returning(Company.result_changes)
    )
    return int(session.execute(statement).scalar_one())


def _add_result_events(session: Session, noted: _Noted) -> None:
    wanted = [(k, r) for k, r in noted.events.items() if inspect(r).persistent]
    listeners = webhook_repo.endpoints_of_companies(session, {r.company_id for _, r in wanted})
    added = False
    for (result_id, event_type), result in wanted:
        ref = ResultRef(type=result.type, id=result_id, url=result_url("", result.type, result_id))
        now = utcnow()
        data = {"result": ref.model_dump(mode="json", by_alias=True)}
        payload = event_payload(event_type, data, now)
        for endpoint in listening(listeners, result.company_id, event_type):
            webhook_repo.add_delivery(session, endpoint.id, event_type, result_id, payload, now)
            added = True
    if added:
        announce_work(session, WEBHOOK)
