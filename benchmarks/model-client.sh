#!/usr/bin/env bash
# What one model turn's HTTP exchange costs a node: the llm model client (OpenAiCompatibleModel.ask)
# against an OpenAI-compatible server in the same JVM that answers at once, from as many threads as a
# node's model-turn workers. Prints CPU per ask besides the server's, wall time per ask and threads
# started per ask, per round (docs/benchmarks.md, the twenty-third series).
#   benchmarks/model-client.sh [asks=3000] [workers=16] [rounds=6]
# Compiles the platform's tests (ModelClientBench lives beside the client, in src/test/java) into
# /tmp/bench-model-client, never ./target; needs no database, broker or network.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build_dir=${RINGZERO_BENCH_MODEL_CLIENT_DIR:-/tmp/bench-model-client}
mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$root/pom.xml" test-compile -Dringzero.build.dir="$build_dir"
mvn -B -q -Dstyle.color=never ${MAVEN_ARGS:-} -f "$root/pom.xml" dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile="$build_dir/classpath.txt" -Dringzero.build.dir="$build_dir"
# the server answers without Nagle's delay (its default keeps a reply's body until the client acks its head)
java -Xmx512m -Dsun.net.httpserver.nodelay=true -cp "$build_dir/test-classes:$build_dir/classes:$(cat "$build_dir/classpath.txt")" \
  dev.ringzero.agents.llm.ModelClientBench "$@"
