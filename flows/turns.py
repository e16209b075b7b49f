"""Reading turns: how many batches a worker reads at once, and when a batch lets the
next one start.

A batch holds a turn from its claim until every one of its remaining documents is in
the readers' hands (`give_back` from the batch's progress), not until its flow run
ends. The next batch is then claimed, started and unpacked while those last documents
are read, and the finished batch's end (its table artifact and flow-run state, and
until issue 38 the status tables: 0.4-1.2 s) no longer leaves the readers idle. Two
batches that started together share the readers fairly and end together; holding their
turns to the end made both loops stall at once, every cycle (docs/throughput.md).

Turns are counted per company: one company's batches hold at most
`BATCHES_PER_COMPANY` of them, so another company's batch is claimed at once however
long the first company's batches read (with documents of 60 s each, a batch held its
turn for tens of minutes, and two of them held every turn there was).
"""

from __future__ import annotations

import threading
import uuid

# Batches of one company reading at once in a worker, as before turns were per company.
BATCHES_PER_COMPANY = 2
# Batches of all companies reading at once: room for two other companies beside one
# company's two.
BATCHES_READING = 4
# The loops that claim batches: one more than turns, so a batch that gave its turn back
# can end while another is claimed.
BATCH_LOOPS = BATCHES_READING + 1


class ReadingTurns:
    def __init__(
        self, turns: int = BATCHES_READING, per_company: int = BATCHES_PER_COMPANY
    ) -> None:
        self.per_company = per_company
        self._free = threading.Semaphore(turns)
        self._lock = threading.Lock()
        self._held: dict[uuid.UUID, uuid.UUID] = {}  # batch -> its company

    def take(self, timeout: float) -> bool:
        """Wait up to `timeout` for a free turn; True if one was taken."""
        return self._free.acquire(timeout=timeout)

    def full(self) -> frozenset[uuid.UUID]:
        """The companies that hold every turn one company may: the turn just taken is
        for another company's batch."""
        with self._lock:
            counts: dict[uuid.UUID, int] = {}
            for company in self._held.values():
                counts[company] = counts.get(company, 0) + 1
        return frozenset(company for company, count in counts.items() if count >= self.per_company)

    def hold(self, batch_id: uuid.UUID, company_id: uuid.UUID) -> None:
        """The turn just taken is this batch's."""
        with self._lock:
            self._held[batch_id] = company_id

    def give_back(self, batch_id: uuid.UUID | None = None) -> None:
        """Give the batch's turn back; asked again for the same batch, nothing happens.
        None: the turn just taken found no batch to claim."""
        with self._lock:
            if batch_id is not None and self._held.pop(batch_id, None) is None:
                return
        self._free.release()
