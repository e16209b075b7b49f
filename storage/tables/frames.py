"""From rows read in chunks to the tables' frames (pure polars, no I/O)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import polars as pl

from storage.links import RESULT_PATHS
from storage.states import UnpackState, UploadStatus, derive_batch_status
from storage.tables.schemas import FAILURE_CODES, RESULTS_BY_TYPE


def result_urls(base_url: str) -> pl.Expr:
    """storage.links.result_url, column at a time: null where there is no result."""
    path = pl.col("result_type").replace_strict(RESULT_PATHS, default=None, return_dtype=pl.String)
    return pl.concat_str([pl.lit(base_url.rstrip("/") + "/app/"), path, pl.lit("/"), "result_id"])


def upload_urls(base_url: str) -> pl.Expr:
    """The upload's page in the web application (`/app/uploads/<id>`)."""
    return pl.concat_str([pl.lit(base_url.rstrip("/") + "/app/uploads/"), "upload_id"])


def with_result_urls(chunk: pl.DataFrame, base_url: str) -> pl.DataFrame:
    return chunk.with_columns(result_urls(base_url).alias("result_url"))


def state_durations(history: Iterable[pl.DataFrame]) -> Iterator[pl.DataFrame]:
    """Each change with when its state was left and how long it lasted.

    The chunks come ordered by upload and change, an upload's changes consecutive. The
    last upload of a chunk may go on in the next chunk, so its rows wait for it."""
    held: pl.DataFrame | None = None
    for chunk in history:
        rows = chunk if held is None else pl.concat([held, chunk])
        if rows.height == 0:
            continue
        tail = int((rows["upload_id"] == rows["upload_id"][-1]).sum())
        held = rows.tail(tail)
        if rows.height > tail:
            yield _durations(rows.head(rows.height - tail))
    if held is not None and held.height:
        yield _durations(held)


def _durations(rows: pl.DataFrame) -> pl.DataFrame:
    """Rows sorted by upload and change: neighbours tell where an upload starts and
    ends, so no grouping is needed."""
    upload = pl.col("upload_id")
    first = (upload != upload.shift(1)).fill_null(True)
    has_next = (upload == upload.shift(-1)).fill_null(False)
    left_at = pl.when(has_next).then(pl.col("at").shift(-1))
    index = pl.int_range(pl.len(), dtype=pl.Int32)
    return rows.with_columns(
        sequence=index - pl.when(first).then(index).forward_fill() + 1,
        left_at=left_at,
        duration_seconds=(left_at - pl.col("at")).dt.total_microseconds() / 1_000_000,
        is_current=~has_next,
    )


class UploadAggregates:
    """results_by_type and failure_codes of a partition, summed chunk by chunk."""

    def __init__(self) -> None:
        self._results: list[pl.DataFrame] = []
        self._failures: list[pl.DataFrame] = []

    def add(self, chunk: pl.DataFrame) -> None:
        completed = chunk.lazy().filter(
            pl.col("status") == UploadStatus.COMPLETED, pl.col("result_type").is_not_null()
        )
        failed = chunk.lazy().filter(pl.col("status") == UploadStatus.FAILED)
        results, failures = pl.collect_all(
            [
                completed.group_by("document_type", "result_type").agg(
                    uploads=pl.len().cast(pl.Int64), size_bytes=pl.col("size_bytes").sum()
                ),
                failed.group_by("document_type", pl.col("error_code").fill_null("unknown")).agg(
                    uploads=pl.len().cast(pl.Int64),
                    first_failed_at=pl.col("updated_at").min(),
                    last_failed_at=pl.col("updated_at").max(),
                ),
            ]
        )
        self._results.append(results)
        self._failures.append(failures)

    def results_by_type(self) -> pl.DataFrame:
        parts = pl.concat(self._results) if self._results else pl.DataFrame()
        if parts.height == 0:
            return pl.DataFrame(schema=RESULTS_BY_TYPE.polars)
        return (
            parts.group_by("document_type", "result_type")
            .agg(pl.col("uploads").sum(), pl.col("size_bytes").sum())
            .sort("document_type", "result_type")
        )

    def failure_codes(self) -> pl.DataFrame:
        parts = pl.concat(self._failures) if self._failures else pl.DataFrame()
        if parts.height == 0:
            return pl.DataFrame(schema=FAILURE_CODES.polars)
        return (
            parts.group_by("document_type", "error_code")
            .agg(
                pl.col("uploads").sum(),
                pl.col("first_failed_at").min(),
                pl.col("last_failed_at").max(),
            )
            .sort("document_type", "error_code")
        )


def batches_frame(batches: pl.DataFrame) -> pl.DataFrame:
    """Batches with their counts of uploads by status, and the batch status derived from
    them (storage.states.derive_batch_status, the rule the API answers with)."""
    statuses = [status.value for status in UploadStatus]
    derived = [
        derive_batch_status(UnpackState(state), {**counts, "total": sum(counts.values())}).value
        for state, counts in zip(
            batches["unpack_state"], batches.select(statuses).iter_rows(named=True), strict=True
        )
    ]
    duration = (pl.col("finished_at") - pl.col("created_at")).dt.total_microseconds() / 1e6
    return batches.with_columns(
        uploads=pl.sum_horizontal(statuses),
        status=pl.Series(derived, dtype=pl.String),
        duration_seconds=duration,
    )
