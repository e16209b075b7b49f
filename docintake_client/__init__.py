"""The docintake client: the public HTTP API (/v1) as a typed Python library, and the
bulk importer behind `docintake import`.

    from pathlib import Path
    from docintake_client import DocintakeClient

    with DocintakeClient("http://127.0.0.1:8000", api_key) as client:
        upload = client.upload(Path("invoice.pdf"), "supplier_invoice", "inv-2026-001")
        upload = client.wait(upload)  # polls as Retry-After suggests
        print(upload.status, upload.result.url if upload.result else upload.error)

It talks to the server only over HTTP: nothing here imports the server's packages
(`api`, `flows`, `storage`, `processors`), so it can be lifted out as it is.

    client.py     DocintakeClient: upload, upload_batch, get_upload, get_batch, wait,
                  result, results (pages in change order), original
    models.py     Upload, Batch, BatchCounts, Result, Error, Original (frozen, snake_case)
    result_models.py  every result type's model, GENERATED from the OpenAPI document
    typed.py      JSON to those models
    errors.py     ProblemError, WaitTimeout
    retry.py      RetryPolicy, RetryNotice, Retry-After parsing
    webhooks.py   verify_webhook: the signature check of a webhook delivery
    importer/     `docintake import`: walk, plan, journal, send, report, command
"""

from docintake_client.client import DocintakeClient
from docintake_client.errors import ProblemError, WaitTimeout
from docintake_client.models import Batch, BatchCounts, Error, Original, Result, Upload
from docintake_client.result_models import (
    AnyResult,
    BankStatementResultOut,
    InvoiceResultOut,
    OtherDocumentResultOut,
    PaymentFileResultOut,
    ResultChange,
    ResultPage,
)
from docintake_client.retry import RetryNotice, RetryPolicy
from docintake_client.webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "AnyResult",
    "BankStatementResultOut",
    "Batch",
    "BatchCounts",
    "DocintakeClient",
    "Error",
    "InvoiceResultOut",
    "Original",
    "OtherDocumentResultOut",
    "PaymentFileResultOut",
    "ProblemError",
    "Result",
    "ResultChange",
    "ResultPage",
    "RetryNotice",
    "RetryPolicy",
    "Upload",
    "WaitTimeout",
    "WebhookVerificationError",
    "verify_webhook",
]
