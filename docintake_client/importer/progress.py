"""The progress display on stderr while an import runs."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

from docintake_client.importer.model import MIB, ImportEvent, Plan


class ProgressView:
    """Files and MB done (with ETA) and one line per batch, drawn with rich."""

    def __init__(self, console: Console, plans: Sequence[Plan]) -> None:
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeRemainingColumn(),
            console=console,
            transient=False,
        )
        self.files_total = sum(len(plan.documents) for plan in plans)
        self.bytes_total = sum(plan.size for plan in plans)
        self.files_done = self.bytes_done = 0
        self.overall = self.progress.add_task("all", total=self.bytes_total or 1, detail="")
        self.rows: dict[str, TaskID] = {
            plan.external_id: self.progress.add_task(
                f"batch {index + 1}", total=len(plan.documents), visible=False, detail="waiting"
            )
            for index, plan in enumerate(plans)
        }
        self._describe_overall()

    def _describe_overall(self) -> None:
        detail = (
            f"{self.files_done}/{self.files_total} files, "
            f"{self.bytes_done / MIB:.1f}/{self.bytes_total / MIB:.1f} MB"
        )
        self.progress.update(self.overall, completed=self.bytes_done, detail=detail)

    @staticmethod
    def _status(event: ImportEvent) -> str:
        if event.problem is not None:
            return f"refused ({event.problem.code})"
        assert event.batch is not None
        counts = event.batch.counts
        return f"{event.batch.status}: {counts.completed} ok, {counts.failed} failed"

    def __call__(self, event: ImportEvent) -> None:
        task = self.rows[event.plan.external_id]
        done = event.batch.counts.completed + event.batch.counts.failed if event.batch else 0
        self.progress.update(task, completed=done, detail=self._status(event), visible=True)
        if event.kind in ("finished", "refused"):
            self.files_done += len(event.plan.documents)
            self.bytes_done += event.plan.size
            self._describe_overall()
