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
    locale: str = "de",
) -> Company:
    company = Company(
        id=uuid.uuid4(),
        name=name,
        vat_ids=vat_ids or [],
        tax_number=tax_number,
        ibans=ibans or [],
        locale=locale,
    )
    session.add(company)
    session.flush()
    return company


def get_company(session: Session, company_id: uuid.UUID) -> Company | None:
    return session.get(Company, company_id)


def update_profile(
    session: Session,
    company_id: uuid.UUID,
    *,
    name: str,
    vat_ids: list[str],
    tax_number: str | None,
    ibans: list[str],
    locale: str,
    time_zone: str | None = None,
) -> Company | None:
    """Replaces the company's master data and locale (and time zone, when given); None
    when there is no such company. The caller has checked the values (api/web/master_data.py)."""
    company = get_company(session, company_id)
    if company is None:
        return None
    company.name, company.vat_ids, company.tax_number = name, list(vat_ids), tax_number
    company.ibans, company.locale = list(ibans), locale
    if time_zone is not None:
        company.time_zone = time_zone
    session.flush()
    return company


def count_companies(session: Session) -> int:
    return int(session.scalar(select(func.count()).select_from(Company)) or 0)
