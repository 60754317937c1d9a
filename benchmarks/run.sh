#!/usr/bin/env bash
# RingZero's end-to-end benchmark (issue 8; docs/benchmarks.md says what every number means).
#
#   benchmarks/run.sh [--gadgets 200] [--agents 200] [--rate 100] [--seconds 60] [--warmup 30]
#                     [--drain 30] [--floor-seconds 10] [--gate-samples 20] [--label NAME]
#                     [--jfr] [--skip-build] [--platform-jvm-opts "-Xmx512m"]
#                     [--http-port 18860] [--mqtt-port 18861] [--db ringzero_bench]
#                     [--pg own|shared] [--pg-port 18862]
#                     [--llm-sessions 50] [--model-latency-ms 2000] [--model-port 18863] [--llm-cost-seconds 30]
#                     [--llm-spread-ms 4000]
#                     [--platform-jar JAR] [--nodes 1] [--cluster] [--harness-jvm-opts "-XX:+UseZGC -Xss512k"]
#
# Builds the firmware stubs, the platform (into /tmp/bench-platform-target, never ./target) and the
# harness; starts RingZero's own Mosquitto (mqtt-broker/start.sh) on --mqtt-port with fresh state; a
# PostgreSQL server of its own (--pg own, the default: a fresh cluster on 127.0.0.1:--pg-port, set up as
# RingZero's database should be, autovacuum on, see docs/benchmarks.md) or the machine's
# (--pg shared: 127.0.0.1:5432, user postgres, as it is configured), with a fresh database
# (dropped and created); and the platform jar
# as a child process (profiles postgres,mosquitto); waits for /actuator/health; runs the harness
# (dev.ringzero.bench.LoadBench); stops what it started. Result JSON, platform log and (with --jfr) the
# JFR recording and its summary land in benchmarks/results/. Exit status 0 only with zero losses.
# --nodes N (issue 24): N platform processes in cluster mode on the one database and broker (node ids 1..N;
# HTTP on --http-port, then --http-port+4, +5, ...; logs NAME-platform.log, NAME-platform-node2.log, ...),
# started one after the other; the harness sends its REST calls to the first, sums the nodes' counters and
# reports each node's CPU. --cluster: cluster mode with one node too (what --nodes 2 is compared with).
# With --pg own the PostgreSQL CPU is that server's alone (its postmaster and children).
# The platform runs with a 512 MiB heap (-Xmx512m, as the README says to run it in production): without a
# cap the JVM may grow its heap to a quarter of the machine's memory, and the RSS it reports says
# more about that choice than about the platform. --platform-jvm-opts replaces these options.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

gadgets=200 agents=200 rate=100 seconds=60 warmup=30
http_port=18860 mqtt_port=18861 db=ringzero_bench pg=own pg_port=18862
jfr=false skip_build=false jvm_opts="-Xmx512m" label=""
# The harness times every event where the gadget receives its command, so a pause of its own JVM is
# counted as the platform's latency: its G1 young pauses took 66-135 ms on a busy two-core machine
# (24th series), one or two in a measured minute beside llm sessions. ZGC's pauses are under a
# millisecond; its concurrent work costs the harness some CPU instead.
harness_jvm_opts="-XX:+UseZGC -Xss512k"
llm_sessions=0 model_port=18863 platform_jar="" nodes=1 cluster=false
build_dir=${RINGZERO_BENCH_BUILD_DIR:-/tmp/bench-platform-target}
pass=()
while [ $# -gt 0 ]; do
  case "$1" in
    --gadgets) gadgets=$2; shift 2 ;;
    --agents) agents=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    --http-port) http_port=$2; shift 2 ;;
    --mqtt-port) mqtt_port=$2; shift 2 ;;
    --db) db=$2; shift 2 ;;
    --pg) pg=$2; shift 2 ;;
    --pg-port) pg_port=$2; shift 2 ;;
    --jfr) jfr=true; shift ;;
    --skip-build) skip_build=true; shift ;;
    --platform-jvm-opts) jvm_opts=$2; shift 2 ;;
    --harness-jvm-opts) harness_jvm_opts=$2; shift 2 ;;
    --platform-jar) platform_jar=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --cluster) cluster=true; shift ;;
    --llm-sessions) llm_sessions=$2; pass+=("$1" "$2"); shift 2 ;;
    --model-port) model_port=$2; pass+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    --*) pass+=("$1" "$2"); shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
label=${label:-r${rate}-g${gadgets}-a${agents}}
[ "$nodes" -ge 1 ] || { echo "--nodes is 1 or more" >&2; exit 2; }
[ "$nodes" -gt 1 ] && cluster=true
# node n's HTTP port: node 1 on --http-port, the others above the broker's, the database's and the model's
node_port() { if [ "$1" = 1 ]; then echo "$http_port"; else echo $(( http_port + 2 + $1 )); fi; }
results="$here/results"
mkdir -p "$results"

say() { echo "[run.sh $(date +%T)] $*"; }
free_port() { ! (exec 3<>/dev/tcp/127.0.0.1/"$1") 2>/dev/null; }
# PostgreSQL's tools refuse to run as root: a root shell runs them as the postgres user
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

