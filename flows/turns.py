"""Reading turns: how many batches a worker reads at once, and when a batch lets the
next one start.

A batch holds a turn from its claim until every one of its remaining documents is in
the readers' hands (`give_back` from the batch's progress), not until its flow run
ends. The next batch is then claimed, started and unpacked while those last documents
are read, and the finished batch's end (its table artifact, status tables and flow-run
state, 0.4-1.2 s) no longer leaves the readers idle. Two batches that started together
share the readers fairly and end together; holding their turns to the end made both
loops stall at once, every cycle (docs/throughput.md).
"""

from __future__ import annotations

import threading
import uuid

# Batches reading at once, and the loops that claim them: one more loop than turns, so
# a batch that gave its turn back can end while another is claimed.
BATCHES_READING = 2
BATCH_LOOPS = BATCHES_READING + 1


class ReadingTurns:
    def __init__(self, turns: int = BATCHES_READING) -> None:
        self._free = threading.Semaphore(turns)
        self._lock = threading.Lock()
        self._held: set[uuid.UUID] = set()

    def take(self, timeout: float) -> bool:
        """Wait up to `timeout` for a free turn; True if one was taken."""
        return self._free.acquire(timeout=timeout)

    def hold(self, batch_id: uuid.UUID) -> None:
        """The turn just taken is this batch's."""
        with self._lock:
            self._held.add(batch_id)

    def give_back(self, batch_id: uuid.UUID | None = None) -> None:
        """Give the batch's turn back; asked again for the same batch, nothing happens.
        None: the turn just taken found no batch to claim."""
        with self._lock:
            if batch_id is not None:
                if batch_id not in self._held:
                    return
                self._held.discard(batch_id)
        self._free.release()
