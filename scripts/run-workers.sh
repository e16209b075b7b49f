#!/usr/bin/env bash
# The pipeline for `make run`: deployments and a Prefect process worker for runs
# started by hand, and a docintake worker that claims queued work from the database.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
export DOCINTAKE_HOME="$PWD"

# Deployments are for runs started by hand; the pipeline does not depend on them.
if $BIN/prefect --no-prompt work-pool create docintake --type process --overwrite >/dev/null \
   && $BIN/prefect --no-prompt deploy --all >/dev/null; then
  echo "Prefect deployments: process-batch, process-uploads (work pool 'docintake')"
else
  echo "warning: could not register the Prefect deployments; the pipeline runs without them" >&2
fi

pids=()
trap 'kill -TERM "${pids[@]}" 2>/dev/null || true; wait' INT TERM EXIT
$BIN/prefect worker start --pool docintake --type process \
  > "${DOCINTAKE_VAR_DIR:-var}/prefect-worker.log" 2>&1 &
pids+=($!)
$BIN/docintake worker > "${DOCINTAKE_VAR_DIR:-var}/docintake-worker.log" 2>&1 &
pids+=($!)
echo "pipeline workers started (logs in ${DOCINTAKE_VAR_DIR:-var}/)"
wait -n "${pids[@]}"
