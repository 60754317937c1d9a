#!/usr/bin/env bash
# A crash under load: runs benchmarks/run.sh, kills the platform with SIGKILL some seconds into the
# load, and starts it again at once with the same command line and environment (what a supervisor
# such as systemd would do). The harness keeps sending meanwhile; its losses, shed events and run
# statuses say what the crash cost (docs/benchmarks.md, "A crash under load").
#
#   benchmarks/crash.sh [--kill-after 50] --label NAME [run.sh flags, e.g. --rate 50 --seconds 90 --drain 60]
#
# The restarted platform is not run.sh's child: its log is benchmarks/results/NAME-platform-restarted.log,
# and the result's platform CPU and RSS are those of the killed process (read as NaN at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
kill_after=50 label="" args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --kill-after) kill_after=$2; shift 2 ;;
    --label) label=$2; args+=("$1" "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
[ -n "$label" ] || { echo "--label NAME is required" >&2; exit 2; }
log="benchmarks/results/$label-run.log"
mkdir -p benchmarks/results
benchmarks/run.sh "${args[@]}" >"$log" 2>&1 &
bench=$!
until grep -q "load:" "$log"; do
  kill -0 "$bench" 2>/dev/null || { echo "run.sh ended before the load; see $log" >&2; exit 1; }
  sleep 1
done
sleep "$kill_after"
pid=$(pgrep -n -f "ringzero-platform-.*-exec.jar") || { echo "no platform process to kill" >&2; exit 1; }
env_file=$(mktemp)
tr '\0' '\n' <"/proc/$pid/environ" | grep -E "^(SPRING_PROFILES_ACTIVE|RINGZERO_[A-Z_]*|PORT)=" >"$env_file"
# the command line as it was given, argument by argument (NUL-separated in /proc)
mapfile -d '' -t cmd <"/proc/$pid/cmdline"
http_port=$(sed -n 's/^PORT=//p' "$env_file")
echo "[crash.sh $(date +%T)] SIGKILL to the platform (pid $pid), $kill_after s into the load"
kill -9 "$pid"
(set -a; . "$env_file"; set +a; exec "${cmd[@]}") >"benchmarks/results/$label-platform-restarted.log" 2>&1 &
restarted=$!
rm -f "$env_file"
started=$(date +%s)
until curl -sf "http://127.0.0.1:$http_port/actuator/health" 2>/dev/null | grep -q '"status":"UP"'; do
  if [ $(( $(date +%s) - started )) -gt 300 ]; then echo "the restarted platform is not healthy after 300 s" >&2; break; fi
  sleep 1
done
echo "[crash.sh $(date +%T)] restarted platform healthy after $(( $(date +%s) - started )) s (pid $restarted)"
status=0
wait "$bench" || status=$?
# run.sh has stopped the database and the broker under it: a graceful stop would wait on them
kill "$restarted" 2>/dev/null || true
for _ in $(seq 1 10); do kill -0 "$restarted" 2>/dev/null || break; sleep 1; done
kill -9 "$restarted" 2>/dev/null || true
wait "$restarted" 2>/dev/null || true
sed -n '/^RingZero benchmark/,$p' "$log"
exit "$status"
