#!/usr/bin/env bash
# Renders the latency-over-time plot (SVG) of one or more result files of run.sh.
#   benchmarks/plot.sh OUT.svg benchmarks/results/r100-g200-a200.json [more.json ...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$here/target/classpath.txt" ] || mvn -B -q -Dstyle.color=never -f "$here/pom.xml" package
exec java -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" dev.ringzero.bench.Plot "$@"
