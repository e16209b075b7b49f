"""The one typed settings class. Every knob is an environment variable prefixed DOCINTAKE_."""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Literal, Self

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

MIB = 1024 * 1024


class Environment(StrEnum):
    DEVELOPMENT = "development"
    TEST = "test"
    PRODUCTION = "production"


class UnsafeSettingsError(ValueError):
    pass


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DOCINTAKE_", env_file=".env", extra="ignore")

    environment: Environment = Environment.DEVELOPMENT
    var_dir: Path = Path("var")
    # Empty means the embedded default: a SQLite file under var_dir.
    database_url: str = ""
    public_base_url: str = "http://127.0.0.1:8000"
    # Signs web sessions and seals webhook secrets at rest (storage/secret_box.py):
    # changing it makes the stored webhook secrets unreadable (docs/webhooks.md).
    secret_key: SecretStr = SecretStr("development-only-secret-key")

    # Object store: a local directory (embedded default) or an S3 endpoint.
    s3_endpoint: str = ""
    s3_bucket: str = "docintake"
    s3_access_key: SecretStr = SecretStr("")
    s3_secret_key: SecretStr = SecretStr("")
    s3_secure: bool = False
    s3_region: str = "us-east-1"

    # Limits (MiB: 1 MB here is 1,048,576 bytes).
    max_file_bytes: int = Field(default=50 * MIB, gt=0)
    max_archive_files: int = Field(default=100, gt=0)
    max_archive_bytes: int = Field(default=200 * MIB, gt=0)
    max_external_id_length: int = Field(default=255, gt=0)

    # The request path, per API process (docs/isolation.md, "Request path"): requests in
    # flight (beyond: 503 with Retry-After), open connections (beyond: 503 and closed),
    # headers per request and their bytes (beyond: 431), seconds for a request's headers
    # to arrive and for its body to move on (beyond: the connection is closed).
    max_concurrent_requests: int = Field(default=100, gt=0)
    max_connections: int = Field(default=1000, gt=0)
    max_header_count: int = Field(default=100, gt=0)
    max_header_bytes: int = Field(default=64 * 1024, gt=0)
    header_timeout_seconds: float = Field(default=30.0, gt=0)
    body_timeout_seconds: float = Field(default=30.0, gt=0)

    # Per API key: sustained requests per second and burst.
    rate_limit_per_second: float = Field(default=50.0, gt=0)
    rate_limit_burst: int = Field(default=200, gt=0)
    # Documents per second the pipeline is assumed to finish; drives Retry-After.
    expected_throughput_per_second: float = Field(default=25.0, gt=0)

    # Pipeline workers.
    worker_processes: int = Field(default=0, ge=0)  # 0: one per CPU core
    document_time_limit_seconds: float = Field(default=60.0, gt=0)
    # Kernel limits of each reading process (flows/reader_process.py): memory on top of
    # what the warmed-up process holds (RLIMIT_AS and RLIMIT_DATA), CPU per document
    # (RLIMIT_CPU). A document over either fails alone, `processing_failed`.
    reader_memory_mib: int = Field(default=1536, ge=128)
    reader_cpu_seconds: float = Field(default=60.0, gt=0)
    # A new reading process compiles every validation artefact before its first document
    # (about 8 s of CPU), so no document waits for a compile; false compiles each one on
    # first use instead (quicker starts: the tests, small machines).
    reader_warm_up: bool = True
    lease_seconds: float = Field(default=30.0, gt=1)

    # Status tables (storage/tables, docs/tables.md). Each export re-reads what changed
    # since the last run's start less this overlap: rows committed late, clocks apart,
    # and a slower export overwriting a faster one are all caught by the next run.
    tables_export_overlap_seconds: float = Field(default=600.0, ge=0)
    # While a pipeline run serves the queue (`serve-queue`, `docintake worker`), it
    # exports what changed this often, counted from the last export's start, so a batch
    # is in the tables within 60 s of its end (an export of a few company-days takes
    # well under the 10 s left). 0: only the `export-status-tables` deployment's
    # schedule (every 5 minutes). Batches themselves write no Parquet (docs/tables.md).
    tables_export_interval_seconds: float = Field(default=50.0, ge=0)
    # Retention (docs/retention.md): a deleted upload's stored bytes and its deleted
    # result's data are purged this many days after the deletion (the hourly
    # `purge-deleted-uploads` deployment); 0 purges them at its next run. Uploads that
    # were not deleted are kept.
    purge_after_days: int = Field(default=30, ge=0)
    # Dispatch through the Prefect work pool: how many `serve-queue` flow runs the
    # dispatcher keeps going while work waits (one per worker machine), and when such a
    # run ends: idle that long, or at the latest after `pipeline_run_max_seconds`.
    pipeline_runs: int = Field(default=1, gt=0)
    pipeline_run_idle_seconds: float = Field(default=600.0, gt=0)
    # The dispatcher starts one such run when it starts, before any work waits, so the
    # first upload after a start finds the reading processes warm (docs/throughput.md).
    pipeline_warm_at_start: bool = True
    pipeline_run_max_seconds: float = Field(default=3600.0, gt=0)

    # Web application: how long a sign-in lasts, and how many failed sign-ins per e-mail
    # and per client address lock further tries for the window.
    web_session_hours: float = Field(default=12.0, gt=0)
    login_failures_per_email: int = Field(default=5, gt=0)
    login_failures_per_client: int = Field(default=20, gt=0)
    login_window_minutes: float = Field(default=15.0, gt=0)
    # Tesseract for scanned PDFs: a command on PATH or a path to the binary.
    ocr_command: str = "tesseract"

    # Webhooks (docs/webhooks.md): an answer must come within the timeout; a failed
    # attempt is retried after base, 2 x base, ... at most max seconds apart, until the
    # retries span the window; then the delivery is given up. Private, loopback and
    # link-local targets are refused in production unless allowed here.
    webhook_timeout_seconds: float = Field(default=10.0, gt=0)
    webhook_retry_base_seconds: float = Field(default=5.0, gt=0)
    webhook_retry_max_seconds: float = Field(default=3600.0, gt=0)
    webhook_retry_window_seconds: float = Field(default=86400.0, gt=0)
    webhook_allow_private_targets: bool = False
    # Deliveries one `docintake webhooks` process has on the wire at once, and how many
    # may be in flight (over all senders) to one endpoint and for one company: a company
    # whose endpoint never answers holds at most its caps, the other slots stay free.
    webhook_concurrency: int = Field(default=16, gt=0)
    webhook_endpoint_concurrency: int = Field(default=4, gt=0)
    webhook_company_concurrency: int = Field(default=8, gt=0)

    # E-mail intake (docs/email.md): each company's address is `<token>@<mail_domain>`;
    # `docintake mail` listens on mail_host:mail_port and refuses messages over
    # max_message_bytes (552, announced with the SIZE extension).
    mail_domain: str = "mail.localhost"
    mail_host: str = "127.0.0.1"
    mail_port: int = Field(default=2525, gt=0, lt=65536)
    max_message_bytes: int = Field(default=50 * MIB, gt=0)
    # IMAP polling (docs/email.md): a CA file trusted besides the system's for companies'
    # IMAP servers (a company CA; the tests' Dovecot). Empty: the system's CAs only.
    imap_ca_file: str = ""

    # Online confirmation of foreign EU VAT ids (docs/checks.md): off (default), `evatr`
    # (the BZSt's qualified confirmation: name, place, postcode, street compared; needs
    # the company's own German VAT id) or `vies` (the EU's VIES). The endpoint empty:
    # the service's published address. The same question is answered from the kept
    # answers for the cache time (0: asked every time).
    vat_confirm_service: Literal["off", "evatr", "vies"] = "off"
    vat_confirm_endpoint: str = ""
    vat_confirm_own_vat_id: str = ""
    vat_confirm_cache_hours: float = Field(default=24.0, ge=0)
    vat_confirm_timeout_seconds: float = Field(default=15.0, gt=0)

    @property
    def max_request_bytes(self) -> int:
        """The hard cap on a request body: four times the per-file limit."""
        return 4 * self.max_file_bytes

    @property
    def effective_database_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.var_dir / 'docintake.db').resolve()}"

    @property
    def object_store_dir(self) -> Path:
        return self.var_dir / "objects"

    @model_validator(mode="after")
    def _refuse_unsafe_production_defaults(self) -> Self:
        if self.environment is not Environment.PRODUCTION:
            return self
        problems = []
        if self.secret_key.get_secret_value() == "development-only-secret-key":
            problems.append("DOCINTAKE_SECRET_KEY must be set")
        elif len(self.secret_key.get_secret_value()) < 32:
            problems.append("DOCINTAKE_SECRET_KEY must be at least 32 characters")
        if not self.database_url or self.database_url.startswith("sqlite"):
            problems.append("DOCINTAKE_DATABASE_URL must point to Postgres")
        if not self.s3_endpoint:
            problems.append("DOCINTAKE_S3_ENDPOINT must be set (no local object directory)")
        elif not self.s3_access_key.get_secret_value() or not self.s3_secret_key.get_secret_value():
            problems.append("DOCINTAKE_S3_ACCESS_KEY and DOCINTAKE_S3_SECRET_KEY must be set")
        if not self.public_base_url.startswith("https://"):
            problems.append("DOCINTAKE_PUBLIC_BASE_URL must be https")
        if problems:
            raise UnsafeSettingsError("unsafe production settings: " + "; ".join(problems))
        return self


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
