"""The export's watermark: `tables/_state.json` in the object store, beside the tables.

It records when the last complete export run started and the schema versions it wrote.
A run exports what changed since the watermark (less an overlap, see export.py); when
the versions in the state differ from the code's, the next run exports everything.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from storage.objectstore import ObjectStore
from storage.tables.schemas import STATE_KEY


@dataclass(frozen=True, slots=True)
class ExportState:
    watermark: datetime
    versions: dict[str, int]
    finished_at: datetime

    def to_json(self) -> bytes:
        payload = {
            "watermark": self.watermark.isoformat(),
            "versions": self.versions,
            "finished_at": self.finished_at.isoformat(),
        }
        return (json.dumps(payload, indent=2) + "\n").encode()

    @classmethod
    def from_json(cls, data: bytes) -> ExportState:
        payload = json.loads(data)
        return cls(
            watermark=datetime.fromisoformat(payload["watermark"]),
            versions={str(k): int(v) for k, v in payload["versions"].items()},
            finished_at=datetime.fromisoformat(payload["finished_at"]),
        )


def load_state(store: ObjectStore) -> ExportState | None:
    if not store.exists(STATE_KEY):
        return None
    return ExportState.from_json(store.read_bytes(STATE_KEY))


def save_state(store: ObjectStore, state: ExportState) -> None:
    writer = store.open_writer(STATE_KEY)
    try:
        writer.write(state.to_json())
    except BaseException:
        writer.abort()
        raise
    writer.commit()