"$root/bin/prerequisites"
if [ "$skip_build" != true ]; then
  say "building firmware stubs, platform ($build_dir) and harness"
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$root/device-firmware-stubs/pom.xml" install -DskipTests
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$root/pom.xml" install -Dmaven.test.skip=true -Dringzero.build.dir="$build_dir"
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$here/pom.xml" package -DskipTests
fi
# --platform-jar: another jar of the platform, e.g. the exec jar extracted (java -Djarmode=tools
# -jar … extract) with a class-data-sharing archive in --platform-jvm-opts (the cold node, issue 25)
jar=${platform_jar:-$(ls "$build_dir"/ringzero-platform-*-exec.jar | head -n 1)}
cp="$here/target/classes:$(cat "$here/target/classpath.txt")"

# a previous run's platform or broker may still be closing its sockets
for _ in $(seq 1 20); do
  free_port "$http_port" && free_port "$mqtt_port" && { [ "$pg" != own ] || free_port "$pg_port"; } && break
  sleep 0.5
done
for n in $(seq 1 "$nodes"); do
  free_port "$(node_port "$n")" || { echo "port $(node_port "$n") (node $n's HTTP) is taken" >&2; exit 1; }
done
free_port "$mqtt_port" || { echo "port $mqtt_port is taken (--mqtt-port)" >&2; exit 1; }
case "$pg" in
  own) free_port "$pg_port" || { echo "port $pg_port is taken (--pg-port)" >&2; exit 1; } ;;
  shared) pg_port=5432 ;;
  *) echo "--pg is own or shared" >&2; exit 2 ;;
esac

