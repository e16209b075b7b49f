#!/usr/bin/env bash
# Start the whole embedded stack in the foreground; Ctrl-C stops all of it.
#   Prefect server + UI  http://127.0.0.1:4200  (SQLite under var/prefect)
#   API + web app        http://127.0.0.1:8000
#   Pipeline workers     (see flows/; started when present)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

export DOCINTAKE_VAR_DIR="${DOCINTAKE_VAR_DIR:-$PWD/var}"
export PREFECT_HOME="${PREFECT_HOME:-$DOCINTAKE_VAR_DIR/prefect}"
export PREFECT_API_URL="${PREFECT_API_URL:-http://127.0.0.1:4200/api}"
export PREFECT_SERVER_API_HOST=127.0.0.1
export PREFECT_SERVER_API_PORT=4200
export PREFECT_SERVER_ANALYTICS_ENABLED=false
export PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT=false
export DO_NOT_TRACK=1
# The Prefect server's services and batching, shared with the benchmarks (bench/stack.py).
set -a
. scripts/prefect-server.env
set +a
mkdir -p "$DOCINTAKE_VAR_DIR" "$PREFECT_HOME"

pids=()
stop() {
  # Once stopping, a second signal (Ctrl-C again, make's TERM) must not cut it short.
  trap '' INT TERM
  trap - EXIT
  echo "stopping docintake..."
  # The pipeline and the API first: a flow run that is stopping reports its final state
  # to the Prefect server, so the server goes last.
  for pid in "${pids[@]:1}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]:1}"; do wait "$pid" 2>/dev/null || true; done
  kill -TERM "${pids[0]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

$BIN/docintake migrate
$BIN/docintake demo-company

# A session of its own: Ctrl-C reaches the whole foreground group, and uvicorn inside the
# Prefect server would stop at once, while stopping flow runs still report to it.
# stop() ends it last. At nice 5: orchestration yields the CPU to the API's requests.
setsid nice -n 5 $BIN/prefect server start --host 127.0.0.1 --port 4200 > "$DOCINTAKE_VAR_DIR/prefect-server.log" 2>&1 &
pids+=($!)
until curl -fsS -o /dev/null http://127.0.0.1:4200/api/health 2>/dev/null; do
  kill -0 "${pids[0]}" 2>/dev/null || { echo "Prefect server failed; see var/prefect-server.log"; exit 1; }
  sleep 1
done
echo "Prefect UI:  http://127.0.0.1:4200"

if [ -x scripts/run-workers.sh ]; then
  : > "$DOCINTAKE_VAR_DIR/prefect-worker.log"  # no line of an earlier start counts below
  bash scripts/run-workers.sh &
  pids+=($!)
  # The dispatcher starts a serve-queue run at once (pipeline_warm_at_start); the API
  # starts when that run's reading processes are warm, so the first upload it takes is
  # read within seconds instead of waiting 10-30 s for a process start and warm-up.
  # The marker is flows/worker.py's READERS_WARM.
  echo "warming up the reading processes (up to ${DOCINTAKE_WARM_WAIT_SECONDS:-180} s)..."
  warm=0
  for _ in $(seq 1 "${DOCINTAKE_WARM_WAIT_SECONDS:-180}"); do
    if grep -q "reading processes warm" "$DOCINTAKE_VAR_DIR/prefect-worker.log" 2>/dev/null; then
      warm=1
      break
    fi
    kill -0 "${pids[1]}" 2>/dev/null || break
    sleep 1
  done
  if [ "$warm" = 1 ]; then
    echo "pipeline warm"
  else
    echo "the pipeline is not warm yet (see $DOCINTAKE_VAR_DIR/prefect-worker.log); starting the API anyway"
  fi
fi

$BIN/docintake serve --host 127.0.0.1 --port 8000 &
pids+=($!)
echo "API and web app: http://127.0.0.1:8000 (OpenAPI at /docs)"

$BIN/docintake mail &
pids+=($!)
echo "SMTP intake:     127.0.0.1:2525 (docs/email.md)"

wait -n "${pids[@]}"
