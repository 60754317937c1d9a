#!/usr/bin/env bash
# A crash under load: runs benchmarks/run.sh, kills the platform with SIGKILL some seconds into the
# load, and starts it again at once with the same command line and environment (what a supervisor
# such as systemd would do). The harness keeps sending meanwhile; its losses, shed events and run
# statuses say what the crash cost (docs/benchmarks.md, "A crash under load").
#
#   benchmarks/crash.sh [--kill-after 50] --label NAME [run.sh flags, e.g. --rate 50 --seconds 90 --drain 60]
#
# --kill-after counts from the start of the load (warm-up included) and must fall before its end.
# The restarted platform is not run.sh's child: its log is benchmarks/results/NAME-platform-restarted.log.
# The result's platform CPU, RSS and admitted counts are those of the killed process and of the
# restarted one's fresh counters, so they mean nothing here; read losses, shed events and runs.
set -euo pipefail
cd "$(dirname "$0")/.."
kill_after=50 label="" warmup=30 seconds=60 args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --kill-after) kill_after=${2:?--kill-after needs seconds}; shift 2 ;;
    --label) label=${2:?--label needs a name}; args+=("$1" "$2"); shift 2 ;;
    --warmup) warmup=${2:?}; args+=("$1" "$2"); shift 2 ;;
    --seconds) seconds=${2:?}; args+=("$1" "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ -n "$label" ] || { echo "--label NAME is required" >&2; exit 2; }
if [ "$kill_after" -ge $(( warmup + seconds )) ]; then
  echo "--kill-after $kill_after is not within the load (${warmup} s warm-up + ${seconds} s)" >&2
  exit 2
fi

say() { echo "[crash.sh $(date +%T)] $*"; }
log="benchmarks/results/$label-run.log"
mkdir -p benchmarks/results
bench="" restarted=""
# whatever happens, nothing this script started outlives it
# (run.sh runs in a process group of its own, so its load generator goes with it)
trap '[ -n "$restarted" ] && kill -9 "$restarted" 2>/dev/null; [ -n "$bench" ] && kill -- "-$bench" 2>/dev/null; true' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

: >"$log"
setsid benchmarks/run.sh "${args[@]}" >"$log" 2>&1 &
bench=$!
until grep -q "\] load: " "$log"; do
  kill -0 "$bench" 2>/dev/null || { echo "run.sh ended before the load; see $log" >&2; exit 1; }
  sleep 1
done
sleep "$kill_after"
# the platform run.sh started, by the pid it reported
pid=$(sed -n 's/.*platform healthy after .* (pid \([0-9]*\)).*/\1/p' "$log" | tail -n 1)
[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || { echo "the platform run.sh started is not running; see $log" >&2; exit 1; }
mapfile -d '' -t platform_env <"/proc/$pid/environ"
mapfile -d '' -t platform_cmd <"/proc/$pid/cmdline"
http_port=18860
for var in "${platform_env[@]}"; do
  case "$var" in PORT=*) http_port=${var#PORT=} ;; esac
done
say "SIGKILL to the platform (pid $pid), $kill_after s into the load"
kill -9 "$pid"
env -i "${platform_env[@]}" "${platform_cmd[@]}" >"benchmarks/results/$label-platform-restarted.log" 2>&1 &
restarted=$!
started=$(date +%s)
until curl -sf "http://127.0.0.1:$http_port/actuator/health" 2>/dev/null | grep -q '"status":"UP"'; do
  kill -0 "$restarted" 2>/dev/null || { echo "the restarted platform exited; see benchmarks/results/$label-platform-restarted.log" >&2; exit 1; }
  [ $(( $(date +%s) - started )) -le 300 ] || { echo "the restarted platform is not healthy after 300 s" >&2; exit 1; }
  sleep 1
done
say "restarted platform healthy after $(( $(date +%s) - started )) s (pid $restarted)"
status=0
wait "$bench" || status=$?
bench=""
# run.sh has stopped the database and the broker under it: a graceful stop would wait on them
kill "$restarted" 2>/dev/null || true
for _ in $(seq 1 10); do kill -0 "$restarted" 2>/dev/null || break; sleep 1; done
kill -9 "$restarted" 2>/dev/null || true
wait "$restarted" 2>/dev/null || true
restarted=""
sed -n '/^RingZero benchmark/,$p' "$log"
exit "$status"
