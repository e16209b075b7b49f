#!/usr/bin/env bash
# The pipeline for `make run`: the deployments of prefect.yaml on the `docintake`
# process pool, a Prefect worker of that pool, and the dispatcher that starts
# `serve-queue` runs while work waits in the database.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
export DOCINTAKE_HOME="$PWD"
# The worker asks for runs to start every second (Prefect's default is 10 s).
export PREFECT_WORKER_QUERY_SECONDS="${PREFECT_WORKER_QUERY_SECONDS:-1}"

$BIN/prefect --no-prompt work-pool create docintake --type process --overwrite >/dev/null
$BIN/prefect --no-prompt deploy --all >/dev/null
echo "Prefect deployments registered on work pool 'docintake' (serve-queue, export-status-tables every 5 min, process-batch, process-uploads)"

pids=()
descendants() {
  local child
  for child in $(pgrep -P "$1"); do echo "$child"; descendants "$child"; done
}
stop() {
  trap - INT TERM EXIT
  # The Prefect worker starts each flow run in a session of its own, so Ctrl-C does not
  # reach a running serve-queue run: stop the whole tree, runs included.
  local tree=()
  for pid in "${pids[@]}"; do mapfile -t -O "${#tree[@]}" tree < <(descendants "$pid"); done
  kill -TERM "${pids[@]}" "${tree[@]}" 2>/dev/null || true
  wait
  # Flow runs are not our children: wait for them too (they report their final state
  # to the Prefect server, which run-stack.sh stops after this script has exited).
  for _ in $(seq 1 60); do
    alive=0
    for pid in "${tree[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.5
  done
  kill -KILL "${tree[@]}" 2>/dev/null || true
}
trap stop INT TERM EXIT
$BIN/prefect worker start --pool docintake --type process \
  > "${DOCINTAKE_VAR_DIR:-var}/prefect-worker.log" 2>&1 &
pids+=($!)
$BIN/docintake dispatch > "${DOCINTAKE_VAR_DIR:-var}/docintake-dispatch.log" 2>&1 &
pids+=($!)
echo "pipeline: Prefect worker and dispatcher started (logs in ${DOCINTAKE_VAR_DIR:-var}/)"
wait -n "${pids[@]}"
