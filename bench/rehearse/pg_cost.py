"""Where host A's Postgres spends its time in a scaling step: its processes' CPU by role
(a backend by database and the host it serves, or a background process by kind) and
the statements that took the longest (pg_stat_statements, reset when a step's window
opens), so Postgres's CPU per document growing with the worker hosts can be traced to
a statement or a role."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, text

from bench.rehearse.hosts import Host, process_cpu

# `-c` options for the cluster (bench/rehearse/services.py): statement statistics.
STATEMENT_STATISTICS = "-c shared_preload_libraries=pg_stat_statements"
TOP_STATEMENTS = 12


def enable_statement_statistics(engine: Engine) -> None:
    with engine.begin() as connection:
        connection.execute(text("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"))


def reset_statement_statistics(engine: Engine) -> None:
    with engine.begin() as connection:
        connection.execute(text("SELECT pg_stat_statements_reset()"))


def top_statements(engine: Engine, documents: int) -> dict[str, Any]:
    """The statements with the most execution time since the reset, every database,
    with calls and milliseconds per finished document."""
    per = max(documents, 1)
    query = text(
        "SELECT d.datname, s.calls, s.total_exec_time, s.rows, left(s.query, 160)"
        " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
        " ORDER BY s.total_exec_time DESC"
    )
    with engine.connect() as connection:
        rows = list(connection.execute(query))
    total_ms = sum(float(row[2]) for row in rows)
    return {
        "exec_ms_per_document": round(total_ms / per, 3),
        "calls_per_document": round(sum(int(row[1]) for row in rows) / per, 2),
        "top": [
            {
                "database": str(database),
                "calls_per_document": round(int(calls) / per, 3),
                "exec_ms_per_document": round(float(total) / per, 4),
                "rows_per_call": round(int(found) / max(int(calls), 1), 1),
                "query": " ".join(str(query_text).split()),
            }
            for database, calls, total, found, query_text in rows[:TOP_STATEMENTS]
        ],
    }


def _role(pid: int, hosts_by_address: dict[str, str]) -> str | None:
    """'docintake from d' for a backend, 'autovacuum worker' for a background process."""
    try:
        title = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    except OSError:
        return None
    if not title.startswith("postgres: "):
        return "postmaster (and ended backends)"
    words = title.removeprefix("postgres: ").split()
    if len(words) >= 3 and "(" in words[2]:  # user database address(port) state
        address = words[2].split("(")[0]
        return f"{words[1]} from {hosts_by_address.get(address, address)}"
    return " ".join(word for word in words if not word.isdigit())[:40]


def postgres_cpu_by_role(host: Host, hosts_by_address: dict[str, str]) -> dict[str, float]:
    """CPU seconds of host A's Postgres processes by role, reaped children included."""
    found: dict[str, float] = {}
    for pid in host.pids():
        spent = process_cpu(pid)
        if spent is None or spent[0] != "postgres":
            continue
        if (role := _role(pid, hosts_by_address)) is not None:
            found[role] = found.get(role, 0.0) + spent[1]
    return found


def cpu_ms_per_document(
    before: dict[str, float], after: dict[str, float], documents: int
) -> dict[str, float]:
    per = max(documents, 1)
    spent = {role: 1000 * (value - before.get(role, 0.0)) / per for role, value in after.items()}
    ranked = sorted(spent.items(), key=lambda item: -item[1])
    return {role: round(ms, 2) for role, ms in ranked if ms >= 0.05}
