from __future__ import annotations

import pytest
from pydantic import SecretStr, ValidationError

from storage.settings import MIB, Environment, Settings


def test_embedded_defaults() -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.effective_database_url.startswith("sqlite:///")
    assert settings.max_file_bytes == 50 * MIB
    assert settings.max_archive_files == 100
    assert settings.max_archive_bytes == 200 * MIB
    assert settings.max_request_bytes == 200 * MIB


def test_environment_variables_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCINTAKE_MAX_ARCHIVE_FILES", "7")
    monkeypatch.setenv("DOCINTAKE_DATABASE_URL", "postgresql+psycopg://x@db/y")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.max_archive_files == 7
    assert settings.effective_database_url == "postgresql+psycopg://x@db/y"


def test_production_refuses_unsafe_defaults() -> None:
    with pytest.raises(ValidationError) as refused:
        Settings(environment=Environment.PRODUCTION, _env_file=None)  # type: ignore[call-arg]
    message = str(refused.value)
    assert "unsafe production settings" in message
    for variable in ("SECRET_KEY", "DATABASE_URL", "S3_ENDPOINT", "PUBLIC_BASE_URL"):
        assert f"DOCINTAKE_{variable}" in message


def test_production_accepts_a_safe_configuration() -> None:
    settings = Settings(
        environment=Environment.PRODUCTION,
        secret_key=SecretStr("s" * 40),
        database_url="postgresql+psycopg://app@db/docintake",
        s3_endpoint="https://s3.example.internal",
        s3_access_key=SecretStr("a"),
        s3_secret_key=SecretStr("b"),
        public_base_url="https://docintake.example",
        _env_file=None,  # type: ignore[call-arg]
    )
    assert settings.environment is Environment.PRODUCTION


def test_the_retention_period_is_30_days_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings(_env_file=None).purge_after_days == 30  # type: ignore[call-arg]
    monkeypatch.setenv("DOCINTAKE_PURGE_AFTER_DAYS", "7")
    assert Settings(_env_file=None).purge_after_days == 7  # type: ignore[call-arg]
    monkeypatch.setenv("DOCINTAKE_PURGE_AFTER_DAYS", "-1")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]
