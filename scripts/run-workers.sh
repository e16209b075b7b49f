#!/usr/bin/env bash
# The pipeline for `make run`: the deployments of prefect.yaml on the `docintake`
# process pool, a Prefect worker of that pool, and the dispatcher that starts
# `serve-queue` runs while work waits in the database.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
export DOCINTAKE_HOME="$PWD"
# The worker asks for runs to start every 3 s (Prefect's default is 10 s). Each ask costs
# the Prefect server 30-40 ms of CPU; a `serve-queue` run lives through a busy period, so
# the interval only delays the start of one (docs/throughput.md).
export PREFECT_WORKER_QUERY_SECONDS="${PREFECT_WORKER_QUERY_SECONDS:-3}"

$BIN/prefect --no-prompt work-pool create docintake --type process --overwrite >/dev/null
$BIN/prefect --no-prompt deploy --all >/dev/null
echo "Prefect deployments registered on work pool 'docintake' (serve-queue, export-status-tables every 5 min, purge-deleted-uploads every hour, poll-mailboxes every minute, process-batch, process-uploads)"

pids=()
descendants() {
  local child
  for child in $(pgrep -P "$1"); do echo "$child"; descendants "$child"; done
}
gone_within() {  # gone_within TICKS PID...: wait up to TICKS x 0.5 s for the PIDs to exit
  local ticks=$1 pid alive
  shift
  for _ in $(seq 1 "$ticks"); do
    alive=0
    for pid in "$@"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && return 0
    sleep 0.5
  done
  return 1
}
stop() {
  # Once stopping, a second signal (Ctrl-C, then make's TERM) must not cut it short.
  trap '' INT TERM
  trap - EXIT
  # The Prefect worker starts each flow run in a session of its own, so Ctrl-C does not
  # reach a running serve-queue run: stop the whole tree, runs included.
  local tree=()
  for pid in "${pids[@]}"; do mapfile -t -O "${#tree[@]}" tree < <(descendants "$pid"); done
  kill -TERM "${pids[@]}" "${tree[@]}" 2>/dev/null || true
  # Flow runs report their final state to the Prefect server, which run-stack.sh stops
  # after this script has exited. A Prefect worker that started with SIGINT ignored (a
  # background job of a script) may not exit on TERM: it holds no work by then.
  gone_within 60 "${tree[@]}" || true
  gone_within 4 "${pids[@]}" || true
  kill -KILL "${pids[@]}" "${tree[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT
# A session of its own: Ctrl-C would stop the worker at once, and its flow runs (its
# children, but not in its process group) would lose their parent before stop() finds
# them; stop() ends the worker and its runs together.
setsid $BIN/prefect worker start --pool docintake --type process \
  > "${DOCINTAKE_VAR_DIR:-var}/prefect-worker.log" 2>&1 &
pids+=($!)
$BIN/docintake dispatch > "${DOCINTAKE_VAR_DIR:-var}/docintake-dispatch.log" 2>&1 &
pids+=($!)
# Webhook deliveries from the outbox (docs/webhooks.md).
$BIN/docintake webhooks > "${DOCINTAKE_VAR_DIR:-var}/docintake-webhooks.log" 2>&1 &
pids+=($!)
echo "pipeline: Prefect worker, dispatcher and webhook sender started (logs in ${DOCINTAKE_VAR_DIR:-var}/)"
wait -n "${pids[@]}"
