#!/usr/bin/env bash
# JMH micro-benchmarks: PolicyKernel.decide(ActionRequest) and TriggerMatcher.evaluate(...).
#   benchmarks/jmh.sh [--skip-build] [JMH options, e.g. KernelDecideBench -f 1 -wi 3 -i 5]
# Builds the platform's plain jar into /tmp/bench-platform-target and installs it (the benchmarks compile
# against it), then runs JMH; results in benchmarks/results/jmh.json and jmh.txt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build_dir=${RINGZERO_BENCH_BUILD_DIR:-/tmp/bench-platform-target}
if [ "${1:-}" = --skip-build ]; then
  shift
else
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$root/device-firmware-stubs/pom.xml" install -DskipTests
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$root/pom.xml" install -Dmaven.test.skip=true -Dringzero.build.dir="$build_dir"
  mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$here/pom.xml" package
fi
mkdir -p "$here/results"
java -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" org.openjdk.jmh.Main \
  -rf json -rff "$here/results/jmh.json" "$@" | tee "$here/results/jmh.txt"
