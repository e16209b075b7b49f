from __future__ import annotations

import uuid

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from storage.models import Company


def create_company(
    session: Session,
    name: str,
    vat_ids: list[str] | None = None,
    tax_number: str | None = None,
    ibans: list[str] | None = None,
) -> Company:
    company = Company(
        id=uuid.uuid4(),
        name=name,
        vat_ids=vat_ids or [],
        tax_number=tax_number,
        ibans=ibans or [],
    )
    session.add(company)
    session.flush()
    return company


def get_company(session: Session, company_id: uuid.UUID) -> Company | None:
    return session.get(Company, company_id)


def count_companies(session: Session) -> int:
    return int(session.scalar(select(func.count()).select_from(Company)) or 0)
