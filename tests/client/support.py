"""The running stack the client tests talk to."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select

from api.deps import Services
from docintake_client import DocintakeClient
from flows.work import WorkerEnv
from storage.models import Batch, Upload
from tests.conftest import Tenant


@dataclass(frozen=True)
class Stack:
    base_url: str
    services: Services
    company: Tenant
    env: WorkerEnv

    def client(self) -> DocintakeClient:
        return DocintakeClient(self.base_url, self.company.api_key, timeout=30)

    def count(self, model: type[Batch] | type[Upload]) -> int:
        with self.env.db.read_session() as session:
            return int(session.scalar(select(func.count()).select_from(model)) or 0)
