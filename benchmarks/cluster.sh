#!/usr/bin/env bash
# Two nodes, one database, one broker (issue 24, item 4; docs/benchmarks.md, "Two nodes").
#
#   benchmarks/cluster.sh [--rate 100] [--seconds 60] [--gadgets 30] [--seed N] [--kills 1] [--gate-kills 0]
#                         [--nodes 2] [--label NAME] [--skip-build]
#   benchmarks/cluster.sh --compare [--rate 100] [--seconds 60] [--warmup 30] [--gadgets 200] [--agents 200]
#                         [--label NAME] [--skip-build] [run.sh flags]
#
# The fault run (the default): builds the firmware stubs, the platform (into $RINGZERO_BENCH_BUILD_DIR,
# /tmp/bench-platform-target unless set; `mvn install` also puts the platform into ~/.m2, which the
# harness builds against) and the harness; starts RingZero's Mosquitto (mqtt-broker/start.sh, fresh state,
# 127.0.0.1:18910) and a PostgreSQL server of its own (bench.PostgresCluster, 127.0.0.1:18912, never the
# machine's); then the fault suite (dev.ringzero.bench.CrashSuite) with --nodes 2: two platform processes
# in cluster mode (RINGZERO_CLUSTER=true, node ids 1 and 2, HTTP 18900 and 18901, a data directory
# each), simulated desk bots sending --rate events/s for --seconds, one SIGKILL to a node chosen at
# seeded random at a seeded random moment in the first half of the stretch, and that node started
# again at once (the load goes on at least 15 s after it is healthy, while it takes its partitions
# back). Judged at the boards: acknowledged events without a run or a shed decision, commands no run
# names, effects twice, runs active after their deadline; all must be 0. Prints the findings line;
# exit status 0 only if clean. --seed N replays a run's choices (node, moment). --gate-kills N also kills
# a random node N times between a gate's approval and the rover's answer, after the load.
# Output: benchmarks/results/NAME.log, the nodes' logs under benchmarks/results/NAME-nodes/.
#
# --compare: the same load on 1 node and on 2 nodes, both in cluster mode (benchmarks/run.sh --nodes 1
# --cluster, then --nodes 2: the same code, only the count of nodes differs), and a table side by side:
# event->command latency p50/p99 at the boards, runs/s, CPU per event of each platform JVM, PostgreSQL
# and Mosquitto. Both share this machine's cores, so two nodes are not expected to be faster here;
# the table says where the time goes. Results: benchmarks/results/NAME-1node.json, NAME-2nodes.json.
# No gate samples unless --gate-samples K is given (on two nodes they are refused mover_busy: a drive
# answered on the other node keeps its mover lease to the 10 s bound).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

mode=fault rate=100 seconds=60 gadgets="" seed="" kills=1 gate_kills=0 nodes=2 label="" skip_build=false
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --compare) mode=compare; shift ;;
    --rate) rate=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --gadgets) gadgets=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --kills) kills=$2; shift 2 ;;
    --gate-kills) gate_kills=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    --skip-build) skip_build=true; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    --*) pass+=("$1" "$2"); shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
results="$here/results"
mkdir -p "$results"
say() { echo "[cluster.sh $(date +%T)] $*"; }

if [ "$mode" = compare ]; then
  label=${label:-cluster-r${rate}}
  build=()
  [ "$skip_build" = true ] && build=(--skip-build)
  status=0
  say "1 node (cluster mode), $rate events/s"
  # no gate samples unless asked for: the gate path is not a load path, and on two nodes a drive
  # whose answer reaches the other node keeps its mover lease to the 10 s bound (policy.Movers),
  # so samples 0.1 s apart are refused mover_busy there
  "$here/run.sh" "${build[@]}" --nodes 1 --cluster --rate "$rate" --seconds "$seconds" \
    ${gadgets:+--gadgets "$gadgets"} --label "$label-1node" --gate-samples 0 "${pass[@]}" || status=$?
  say "2 nodes, $rate events/s"
  "$here/run.sh" --skip-build --nodes 2 --rate "$rate" --seconds "$seconds" \
    ${gadgets:+--gadgets "$gadgets"} --label "$label-2nodes" --gate-samples 0 "${pass[@]}" || status=$?
  cp="$here/target/classes:$(cat "$here/target/classpath.txt")"
  java -cp "$cp" dev.ringzero.bench.NodeComparison "$results/$label-1node.json" "$results/$label-2nodes.json" \
    | tee "$results/$label-comparison.txt"
  exit $status
fi

# ---- the fault run
[ "$nodes" -ge 2 ] || { echo "--nodes is 2 or more here (one node: CrashSuiteTest, benchmarks/crash.sh)" >&2; exit 2; }
gadgets=${gadgets:-30}
label=${label:-cluster-fault-r${rate}}
build_dir=${RINGZERO_BENCH_BUILD_DIR:-/tmp/bench-platform-target}
http_port=18900 mqtt_port=18910 pg_port=18912
"$root/bin/prerequisites"
if [ "$skip_build" != true ]; then
  say "building firmware stubs, platform ($build_dir) and harness"
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$root/device-firmware-stubs/pom.xml" install -DskipTests
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$root/pom.xml" install -Dmaven.test.skip=true -Dringzero.build.dir="$build_dir"
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$here/pom.xml" package -DskipTests
fi
jar=$(ls "$build_dir"/ringzero-platform-*-exec.jar | head -n 1)
cp="$here/target/classes:$(cat "$here/target/classpath.txt")"

free_port() { ! (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null; }
for port in $(seq "$http_port" $(( http_port + nodes - 1 ))) "$mqtt_port" "$pg_port"; do
  for _ in $(seq 1 20); do free_port "$port" && break; sleep 0.5; done
  free_port "$port" || { echo "port $port is taken" >&2; exit 1; }
done

service_password="cluster-service-$RANDOM$RANDOM"
state="$results/.mosquitto-$mqtt_port"
data="$results/$label-nodes"
log="$results/$label.log"
broker_started=false
cleanup() {
  [ "$broker_started" = true ] && "$root/mqtt-broker/stop.sh" "$state" >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "Mosquitto on 127.0.0.1:$mqtt_port (fresh state in $state)"
rm -rf "$state" "$data"
RINGZERO_MQTT_SERVICE_PASSWORD="$service_password" "$root/mqtt-broker/start.sh" "$state" "$mqtt_port"
broker_started=true

say "fault run: $nodes nodes, $rate events/s over $gadgets gadgets for $seconds s, $kills kill(s); log $log"
set +e
java -cp "$cp" dev.ringzero.bench.CrashSuite --shape production --nodes "$nodes" --jar "$jar" \
  --data-dir "$data" --http-port "$http_port" --mqtt-port "$mqtt_port" \
  --pg-data "/tmp/ringzero-cluster-pg-$pg_port" --pg-port "$pg_port" \
  --mqtt-service-password "$service_password" --repo "$root" \
  --rate "$rate" --gadgets "$gadgets" --load-seconds "$seconds" --kills "$kills" --gate-kills "$gate_kills" \
  ${seed:+--seed "$seed"} "${pass[@]}" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
say "findings: $(grep -o 'production seed=.*' "$log" | tail -n 1 || echo 'none (the suite did not get to judge)')"
if [ "$status" = 0 ]; then say "clean"; else say "NOT clean (exit $status); details above, node logs under $data"; fi
exit "$status"
