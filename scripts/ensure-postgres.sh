#!/usr/bin/env bash
# Make the test Postgres (127.0.0.1:5432, database `test`, trust auth) reachable:
# start the local cluster when it is installed but stopped.
set -euo pipefail
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
  exit 0
fi
if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "Postgres is not installed; tests that need it will be skipped (CI fails on that)." >&2
  exit 0
fi
version=$(ls /etc/postgresql | sort -V | tail -n 1)
pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 1
done
pg_isready -h 127.0.0.1 -p 5432
psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='test'" | grep -q 1 \
  || psql -h 127.0.0.1 -U postgres -c "CREATE DATABASE test"
