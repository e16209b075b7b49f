"""The journal `RESULTS.state.jsonl`: what a re-run needs to send nothing twice.

Append-only JSON lines, each fsynced: `planned` (a batch's externalId and members)
before the batch is sent, `accepted` (its batch id) once the server took it.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from docintake_client.importer.model import Plan


class Journal:
    """Append-only JSON lines: `planned` before a batch is sent, `accepted` after."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.planned: dict[str, list[str]] = {}
        self.accepted: dict[str, str] = {}
        self._lock = threading.Lock()
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    self._apply(json.loads(line))

    def _apply(self, event: dict[str, object]) -> None:
        external_id = str(event["externalId"])
        if event["event"] == "planned":
            members = event["members"]
            assert isinstance(members, list)
            self.planned[external_id] = [str(member) for member in members]
        elif event["event"] == "accepted":
            self.accepted[external_id] = str(event["batchId"])

    def _append(self, event: dict[str, object]) -> None:
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(event) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            self._apply(event)

    def record_plan(self, plan: Plan) -> None:
        if plan.external_id not in self.planned:
            members = [document.key for document in plan.documents]
            self._append({"event": "planned", "externalId": plan.external_id, "members": members})

    def record_accepted(self, plan: Plan, batch_id: str) -> None:
        self._append({"event": "accepted", "externalId": plan.external_id, "batchId": batch_id})