service_password="bench-service-$RANDOM$RANDOM"
admin_password="bench-admin-$RANDOM$RANDOM"
state="$results/.mosquitto-$mqtt_port"
platform_pid=""
platform_pids=()
mosquitto_pid=""
pg_data=""
cleanup() {
  for pid in "${platform_pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      say "stopping the platform (pid $pid)"
      kill "$pid" 2>/dev/null || true
    fi
  done
  for pid in "${platform_pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
  done
  if [ -n "$mosquitto_pid" ] && kill -0 "$mosquitto_pid" 2>/dev/null; then
    kill "$mosquitto_pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$mosquitto_pid" 2>/dev/null || break; sleep 0.1; done
  fi
  if [ -n "$pg_data" ] && [ -f "$pg_data/postmaster.pid" ]; then
    as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -m fast -w stop >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

say "Mosquitto on 127.0.0.1:$mqtt_port (fresh state in $state)"
rm -rf "$state"
RINGZERO_MQTT_SERVICE_PASSWORD="$service_password" "$root/mqtt-broker/start.sh" "$state" "$mqtt_port"
mosquitto_pid=$(cat "$state/mosquitto.pid")

if [ "$pg" = own ]; then
  # A server of the benchmark's own, as RingZero's database should be run: the engine's runtime tables
  # (executions, jobs, subscriptions) are queues, a row inserted and deleted per run, so they need
  # autovacuum, or every lookup wades through dead rows. At PostgreSQL's default naptime: every round
  # makes every connection re-plan the statements on the tables it vacuumed or analysed, and at 10 s
  # (until the 25th series) those bursts stalled a busy node for a second or more. A machine's
  # server may be set up otherwise (this project's CI machine turns autovacuum off).
  # Debian keeps the server's programs out of PATH; elsewhere initdb is on it
  pg_bin=$( (ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true) | sort -V | tail -n 1)
  [ -n "$pg_bin" ] || pg_bin=$(dirname "$(command -v initdb || echo /initdb-not-found/initdb)")
  [ -x "$pg_bin/initdb" ] || { echo "no PostgreSQL server programs (initdb) found; install them or use --pg shared" >&2; exit 1; }
  pg_data=/tmp/ringzero-bench-pg-$pg_port
  say "PostgreSQL of its own on 127.0.0.1:$pg_port ($pg_data, autovacuum on)"
  rm -rf "$pg_data"
  mkdir -p "$pg_data"
  [ "$(id -u)" = 0 ] && chown postgres "$pg_data"
  as_postgres "$pg_bin/initdb" -D "$pg_data" -U postgres -A trust -E UTF8 --no-sync >/dev/null
  cat >>"$pg_data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $pg_port
unix_socket_directories = '$pg_data'
autovacuum = on
autovacuum_naptime = 1min
# statements per event (the harness reads pg_stat_statements' calls; a few per cent of the server's CPU)
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = top
${RINGZERO_BENCH_PG_CONF:-}
CONF
  as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w start >/dev/null
fi
say "PostgreSQL database $db on :$pg_port (dropped and created)"
psql -h 127.0.0.1 -p "$pg_port" -U postgres -v ON_ERROR_STOP=1 -q -c "drop database if exists $db with (force)" \
  -c "create database $db" >/dev/null
# where the server does not load the module (--pg shared, as configured), the figure is left out
psql -h 127.0.0.1 -p "$pg_port" -U postgres -d "$db" -q -c "create extension if not exists pg_stat_statements" \
  >/dev/null 2>&1 || true
history_level=$(grep -E '^\s+history-level:' "$root/src/main/resources/application.yaml" | awk '{print $2}' || true)

jfr_opts=()
if [ "$jfr" = true ]; then
  jfr_opts=(-XX:FlightRecorderOptions:stackdepth=256)
  pass+=(--jfr-file "$results/$label.jfr")
fi
# --llm-sessions: the platform's model is the harness's fake one (LoadBench starts it on --model-port),
# with a worker per session (ringzero.llm.workers) and no daily token limit worth the name
llm_env=()
if [ "$llm_sessions" -gt 0 ]; then
  free_port "$model_port" || { echo "port $model_port is taken (--model-port)" >&2; exit 1; }
  llm_env=(RINGZERO_LLM_BASE_URL="http://127.0.0.1:$model_port" RINGZERO_LLM_MODEL=fake-fixed-latency
           RINGZERO_LLM_WORKERS="$llm_sessions" RINGZERO_LLM_DAILYTOKENSPEROWNER=1000000000)
fi
cluster_env=()
[ "$cluster" = true ] && cluster_env=(RINGZERO_CLUSTER=true)
http_urls="" platform_pid_list=""
for n in $(seq 1 "$nodes"); do
  port=$(node_port "$n")
  node_log="$results/$label-platform.log"
  [ "$n" = 1 ] || node_log="$results/$label-platform-node$n.log"
  say "platform $(basename "$jar") on :$port${cluster_env:+ (cluster mode, node $n)} ${jvm_opts:+($jvm_opts)}"
  # shellcheck disable=SC2086
  SPRING_PROFILES_ACTIVE=postgres,mosquitto \
  RINGZERO_DB_URL="jdbc:postgresql://127.0.0.1:$pg_port/$db" \
  RINGZERO_MQTT_PORT="$mqtt_port" \
  RINGZERO_MQTT_SERVICE_PASSWORD="$service_password" \
  RINGZERO_MQTT_NODE_ID="$n" \
  RINGZERO_ADMIN_PASSWORD="$admin_password" \
  PORT="$port" \
    env "${llm_env[@]}" "${cluster_env[@]}" java $jvm_opts "${jfr_opts[@]}" -jar "$jar" >"$node_log" 2>&1 &
  platform_pid=$!
  platform_pids+=("$platform_pid")
  started=$(date +%s)
  # one after the other: the first creates the schema
  until curl -sf "http://127.0.0.1:$port/actuator/health" 2>/dev/null | grep -q '"status":"UP"'; do
    if ! kill -0 "$platform_pid" 2>/dev/null; then
      echo "the platform exited; last lines of $node_log:" >&2
      tail -n 40 "$node_log" >&2
      exit 1
    fi
    if [ $(( $(date +%s) - started )) -gt 300 ]; then
      echo "the platform is not healthy after 300 s; see $node_log" >&2
      curl -s "http://127.0.0.1:$port/actuator/health" >&2 || true
      exit 1
    fi
    sleep 1
  done
  if [ "$nodes" = 1 ]; then
    say "platform healthy after $(( $(date +%s) - started )) s (pid $platform_pid)"
  else
    say "platform node $n healthy after $(( $(date +%s) - started )) s (pid $platform_pid)"
  fi
  http_urls="$http_urls${http_urls:+,}http://127.0.0.1:$port"
  platform_pid_list="$platform_pid_list${platform_pid_list:+,}$platform_pid"
done
postgres_pid=()
[ "$pg" = own ] && postgres_pid=(--postgres-pid "$(head -n 1 "$pg_data/postmaster.pid")")

status=0
# shellcheck disable=SC2086
java $harness_jvm_opts -cp "$cp" dev.ringzero.bench.LoadBench \
  --http "$http_urls" --admin-password "$admin_password" --mqtt-service-password "$service_password" \
  --jdbc "jdbc:postgresql://127.0.0.1:$pg_port/$db" --db-user postgres \
  --platform-pid "$platform_pid_list" --mosquitto-pid "$mosquitto_pid" --clk-tck "$(getconf CLK_TCK)" \
  "${postgres_pid[@]}" \
  --gadgets "$gadgets" --agents "$agents" --rate "$rate" --seconds "$seconds" --warmup "$warmup" \
  --label "$label" --out "$results/$label.json" \
  --platform-jvm-opts "$jvm_opts" --harness-jvm-opts "$harness_jvm_opts" --history-level "${history_level:-?}" "${pass[@]}" || status=$?

# stop the platform and the broker before summarizing (an overloaded platform keeps working off its backlog)
cleanup
if [ "$jfr" = true ] && [ -f "$results/$label.jfr" ]; then
  java -cp "$cp" dev.ringzero.bench.JfrTop "$results/$label.jfr" 30 >"$results/$label-jfr.txt" 2>&1 || true
  say "JFR summary: $results/$label-jfr.txt (recording $results/$label.jfr)"
fi
exit $status
