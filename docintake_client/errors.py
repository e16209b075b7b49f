"""The client's exceptions.

* ProblemError - a request the server refused (its RFC 9457 problem+json body), or one
  that could not be sent after the retries (`status` 0, `code` "connection_error")
* WaitTimeout (a TimeoutError) - `DocintakeClient.wait` ran out of time; `last` holds
  the upload or batch as last seen
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docintake_client.models import Batch, Upload


class ProblemError(Exception):
    """A request the server refused (RFC 9457 problem+json), or that could not be sent."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        retry_after: int | None = None,
        title: str = "",
    ) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.retry_after = retry_after
        self.title = title


class WaitTimeout(TimeoutError):
    """The upload or batch was not finished within the time given to `wait`."""

    def __init__(self, last: Upload | Batch, seconds: float) -> None:
        super().__init__(
            f"{type(last).__name__} {last.id} is still {last.status} after {seconds} s"
        )
        self.last = last
        self.seconds = seconds
